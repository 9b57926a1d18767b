import {
  authContract,
  devicesContract as c,
  DEVICE_MESSAGES,
  type RouteContract,
  routeUrl,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { commandsTopic, repliesTopic } from './gateway/topics';

let app: App;
let db: Database;
let port = 0;
const token = { nurse: '', pharma: '', outsider: '', controller: '' };
let programId = 0;
let otherProgram = 0;
let patientId = 0;
let type1 = { id: 0, serial: '', secret: '' };
let type2 = { id: 0, serial: '', secret: '' };
let foreign = { id: 0, serial: '', secret: '' };
const clients: MqttClient[] = [];

const url = (
  contract: RouteContract,
  params?: Record<string, number | string>,
  query?: Record<string, string>,
) => routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

/** A simulated dispenser: answers each command on its replies topic, as the real firmware does. */
async function device(
  d: { serial: string; secret: string },
  answer: (cmd: Record<string, unknown>) => Record<string, unknown> | null,
) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    username: d.serial,
    password: d.secret,
    reconnectPeriod: 0,
  });
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync(commandsTopic(d.serial), { qos: 1 });
  client.on('message', (_topic, payload) => {
    const cmd = JSON.parse(payload.toString()) as Record<string, unknown>;
    const reply = answer(cmd);
    if (reply) client.publish(repliesTopic(d.serial), JSON.stringify(reply), { qos: 1 });
  });
  // The gateway marks it connected asynchronously.
  await expect
    .poll(
      async () =>
        (
          await db.execute<{ connected: boolean }>(
            sql`SELECT connected FROM devices WHERE serial = ${d.serial}`,
          )
        ).rows[0]?.connected,
    )
    .toBe(true);
  return client;
}

beforeAll(async () => {
  ({ app, db } = await testApp({ MQTT_PORT: 0, MQTT_HOST: '127.0.0.1', DEVICE_COMMAND_TIMEOUT_MS: 400 }));
  port = app.deviceGateway.status().port!;
  const g = given(db);
  programId = (await g.program()).id;
  otherProgram = (await g.program()).id;
  patientId = (await g.patient({ programId })).id;
  const foreignPatient = (await g.patient({ programId: otherProgram })).id;
  type1 = await g.device({ programId, patientId, kind: 'dispenser', dispenserType: 1 });
  type2 = await g.device({ programId, kind: 'dispenser', dispenserType: 2 });
  foreign = await g.device({
    programId: otherProgram,
    patientId: foreignPatient,
    kind: 'dispenser',
    dispenserType: 1,
  });
  const signed = async (id: number, role: 'care_coordinator' | 'pharma' | 'admin') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId: id, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.nurse = await signed(programId, 'care_coordinator');
  token.pharma = await signed(programId, 'pharma');
  token.outsider = await signed(otherProgram, 'admin');
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
});

