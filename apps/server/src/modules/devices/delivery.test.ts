import { deviceChannelContract as c, routeUrl } from '@caredeck/contracts';
import { connectDevice, type SimulatedDevice } from '@caredeck/devices/device';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { claimPendingProgramming } from './delivery.queries';
import { createProgrammingDelivery } from './gateway/delivery';
import { commandsTopic } from './gateway/topics';

// Programming stored while a device is away reaches it when it comes back (ADR 050), here with the
// embedded broker; external.test.ts does the same behind a Mosquitto.

let app: App;
let db: Database;
let port = 0;
let programId = 0;
let token = '';
const devices: SimulatedDevice[] = [];
const clients: MqttClient[] = [];

type Command = { id: number; command: string; arg: Record<string, unknown> };

/** A patient with a dispenser that is not connected. */
async function offlineDispenser() {
  const g = given(db);
  const patientId = (await g.patient({ programId })).id;
  const device = await g.device({ programId, patientId, kind: 'dispenser', dispenserType: 2 });
  return { patientId, ...device };
}

/** The simulator's dispenser (subscribes to its commands after CONNACK), with the commands it received. */
async function simulate(d: { serial: string; secret: string }) {
  const received: Command[] = [];
  const device = await connectDevice({
    url: `mqtt://127.0.0.1:${port}`,
    serial: d.serial,
    secret: d.secret,
    onCommand: (command) => received.push(command as Command),
  });
  devices.push(device);
  return received;
}

const schedule = (patientId: number, times: string[]) =>
  app.inject({
    method: 'POST',
    url: routeUrl(c.createPatientSchedule, { id: patientId }),
    payload: { times },
    headers: bearer(token),
  });
const schedules = async (patientId: number) =>
  (
    await app.inject({
      method: 'GET',
      url: routeUrl(c.patientSchedules, { id: patientId }),
      headers: bearer(token),
    })
  ).json().data as { id: number; times: string[]; status: string; sent_at: string | null }[];
const goal = (deviceId: number, type: string, target: number) =>
  app.inject({
    method: 'POST',
    url: routeUrl(c.goals),
    payload: { device_id: deviceId, type, target },
    headers: bearer(token),
  });
const goalRows = async (deviceId: number) =>
  (
    await db.execute<{ id: number; type: string; target: number; status: string; sent: boolean }>(sql`
      SELECT id, type, target, status, sent_at IS NOT NULL AS sent FROM device_goals
      WHERE device_id = ${deviceId} ORDER BY id`)
  ).rows;
/** Time for a message that should not come to arrive anyway. */
const settle = () => new Promise((r) => setTimeout(r, 300));

beforeAll(async () => {
  ({ app, db } = await testApp({ MQTT_PORT: 0, MQTT_HOST: '127.0.0.1', INGEST_BATCH_WAIT_MS: 5 }));
  port = app.deviceGateway.status().port!;
  const g = given(db);
  programId = (await g.program()).id;
  const admin = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId, role: 'care_coordinator' }],
  });
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
});

afterAll(async () => {
  await Promise.all(devices.map((d) => d.close()));
  await Promise.all(clients.map((cl) => cl.endAsync(true)));
});

