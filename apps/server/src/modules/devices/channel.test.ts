import {
  deviceChannelContract as c,
  NFC_MESSAGES,
  type RouteContract,
  routeUrl,
  SCHEDULE_MESSAGES,
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
import { commandsTopic } from './gateway/topics';

let app: App;
let db: Database;
let port = 0;
const token = { nurse: '', pharma: '', outsider: '' };
let programId = 0;
let patientId = 0;
let bare = 0;
let groupId = 0;
let dispenser = { id: 0, serial: '', secret: '' };
let reader = { id: 0, serial: '', secret: '' };
let regimenId = 0;
let client: MqttClient | null = null;
const received: Record<string, unknown>[] = [];

const url = (contract: RouteContract, params?: Record<string, number | string>) => routeUrl(contract, params);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });
const basic = (d: { serial: string; secret: string }) => ({
  authorization: `Basic ${Buffer.from(`${d.serial}:${d.secret}`).toString('base64')}`,
});

beforeAll(async () => {
  ({ app, db } = await testApp({ MQTT_PORT: 0, MQTT_HOST: '127.0.0.1' }));
  port = app.deviceGateway.status().port!;
  const g = given(db);
  programId = (await g.program()).id;
  const other = (await g.program()).id;
  patientId = (await g.patient({ programId })).id;
  bare = (await g.patient({ programId })).id;
  groupId = (await g.group({ programId, patientIds: [patientId, bare] })).id;
  dispenser = await g.device({ programId, patientId, kind: 'dispenser', dispenserType: 2 });
  reader = await g.device({ programId, patientId, kind: 'nfc_reader' });
  regimenId = (await g.regimen({ patientId, programId, times: ['08:00'] })).id;
  await db.execute(sql`
    INSERT INTO pods (regimen_id, patient_id, program_id, barcode, prefix, num, original_servings, servings_remaining)
    VALUES (${regimenId}, ${patientId}, ${programId}, 'NFC-1', 'NFC', 1, 30, 30)`);
  const signed = async (id: number, role: 'care_coordinator' | 'pharma' | 'admin') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId: id, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.nurse = await signed(programId, 'care_coordinator');
  token.pharma = await signed(programId, 'pharma');
  token.outsider = await signed(other, 'admin');
  client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    username: dispenser.serial,
    password: dispenser.secret,
    reconnectPeriod: 0,
  });
  await new Promise<void>((resolve) => client!.once('connect', () => resolve()));
  await client.subscribeAsync(commandsTopic(dispenser.serial), { qos: 1 });
  client.on('message', (_t, payload) => received.push(JSON.parse(payload.toString())));
  // The gateway marks the device connected asynchronously.
  for (let i = 0; i < 100; i++) {
    const row = await db.execute<{ connected: boolean }>(
      sql`SELECT connected FROM devices WHERE id = ${dispenser.id}`,
    );
    if (row.rows[0]?.connected) break;
    await new Promise((r) => setTimeout(r, 20));
  }
});

afterAll(async () => {
  await client?.endAsync(true);
});