describe('dispensers', () => {
  it('shows a dispenser of the program to its staff and to controllers, 404 to anyone else', async () => {
    const res = await call(token.nurse, 'GET', url(c.dispenser, { id: type1.id }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      serial: type1.serial,
      dispenser_type: 1,
      patient: { id: patientId },
      subscribed: false,
    });
    expect((await call(token.controller, 'GET', url(c.dispenser, { id: foreign.id }))).statusCode).toBe(200);
    expect((await call(token.outsider, 'GET', url(c.dispenser, { id: type1.id }))).statusCode).toBe(404);
    expect((await call(token.nurse, 'GET', url(c.dispenser, { id: 999_999 }))).statusCode).toBe(404);
    expect((await call(token.controller, 'GET', url(c.dispenser, { id: 999_999 }))).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: url(c.dispenser, { id: type1.id }) })).statusCode).toBe(
      401,
    );
  });

  it('subscribes and unsubscribes with the right dispenser type', async () => {
    const wrong = await call(token.nurse, 'POST', url(c.subscribe, { id: type1.id }), { dispenserType: 2 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.dispenserType).toEqual([DEVICE_MESSAGES.wrongType(1)]);
    const on = await call(token.nurse, 'POST', url(c.subscribe, { id: type1.id }), { dispenserType: 1 });
    expect(on.json()).toEqual({ message: DEVICE_MESSAGES.subscribed, subscribed: true });
    expect((await call(token.nurse, 'GET', url(c.dispenser, { id: type1.id }))).json().subscribed).toBe(true);
    const off = await call(token.nurse, 'POST', url(c.unsubscribe, { id: type1.id }), { dispenserType: '1' });
    expect(off.json().subscribed).toBe(false);
    expect((await call(token.nurse, 'GET', url(c.dispenser, { id: type1.id }))).json().subscribed).toBe(
      false,
    );
  });

  it('delivers a type 1 JSON-RPC command line and a type 2 command with its argument, and shows the replies', async () => {
    await device(type1, (cmd) => ({
      jsonrpc: '2.0',
      id: cmd.id,
      result: { echo: (cmd.params as { command: string }).command },
    }));
    await device(type2, (cmd) => ({ id: cmd.id, ok: true, command: cmd.command, arg: cmd.arg }));
    const one = await call(token.nurse, 'POST', url(c.message, { id: type1.id }), {
      dispenserType: 1,
      data: 'status',
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().command).toMatchObject({
      status: 'answered',
      request: { jsonrpc: '2.0', method: 'cli', params: { command: 'status' } },
      reply: { jsonrpc: '2.0', result: { echo: 'status' } },
    });
    const two = await call(token.controller, 'POST', url(c.message, { id: type2.id }), {
      dispenserType: 2,
      data: { command: 'dispense', arg: 2 },
    });
    expect(two.statusCode, two.body).toBe(200);
    expect(two.json().command.reply).toMatchObject({ ok: true, command: 'dispense', arg: 2 });
    const detail = await call(token.nurse, 'GET', url(c.dispenser, { id: type2.id }));
    expect(detail.json().recent_commands[0]).toMatchObject({ status: 'answered' });
  });

  it('answers 409 when the dispenser is not connected (nothing sent) and 504 when it does not answer (ADR 060)', async () => {
    const silent = await given(db).device({ programId, kind: 'dispenser', dispenserType: 1 });
    const commands = async () =>
      Number(
        (
          await db.execute<{ n: string }>(
            sql`SELECT count(*) AS n FROM device_commands WHERE device_id = ${silent.id}`,
          )
        ).rows[0]!.n,
      );
    const offline = await call(token.nurse, 'POST', url(c.message, { id: silent.id }), {
      dispenserType: 1,
      data: 'status',
    });
    expect(offline.statusCode).toBe(409);
    expect(offline.json()).toEqual({ message: DEVICE_MESSAGES.offline });
    expect(await commands()).toBe(0);
    await device(silent, () => null);
    const late = await call(token.nurse, 'POST', url(c.message, { id: silent.id }), {
      dispenserType: 1,
      data: 'status',
    });
    expect(late.statusCode).toBe(504);
    expect(late.json().message).toBe(DEVICE_MESSAGES.timedOut(0));
    expect(late.json().command.status).toBe('timed_out');
  });

  it('checks the command against the dispenser type and the caller role', async () => {
    const bad = [
      [type1.id, { dispenserType: 1, data: { command: 'dispense', arg: 1 } }, 'data'],
      [type2.id, { dispenserType: 2, data: 'dispense 1' }, 'data'],
      [type2.id, { dispenserType: 1, data: 'status' }, 'dispenserType'],
      [type1.id, { dispenserType: 3, data: 'status' }, 'dispenserType'],
      [type1.id, { dispenserType: 1, data: '' }, 'data'],
    ] as const;
    for (const [id, body, field] of bad) {
      const res = await call(token.nurse, 'POST', url(c.message, { id }), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().errors)[0]).toBe(field);
    }
    const pharma = await call(token.pharma, 'POST', url(c.message, { id: type1.id }), {
      dispenserType: 1,
      data: 'status',
    });
    expect(pharma.statusCode).toBe(403);
  });

  it("answers the patient's dispenser in the program", async () => {
    const res = await call(token.nurse, 'GET', url(c.patientDispenser, { programId, id: patientId }));
    expect(res.json()).toMatchObject({ id: type1.id, kind: 'dispenser' });
    const none = await given(db).patient({ programId });
    expect(
      (await call(token.nurse, 'GET', url(c.patientDispenser, { programId, id: none.id }))).statusCode,
    ).toBe(404);
    expect(
      (await call(token.outsider, 'GET', url(c.patientDispenser, { programId, id: patientId }))).statusCode,
    ).toBe(404);
  });
});

