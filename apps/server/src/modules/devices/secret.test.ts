import { Writable } from 'node:stream';
import {
  authContract,
  devicesContract as c,
  DEVICE_MESSAGES,
  deviceChannelContract,
  routeUrl,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testDatabase } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { secretHash, startEmbeddedBroker } from './gateway/broker';
import type { Ingestor } from './gateway/ingestor';
import { eventsTopic } from './gateway/topics';

/** ADR 051: a device whose secret is lost or leaked is given a new one. */

let app: App;
let db: Database;
let port = 0;
let programId = 0;
let patientId = 0;
const token = { nurse: '', pharma: '', outsider: '', controller: '' };
const clients: MqttClient[] = [];
const logLines: string[] = [];

const replace = (as: string, id: number | string) =>
  app.inject({ method: 'POST', url: routeUrl(c.replaceSecret, { id }), headers: bearer(as) });

/** Signs a device in to the embedded broker; resolves with the client, or rejects with the refusal. */
async function connect(username: string, password: string, at = port) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${at}`, {
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return client;
}

const connected = async (id: number) =>
  (await db.execute<{ connected: boolean }>(sql`SELECT connected FROM devices WHERE id = ${id}`)).rows[0]!
    .connected;

beforeAll(async () => {
  ({ db } = await testDatabase());
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  ({ app } = await buildApp({
    config: testConfig({ WEB_DIST: '/nonexistent', MQTT_PORT: 0, MQTT_HOST: '127.0.0.1' }),
    db,
    logOptions: { level: 'trace', stream },
  }));
  await app.ready();
  port = app.deviceGateway.status().port!;
  const g = given(db);
  programId = (await g.program()).id;
  const other = (await g.program()).id;
  patientId = (await g.patient({ programId })).id;
  const signed = async (id: number, role: 'care_coordinator' | 'pharma' | 'admin') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId: id, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.nurse = await signed(programId, 'care_coordinator');
  token.pharma = await signed(programId, 'pharma');
  token.outsider = await signed(other, 'admin');
  const controller = await g.controllerAccount();
  const res = await app.inject({
    method: 'POST',
    url: authContract.controllerSignIn.path,
    payload: { email: controller.email, password: FACTORY_PASSWORD },
  });
  token.controller = res.json().access_token;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await app?.close();
});

describe('replacing a device secret', () => {
  it('closes the connection signed in with the old secret, refuses the old secret and accepts the new one', async () => {
    const device = await given(db).device({ programId, patientId, kind: 'dispenser', dispenserType: 1 });
    const live = await connect(device.serial, device.secret);
    await expect.poll(() => connected(device.id)).toBe(true);
    const closed = new Promise<void>((resolve) => live.once('close', () => resolve()));

    const res = await replace(token.nurse, device.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      message: DEVICE_MESSAGES.secretReplaced,
      data: { id: device.id, serial: device.serial, program_id: programId },
      connection: {
        broker: { kind: 'embedded', host: '127.0.0.1', port },
        username: device.serial,
        topics: { events: eventsTopic(device.serial) },
      },
      disconnected: 1,
    });
    const secret = body.secret as string;
    expect(secret).not.toBe(device.secret);
    expect(secret.length).toBeGreaterThanOrEqual(32);

    // The live connection is closed and the device shows as not connected.
    await closed;
    await expect.poll(() => connected(device.id)).toBe(false);
    // The old secret no longer signs in: "bad user name or password".
    await expect(connect(device.serial, device.secret)).rejects.toMatchObject({ code: 4 });
    // The new one does, and its events are stored (the PUBACK comes after the commit).
    const fresh = await connect(device.serial, secret);
    await fresh.publishAsync(
      eventsTopic(device.serial),
      JSON.stringify({ seq: 1, type: 'battery', at: new Date().toISOString(), battery: 55 }),
      { qos: 1 },
    );
    const stored = await db.execute<{ battery: number }>(
      sql`SELECT battery FROM devices WHERE id = ${device.id}`,
    );
    expect(stored.rows[0]!.battery).toBe(55);
    await expect.poll(() => connected(device.id)).toBe(true);
  });

  it('writes an audit row without the secret, and never logs the secret', async () => {
    const device = await given(db).device({ programId, kind: 'inhaler' });
    const res = await replace(token.nurse, device.id);
    expect(res.statusCode).toBe(200);
    const secret = res.json().secret as string;
    const rows = await db.execute<{ program_id: number; actor_realm: string; details: unknown }>(sql`
      SELECT program_id, actor_realm, details FROM audit_events
      WHERE action = 'device.secret_replaced' AND subject_type = 'device' AND subject_id = ${device.id}`);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ program_id: programId, actor_realm: 'staff' });
    const audited = JSON.stringify(rows.rows[0]);
    expect(audited).not.toContain(secret);
    expect(audited).not.toContain(device.secret);
    const log = logLines.join('');
    expect(log).not.toContain(secret);
  });

  it('takes effect on the NFC channel (HTTP Basic) at once', async () => {
    const reader = await given(db).device({ programId, patientId, kind: 'nfc_reader' });
    const basic = (secret: string) => ({
      authorization: `Basic ${Buffer.from(`${reader.serial}:${secret}`).toString('base64')}`,
    });
    const ask = (secret: string) =>
      app.inject({
        method: 'POST',
        url: deviceChannelContract.nfcProgram.path,
        payload: { barcode: 'NO-SUCH-POD' },
        headers: basic(secret),
      });
    // Signed in (an unknown pod is 404); after the rotation the old secret is refused.
    expect((await ask(reader.secret)).statusCode).toBe(404);
    const res = await replace(token.nurse, reader.id);
    expect((await ask(reader.secret)).statusCode).toBe(401);
    expect((await ask(res.json().secret)).statusCode).toBe(404);
  });

  it('is for the roles that register devices in the device program, and controllers', async () => {
    const device = await given(db).device({ programId, kind: 'dispenser', dispenserType: 2 });
    const other = await given(db).program();
    const foreign = await given(db).device({ programId: other.id, kind: 'dispenser', dispenserType: 1 });

    // Another program's device and an unknown id answer the same 404; nothing changes.
    const outsider = await replace(token.outsider, device.id);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().message).toBe(DEVICE_MESSAGES.deviceNotFound);
    expect((await replace(token.nurse, foreign.id)).statusCode).toBe(404);
    expect((await replace(token.nurse, 999_999)).statusCode).toBe(404);
    expect((await replace(token.nurse, 'abc')).statusCode).toBe(404);
    // A role in the program that may not register devices: 403.
    expect((await replace(token.pharma, device.id)).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: routeUrl(c.replaceSecret, { id: device.id }) })).statusCode,
    ).toBe(401);
    const unchanged = await connect(device.serial, device.secret);
    expect(unchanged.connected).toBe(true);

    // Controllers operate the whole fleet; an unknown id is 404 for them too.
    const fleet = await replace(token.controller, foreign.id);
    expect(fleet.statusCode, fleet.body).toBe(200);
    expect(fleet.json().disconnected).toBe(0);
    await expect(connect(foreign.serial, foreign.secret)).rejects.toMatchObject({ code: 4 });
    expect((await connect(foreign.serial, fleet.json().secret)).connected).toBe(true);
    expect((await replace(token.controller, 999_999)).statusCode).toBe(404);
    const audit = await db.execute<{ actor_realm: string }>(sql`
      SELECT actor_realm FROM audit_events WHERE action = 'device.secret_replaced' AND subject_id = ${foreign.id}`);
    expect(audit.rows).toEqual([{ actor_realm: 'controller' }]);
  });
});

describe('a sign-in racing the replacement', () => {
  it('refuses the old secret when its credential was read just before the new one was committed', async () => {
    // The broker alone, over a stand-in for the database whose first credential read is held.
    let stored = secretHash('old-secret');
    let release: (() => void) | null = null;
    const pool = {
      async query(text: string) {
        if (!text.startsWith('SELECT id, serial, secret_hash')) return { rows: [] };
        const row = { id: 7, serial: 'RACE-1', secret_hash: stored, kind: 'dispenser' };
        if (!release) await new Promise<void>((resolve) => (release = resolve));
        return { rows: [row] };
      },
    } as unknown as pg.Pool;
    const broker = await startEmbeddedBroker({
      pool,
      ingestor: {} as Ingestor,
      log: pino({ level: 'silent' }),
      host: '127.0.0.1',
      port: 0,
      onReply: () => {},
    });
    try {
      const signIn = connect('RACE-1', 'old-secret', broker.port);
      await expect.poll(() => release !== null).toBe(true);
      // The replacement commits and is announced while that read is on its way with the old hash.
      stored = secretHash('new-secret');
      expect(broker.revoke(7, stored)).toBe(0);
      release!();
      await expect(signIn).rejects.toMatchObject({ code: 4 });
      expect((await connect('RACE-1', 'new-secret', broker.port)).connected).toBe(true);
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
      await broker.close();
    }
  });
});
