import { randomBytes } from 'node:crypto';
import { devicesContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { commandsTopic, eventsTopic, repliesTopic } from './gateway/topics';

// Needs an MQTT broker: runs when TEST_MQTT_URL is set (npm test sets it to MQTT_URL, or to the
// Mosquitto answering on 127.0.0.1:1883).
const url = process.env.TEST_MQTT_URL;
const clientId = `caredeck-test-${randomBytes(4).toString('hex')}`;

describe.runIf(url)('the gateway behind an external broker', () => {
  let app: App;
  let db: Database;
  let token = '';
  let dispenser = { id: 0, serial: '', secret: '' };
  const clients: MqttClient[] = [];

  async function device(serial: string) {
    const client = mqtt.connect(url!, {
      clientId: `dev-${serial}-${randomBytes(3).toString('hex')}`,
      reconnectPeriod: 0,
    });
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    return client;
  }
  const count = async (query: ReturnType<typeof sql>) =>
    Number((await db.execute<{ n: number }>(query)).rows[0]!.n);

  beforeAll(async () => {
    ({ app, db } = await testApp({
      MQTT_URL: url,
      MQTT_CLIENT_ID: clientId,
      MQTT_PORT: -1,
      INGEST_BATCH_WAIT_MS: 5,
    }));
    const g = given(db);
    const programId = (await g.program()).id;
    const patientId = (await g.patient({ programId })).id;
    dispenser = await g.device({ programId, patientId, kind: 'dispenser', dispenserType: 2 });
    await g.regimen({ patientId, programId, times: ['08:00'], deviceSerial: dispenser.serial });
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId, role: 'care_coordinator' }],
    });
    token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await app.close();
    // Drop the gateway's persistent session at the broker (a clean connect discards it).
    const cleaner = mqtt.connect(url!, { clientId, clean: true, reconnectPeriod: 0 });
    await new Promise<void>((resolve) => cleaner.once('connect', () => resolve()));
    await cleaner.endAsync(true);
  });

  it('stores events the broker forwards, once each, and counts unknown devices', async () => {
    expect(app.deviceGateway.status().broker).toBe('external');
    const client = await device(dispenser.serial);
    const event = { seq: 1, type: 'dose_taken', at: new Date().toISOString() };
    await client.publishAsync(eventsTopic(dispenser.serial), JSON.stringify(event), { qos: 1 });
    await client.publishAsync(eventsTopic(dispenser.serial), JSON.stringify(event), { qos: 1 });
    await client.publishAsync(
      eventsTopic(dispenser.serial),
      JSON.stringify({ ...event, seq: 2, type: 'heartbeat', battery: 55 }),
      { qos: 1 },
    );
    await expect
      .poll(() => count(sql`SELECT count(*) AS n FROM device_events WHERE device_id = ${dispenser.id}`), {
        timeout: 5000,
      })
      .toBe(2);
    expect(
      await count(sql`SELECT count(*) AS n FROM medication_usages WHERE device_event_id IS NOT NULL`),
    ).toBe(1);
    const stranger = await device('SN-STRANGER');
    await stranger.publishAsync(eventsTopic('SN-STRANGER'), JSON.stringify(event), { qos: 1 });
    await expect
      .poll(() => app.deviceGateway.status().external?.unknownDevices ?? 0, { timeout: 5000 })
      .toBe(1);
  });

  it('sends a command through the broker and shows the reply', async () => {
    const client = await device(dispenser.serial);
    await client.subscribeAsync(commandsTopic(dispenser.serial), { qos: 1 });
    client.on('message', (topic, payload) => {
      if (topic !== commandsTopic(dispenser.serial)) return;
      const cmd = JSON.parse(payload.toString()) as { id: number; command: string };
      client.publish(
        repliesTopic(dispenser.serial),
        JSON.stringify({ id: cmd.id, ok: true, command: cmd.command }),
        { qos: 1 },
      );
    });
    const res = await app.inject({
      method: 'POST',
      url: routeUrl(devicesContract.message, { id: dispenser.id }),
      payload: { dispenserType: 2, data: { command: 'get_status' } },
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().command.reply).toMatchObject({ ok: true, command: 'get_status' });
  });
});