describe('programming stored while a device is away', () => {
  it('sends a schedule stored while the dispenser was offline when it connects, and shows it sent', async () => {
    const dispenser = await offlineDispenser();
    const res = await schedule(dispenser.patientId, ['21:00', '07:00']);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toEqual([expect.objectContaining({ status: 'pending', sent_at: null })]);
    const id = res.json().data[0].id as number;
    expect(await schedules(dispenser.patientId)).toEqual([
      expect.objectContaining({ id, status: 'pending', sent_at: null }),
    ]);

    const received = await simulate(dispenser);
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toEqual({
      id: 0,
      command: 'set_schedule',
      arg: { times: ['07:00', '21:00'], weekdays: [0, 1, 2, 3, 4, 5, 6], schedule_id: id },
    });
    const [row] = await schedules(dispenser.patientId);
    expect(row).toMatchObject({ id, status: 'sent' });
    expect(Date.now() - Date.parse(row!.sent_at!)).toBeLessThan(60_000);

    // Sent once: a reconnection later sends nothing again.
    await devices.pop()!.close();
    const again = await simulate(dispenser);
    await settle();
    expect(again).toEqual([]);
  });

  it('sends only the newest of two schedules stored while offline; the older is superseded, never sent', async () => {
    const dispenser = await offlineDispenser();
    const older = (await schedule(dispenser.patientId, ['08:00'])).json().data[0].id as number;
    const newer = (await schedule(dispenser.patientId, ['09:30'])).json().data[0].id as number;
    // Superseded as soon as the newer one is stored: the list does not promise it any more.
    expect(await schedules(dispenser.patientId)).toEqual([
      expect.objectContaining({ id: newer, status: 'pending' }),
      expect.objectContaining({ id: older, status: 'superseded', sent_at: null }),
    ]);

    const received = await simulate(dispenser);
    await expect.poll(() => received.length).toBe(1);
    await settle();
    expect(received).toEqual([
      expect.objectContaining({
        command: 'set_schedule',
        arg: expect.objectContaining({ schedule_id: newer }),
      }),
    ]);
    expect(await schedules(dispenser.patientId)).toEqual([
      expect.objectContaining({ id: newer, status: 'sent', sent_at: expect.any(String) }),
      expect.objectContaining({ id: older, status: 'superseded', sent_at: null }),
    ]);
  });

  it('sends a cohort schedule to the members who were offline as each connects', async () => {
    const [a, b] = [await offlineDispenser(), await offlineDispenser()];
    const groupId = (await given(db).group({ programId, patientIds: [a.patientId, b.patientId] })).id;
    const res = await app.inject({
      method: 'POST',
      url: routeUrl(c.createGroupSchedule, { id: groupId }),
      payload: { times: ['12:00'], weekdays: [1, 2, 3, 4, 5] },
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(201);
    const received = await simulate(a);
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]!.arg).toMatchObject({ times: ['12:00'], weekdays: [1, 2, 3, 4, 5] });
    expect((await schedules(a.patientId))[0]!.status).toBe('sent');
    expect((await schedules(b.patientId))[0]!.status).toBe('pending');
  });

  it('waits until a connected device subscribes to its commands before sending', async () => {
    const dispenser = await offlineDispenser();
    await schedule(dispenser.patientId, ['06:45']);
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      username: dispenser.serial,
      password: dispenser.secret,
      reconnectPeriod: 0,
    });
    clients.push(client);
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    const received: Command[] = [];
    client.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString())));
    // Connected, not yet listening: a message now would reach nobody, so it stays pending.
    await expect
      .poll(
        async () =>
          (
            await db.execute<{ connected: boolean }>(
              sql`SELECT connected FROM devices WHERE id = ${dispenser.id}`,
            )
          ).rows[0]!.connected,
      )
      .toBe(true);
    await settle();
    expect((await schedules(dispenser.patientId))[0]!.status).toBe('pending');
    await client.subscribeAsync(commandsTopic(dispenser.serial), { qos: 1 });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]!.command).toBe('set_schedule');
    expect((await schedules(dispenser.patientId))[0]!.status).toBe('sent');
  });

  it('sends the newest goal of each type stored while offline', async () => {
    const dispenser = await offlineDispenser();
    const first = await goal(dispenser.id, 'steps', 6000);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      type: 'steps',
      target: 6000,
      status: 'pending',
      sent_at: null,
    });
    await goal(dispenser.id, 'steps', 8000);
    await goal(dispenser.id, 'adherence', 90);

    const received = await simulate(dispenser);
    await expect.poll(() => received.length).toBe(2);
    await settle();
    expect(received.map((m) => m.arg)).toEqual(
      expect.arrayContaining([
        { type: 'steps', target: 8000 },
        { type: 'adherence', target: 90 },
      ]),
    );
    expect(received).toHaveLength(2);
    expect(await goalRows(dispenser.id)).toEqual([
      expect.objectContaining({ type: 'steps', target: 6000, status: 'superseded', sent: false }),
      expect.objectContaining({ type: 'steps', target: 8000, status: 'sent', sent: true }),
      expect.objectContaining({ type: 'adherence', target: 90, status: 'sent', sent: true }),
    ]);
    // A goal set while it is connected goes at once.
    const now = await goal(dispenser.id, 'sleep', 420);
    expect(now.json().data).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
    await expect.poll(() => received.some((m) => m.arg.type === 'sleep')).toBe(true);
  });
});

describe('the claim', () => {
  it('gives each pending row to one claimer when several gateways claim at once', async () => {
    const dispensers = [await offlineDispenser(), await offlineDispenser()];
    for (const d of dispensers) {
      await schedule(d.patientId, ['08:00']);
      await goal(d.id, 'weight', 70);
    }
    // Both connected as another node's presence writer would leave them (no connection on this broker).
    const ids = dispensers.map((d) => d.id);
    await db.execute(
      sql`UPDATE devices SET connected = true WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`,
    );
    const claims = await Promise.all([1, 2, 3, 4].map(() => claimPendingProgramming(db, ids)));
    const all = claims.flat();
    expect(all.filter((x) => x.kind === 'schedule')).toHaveLength(2);
    expect(all.filter((x) => x.kind === 'goal')).toHaveLength(2);
    expect(new Set(all.map((x) => `${x.kind}:${x.id}`)).size).toBe(4);
    expect(await claimPendingProgramming(db, ids)).toEqual([]);
  });

  it('keeps the programming pending when the broker refuses it, and never throws', async () => {
    const dispenser = await offlineDispenser();
    await schedule(dispenser.patientId, ['10:00']);
    await db.execute(sql`UPDATE devices SET connected = true WHERE id = ${dispenser.id}`);
    const refusing = createProgrammingDelivery({
      db,
      log: app.log,
      maxWaitMs: 1,
      publish: () => Promise.reject(new Error('broker gone')),
    });
    expect(await refusing.deliver([dispenser.id])).toEqual([]);
    expect(refusing.stats.failed).toBe(1);
    expect((await schedules(dispenser.patientId))[0]).toMatchObject({ status: 'pending', sent_at: null });

    const broken = createProgrammingDelivery({
      db: { execute: () => Promise.reject(new Error('database down')) } as unknown as Database,
      log: app.log,
      maxWaitMs: 1,
      publish: () => Promise.resolve(),
    });
    await expect(broken.deliver([dispenser.id])).resolves.toEqual([]);
    broken.connected([dispenser.id]);
    await new Promise((r) => setTimeout(r, 20));
    await broken.close();
    await refusing.close();
    await db.execute(sql`UPDATE devices SET connected = false WHERE id = ${dispenser.id}`);
  });
});