describe('fleet and provisioning', () => {
  it('lists the devices of the programs the caller sees; controllers see the fleet', async () => {
    const staff = await call(token.nurse, 'GET', url(c.list, undefined, { kind: 'dispenser' }));
    const serials = staff.json().data.map((d: { serial: string }) => d.serial);
    expect(serials).toContain(type1.serial);
    expect(serials).not.toContain(foreign.serial);
    const legacy = await call(token.nurse, 'GET', url(c.deviceList, undefined, { kind: 'dispenser' }));
    expect(legacy.json()).toEqual(staff.json());
    const mine = await call(token.nurse, 'GET', url(c.list, undefined, { patient_id: String(patientId) }));
    expect(mine.json().data.map((d: { id: number }) => d.id)).toEqual([type1.id]);
    const fleet = await call(token.controller, 'GET', url(c.list));
    expect(fleet.json().data.map((d: { serial: string }) => d.serial)).toEqual(
      expect.arrayContaining([type1.serial, foreign.serial]),
    );
  });

  it('provisions a stock device into the program with a secret it can sign in with', async () => {
    const stock = await given(db).device({
      programId: null,
      vendor: 'medesto',
      kind: 'dispenser',
      dispenserType: 2,
    });
    const res = await call(token.nurse, 'POST', url(c.provision, { vendor: 'medesto' }), {
      device_id: stock.serial,
      patient_id: patientId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: DEVICE_MESSAGES.provisioned,
      data: { program_id: programId, patient: { id: patientId } },
    });
    const secret = res.json().secret as string;
    const client = await device({ serial: stock.serial, secret }, () => null);
    expect(client.connected).toBe(true);
    const unknown = await call(token.nurse, 'POST', url(c.provision, { vendor: 'medesto' }), {
      device_id: 'SN-NOPE',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown Device: SN-NOPE');
    // Another program's device is unknown too: nothing about it leaks.
    const taken = await call(token.nurse, 'POST', url(c.provision, { vendor: 'medesto' }), {
      device_id: foreign.serial,
    });
    expect(taken.json().message).toBe(`Unknown Device: ${foreign.serial}`);
  });

  it('shows the gateway counters to controllers only', async () => {
    const res = await call(token.controller, 'GET', url(c.gateway));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ broker: 'embedded', port });
    expect(res.json().connections).toBeGreaterThan(0);
    expect((await call(token.nurse, 'GET', url(c.gateway))).statusCode).toBe(401);
  });

  it('registers Medesto dispensers (409 for a known serial) and inhalers', async () => {
    const body = { serial: 'MED-REG-1', dispenser_type: 2 };
    const first = await call(token.nurse, 'POST', url(c.medesto), body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      serial: 'MED-REG-1',
      dispenser_type: 2,
      program_id: programId,
    });
    // Where the technician points the device: the broker, the serial as user name, its own topics.
    expect(first.json().connection).toEqual({
      broker: { kind: 'embedded', host: '127.0.0.1', port },
      username: 'MED-REG-1',
      topics: {
        events: 'devices/MED-REG-1/events',
        replies: 'devices/MED-REG-1/replies',
        commands: 'devices/MED-REG-1/commands',
        rejections: 'devices/MED-REG-1/rejections',
        status: 'devices/MED-REG-1/status',
      },
    });
    const signedIn = await device({ serial: 'MED-REG-1', secret: first.json().secret }, () => null);
    expect(signedIn.connected).toBe(true);
    expect((await call(token.nurse, 'POST', url(c.medesto), body)).statusCode).toBe(409);
    const inhaler = await call(token.nurse, 'POST', url(c.createInhaler), {
      serial: 'INH-1',
      verified: true,
      patient_id: patientId,
    });
    expect(inhaler.statusCode, inhaler.body).toBe(201);
    const list = await call(token.nurse, 'GET', url(c.inhalers));
    expect(list.json().data).toEqual([
      expect.objectContaining({ serial: 'INH-1', kind: 'inhaler', verified: true }),
    ]);
    const outsidePatient = await call(token.nurse, 'POST', url(c.createInhaler), {
      serial: 'INH-2',
      patient_id: 999_999,
    });
    expect(outsidePatient.statusCode).toBe(422);
    const integrations = await call(token.nurse, 'GET', url(c.integrations));
    expect(integrations.json().data.find((i: { vendor: string }) => i.vendor === 'caredeck').devices).toBe(1);
  });
});