describe('device schedules', () => {
  it("programs the patient's dispenser and sends the schedule to it", async () => {
    const res = await call(token.nurse, 'POST', url(c.createPatientSchedule, { id: patientId }), {
      times: ['20:00', '08:00'],
      weekdays: [1, 3, 5],
      regimen_id: regimenId,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(SCHEDULE_MESSAGES.created);
    expect(res.json().data).toEqual([
      expect.objectContaining({
        device_id: dispenser.id,
        times: ['08:00', '20:00'],
        weekdays: [1, 3, 5],
        status: 'sent',
      }),
    ]);
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received[0]).toMatchObject({
      command: 'set_schedule',
      arg: { times: ['08:00', '20:00'], weekdays: [1, 3, 5] },
    });
    const list = await call(token.nurse, 'GET', url(c.patientSchedules, { id: patientId }));
    expect(list.json().data).toHaveLength(1);
  });

  it('schedules every patient of a cohort who has a dispenser', async () => {
    const res = await call(token.nurse, 'POST', url(c.createGroupSchedule, { id: groupId }), {
      times: ['09:00'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.map((s: { patient_id: number }) => s.patient_id)).toEqual([patientId]);
    const list = await call(token.nurse, 'GET', url(c.groupSchedules, { id: groupId }));
    expect(list.json().data).toEqual([
      expect.objectContaining({ group_id: groupId, weekdays: [0, 1, 2, 3, 4, 5, 6] }),
    ]);
  });

  it('answers 422 for bad times or a patient without a dispenser, 403 and 404 outside the care team', async () => {
    const bad = await call(token.nurse, 'POST', url(c.createPatientSchedule, { id: patientId }), {
      times: ['8am'],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)[0]).toMatch(/^times/);
    const none = await call(token.nurse, 'POST', url(c.createPatientSchedule, { id: bare }), {
      times: ['08:00'],
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.device).toEqual([SCHEDULE_MESSAGES.noDispenser]);
    expect(
      (
        await call(token.pharma, 'POST', url(c.createPatientSchedule, { id: patientId }), {
          times: ['08:00'],
        })
      ).statusCode,
    ).toBe(403);
    expect((await call(token.outsider, 'GET', url(c.patientSchedules, { id: patientId }))).statusCode).toBe(
      404,
    );
    expect(
      (await call(token.outsider, 'POST', url(c.createGroupSchedule, { id: groupId }), { times: ['08:00'] }))
        .statusCode,
    ).toBe(404);
  });
});

describe('NFC channel', () => {
  it('tells a reader what a pod is and stores a dispense as a dose of its regimen', async () => {
    const info = await app.inject({
      method: 'POST',
      url: url(c.nfcProgram),
      payload: { barcode: 'NFC-1' },
      headers: basic(reader),
    });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toMatchObject({
      program: { id: programId },
      pod: { regimen_id: regimenId, servings_remaining: 30 },
    });
    const body = { barcode: 'NFC-1', activity_type: 'dispense', seq: 1 };
    const first = await app.inject({
      method: 'POST',
      url: url(c.nfcActivity),
      payload: body,
      headers: basic(reader),
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ message: NFC_MESSAGES.recorded, stored: true });
    // A resend of the same activity is stored once.
    await app.inject({ method: 'POST', url: url(c.nfcActivity), payload: body, headers: basic(reader) });
    const doses = await db.execute<{ n: number; source: string }>(
      sql`SELECT count(*)::int AS n, min(source) AS source FROM medication_usages WHERE patient_id = ${patientId}`,
    );
    expect(doses.rows[0]).toEqual({ n: 1, source: 'nfc' });
    const error = await app.inject({
      method: 'POST',
      url: url(c.nfcActivity),
      payload: { barcode: 'NFC-1', activity_type: 'error', error_stage: 'unlock', seq: 2 },
      headers: basic(reader),
    });
    expect(error.statusCode).toBe(201);
    const logged = await db.execute<{ type: string; payload: { error_stage: string } }>(
      sql`SELECT type, payload FROM device_events WHERE device_id = ${reader.id} AND seq = 2`,
    );
    expect(logged.rows[0]).toMatchObject({ type: 'device_error', payload: { error_stage: 'unlock' } });
  });

  it('refuses wrong credentials, staff tokens and pods of other programs', async () => {
    const wrong = await app.inject({
      method: 'POST',
      url: url(c.nfcProgram),
      payload: { barcode: 'NFC-1' },
      headers: basic({ ...reader, secret: 'nope' }),
    });
    expect(wrong.statusCode).toBe(401);
    const staff = await call(token.nurse, 'POST', url(c.nfcProgram), { barcode: 'NFC-1' });
    expect(staff.statusCode).toBe(401);
    const foreignReader = await given(db).device({
      kind: 'nfc_reader',
      programId: (await given(db).program()).id,
    });
    const foreign = await app.inject({
      method: 'POST',
      url: url(c.nfcProgram),
      payload: { barcode: 'NFC-1' },
      headers: basic(foreignReader),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(NFC_MESSAGES.unknownBarcode);
    const badType = await app.inject({
      method: 'POST',
      url: url(c.nfcActivity),
      payload: { barcode: 'NFC-1', activity_type: 'teleport' },
      headers: basic(reader),
    });
    expect(badType.statusCode).toBe(422);
  });
});

describe('device goals and regimens', () => {
  it('sets a goal on a device and the regimen it runs', async () => {
    const goal = await call(token.nurse, 'POST', url(c.goals), {
      device_id: dispenser.id,
      type: 'adherence',
      target: 90,
    });
    expect(goal.statusCode, goal.body).toBe(201);
    expect(goal.json().data).toMatchObject({ device_id: dispenser.id, type: 'adherence', target: 90 });
    await expect.poll(() => received.some((m) => m.command === 'set_goal')).toBe(true);
    const regimen = await call(token.nurse, 'POST', url(c.deviceRegimen), {
      device_id: dispenser.id,
      regiment_id: regimenId,
    });
    expect(regimen.statusCode, regimen.body).toBe(200);
    const row = await db.execute<{ device_serial: string }>(
      sql`SELECT device_serial FROM regimens WHERE id = ${regimenId}`,
    );
    expect(row.rows[0]!.device_serial).toBe(dispenser.serial);
    expect(
      (
        await call(token.outsider, 'POST', url(c.goals), {
          device_id: dispenser.id,
          type: 'steps',
          target: 8000,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(token.pharma, 'POST', url(c.goals), {
          device_id: dispenser.id,
          type: 'steps',
          target: 8000,
        })
      ).statusCode,
    ).toBe(403);
    const foreignRegimen = (await given(db).regimen({ patientId: bare, programId })).id;
    const mismatch = await call(token.nurse, 'POST', url(c.deviceRegimen), {
      device_id: dispenser.id,
      regiment_id: foreignRegimen,
    });
    expect(mismatch.statusCode).toBe(422);
  });
});
