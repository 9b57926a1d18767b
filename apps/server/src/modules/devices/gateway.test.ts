import { connectDevice } from '@caredeck/devices/device';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { testApp } from '../../test/harness';
import { eventsTopic, statusTopic } from './gateway/topics';

let app: App;
let db: Database;
let port = 0;
let programId = 0;
let patientId = 0;
let regimenId = 0;
let dispenser = { id: 0, serial: '', secret: '' };
const clients: MqttClient[] = [];

async function connect(username: string, password: string, extra: mqtt.IClientOptions = {}) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...extra,
  });
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return client;
}

const publish = (client: MqttClient, topic: string, body: unknown) =>
  client.publishAsync(topic, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 });

const count = async (query: ReturnType<typeof sql>) =>
  Number((await db.execute<{ n: number }>(query)).rows[0]!.n);

beforeAll(async () => {
  ({ app, db } = await testApp({ MQTT_PORT: 0, MQTT_HOST: '127.0.0.1', INGEST_BATCH_WAIT_MS: 5 }));
  port = app.deviceGateway.status().port!;
  const g = given(db);
  programId = (await g.program()).id;
  patientId = (await g.patient({ programId })).id;
  dispenser = await g.device({ programId, patientId, kind: 'dispenser', dispenserType: 1 });
  const r = await db.execute<{ id: number }>(sql`
    INSERT INTO regimens (patient_id, program_id, name, times, scheduled_at, device_serial)
    VALUES (${patientId}, ${programId}, 'Metformin 500 mg', '{08:00,20:00}', now() - interval '10 days', ${dispenser.serial})
    RETURNING id`);
  regimenId = r.rows[0]!.id;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
});

describe('MQTT gateway', () => {
  it('acknowledges a dose event only once it is stored, as a dose of the device regimen', async () => {
    const client = await connect(dispenser.serial, dispenser.secret);
    const at = new Date(Date.now() - 60_000).toISOString();
    await publish(client, eventsTopic(dispenser.serial), { seq: 1, type: 'dose_taken', at, slot: 3 });
    // The PUBACK has arrived: the rows are committed.
    const usage = await db.execute<{
      regimen_id: number;
      source: string;
      kind: string;
      taken_at: string;
    }>(sql`
      SELECT regimen_id, source, kind, taken_at::text FROM medication_usages WHERE patient_id = ${patientId}`);
    expect(usage.rows).toHaveLength(1);
    expect(usage.rows[0]).toMatchObject({ regimen_id: regimenId, source: 'dispenser', kind: 'taken' });
    const device = await db.execute<{ last_event_type: string; connected: boolean }>(
      sql`SELECT last_event_type, connected FROM devices WHERE id = ${dispenser.id}`,
    );
    expect(device.rows[0]).toEqual({ last_event_type: 'dose_taken', connected: true });
  });

  it('stores a resent event once', async () => {
    const client = await connect(dispenser.serial, dispenser.secret);
    const event = { seq: 2, type: 'dose_skipped', at: new Date().toISOString() };
    await publish(client, eventsTopic(dispenser.serial), event);
    await publish(client, eventsTopic(dispenser.serial), event);
    await Promise.all([1, 2, 3].map(() => publish(client, eventsTopic(dispenser.serial), event)));
    expect(
      await count(sql`SELECT count(*) AS n FROM device_events WHERE device_id = ${dispenser.id} AND seq = 2`),
    ).toBe(1);
    expect(
      await count(
        sql`SELECT count(*) AS n FROM medication_usages WHERE kind = 'skipped' AND patient_id = ${patientId}`,
      ),
    ).toBe(1);
  });

  it('puts late and out-of-order events at their own time, without moving the last-seen state back', async () => {
    const client = await connect(dispenser.serial, dispenser.secret);
    const now = Date.now();
    await publish(client, eventsTopic(dispenser.serial), {
      seq: 11,
      type: 'heartbeat',
      at: new Date(now).toISOString(),
      battery: 80,
    });
    await publish(client, eventsTopic(dispenser.serial), {
      seq: 10,
      type: 'battery',
      at: new Date(now - 3 * 24 * 3600_000).toISOString(),
      battery: 20,
    });
    const device = await db.execute<{ battery: number; last_event_type: string }>(
      sql`SELECT battery, last_event_type FROM devices WHERE id = ${dispenser.id}`,
    );
    expect(device.rows[0]).toEqual({ battery: 80, last_event_type: 'heartbeat' });
    const old = await db.execute<{ days: number }>(sql`
      SELECT round(extract(epoch FROM now() - occurred_at) / 86400)::int AS days FROM device_events
      WHERE device_id = ${dispenser.id} AND seq = 10`);
    expect(old.rows[0]!.days).toBe(3);
  });

  it('stores measurements with their units and maps pod barcodes to their regimen', async () => {
    const bp = await given(db).device({ programId, patientId, kind: 'bp_cuff' });
    const pod = await db.execute<{ barcode: string }>(sql`
      INSERT INTO pods (regimen_id, patient_id, program_id, barcode, prefix, num, original_servings, servings_remaining)
      VALUES (${regimenId}, ${patientId}, ${programId}, 'GW-POD-1', 'GW', 1, 30, 30) RETURNING barcode`);
    const cuff = await connect(bp.serial, bp.secret);
    await publish(cuff, eventsTopic(bp.serial), {
      seq: 1,
      type: 'measurement',
      at: new Date().toISOString(),
      values: { systolic: 141, diastolic: 92, pulse: 77 },
    });
    const rows = await db.execute<{ type: string; value: number; unit: string }>(sql`
      SELECT type, value, unit FROM measurements WHERE device_id = ${bp.id} ORDER BY type`);
    expect(rows.rows).toEqual([
      { type: 'diastolic', value: 92, unit: 'mmHg' },
      { type: 'pulse', value: 77, unit: 'bpm' },
      { type: 'systolic', value: 141, unit: 'mmHg' },
    ]);
    const client = await connect(dispenser.serial, dispenser.secret);
    await publish(client, eventsTopic(dispenser.serial), {
      seq: 20,
      type: 'dose_taken',
      at: new Date().toISOString(),
      barcode: pod.rows[0]!.barcode,
      servings: 2,
    });
    const left = await db.execute<{ servings_remaining: number }>(
      sql`SELECT servings_remaining FROM pods WHERE barcode = 'GW-POD-1'`,
    );
    expect(left.rows[0]!.servings_remaining).toBe(28);
  });

  it("stores a resent reading once, and a deleted patient's readings go with the patient", async () => {
    const g = given(db);
    const other = await g.patient({ programId });
    const cuff = await g.device({ programId, patientId: other.id, kind: 'bp_cuff' });
    const client = await connect(cuff.serial, cuff.secret);
    const reading = {
      seq: 7,
      type: 'measurement',
      at: new Date().toISOString(),
      values: { systolic: 128, diastolic: 84 },
    };
    await publish(client, eventsTopic(cuff.serial), reading);
    await publish(client, eventsTopic(cuff.serial), reading);
    const readings = () => count(sql`SELECT count(*) AS n FROM measurements WHERE patient_id = ${other.id}`);
    expect(await readings()).toBe(2);
    await db.execute(sql`DELETE FROM patients WHERE id = ${other.id}`);
    expect(await readings()).toBe(0);
  });

  it('acknowledges and counts malformed payloads without storing them or dropping the device', async () => {
    const client = await connect(dispenser.serial, dispenser.secret);
    const before = app.deviceGateway.status().malformed ?? 0;
    const rejections: string[] = [];
    await client.subscribeAsync(`devices/${dispenser.serial}/rejections`, { qos: 0 });
    client.on('message', (_t, payload) => rejections.push(JSON.parse(payload.toString()).reason));
    const bad = [
      'not json',
      '[1,2]',
      { type: 'dose_taken', at: new Date().toISOString() }, // no seq
      { seq: 99, type: 'teleport', at: new Date().toISOString() },
      { seq: 99, type: 'battery', at: new Date().toISOString(), battery: 180 },
      { seq: 99, type: 'measurement', at: new Date().toISOString(), values: { systolic: 'high' } },
      { seq: 99, type: 'heartbeat', at: new Date(Date.now() + 3600_000).toISOString() },
      { seq: 99, type: 'heartbeat', at: new Date().toISOString(), firmware: 'x'.repeat(5000) },
    ];
    for (const body of bad) await publish(client, eventsTopic(dispenser.serial), body);
    expect((app.deviceGateway.status().malformed ?? 0) - before).toBe(bad.length);
    expect(
      await count(
        sql`SELECT count(*) AS n FROM device_events WHERE device_id = ${dispenser.id} AND seq = 99`,
      ),
    ).toBe(0);
    // Still connected and still ingesting.
    await publish(client, eventsTopic(dispenser.serial), {
      seq: 100,
      type: 'door_opened',
      at: new Date().toISOString(),
    });
    expect(
      await count(
        sql`SELECT count(*) AS n FROM device_events WHERE device_id = ${dispenser.id} AND seq = 100`,
      ),
    ).toBe(1);
    await expect.poll(() => rejections.length).toBeGreaterThanOrEqual(bad.length);
    expect(rejections).toContain('not_json');
  });

  it('accepts the presence protocol of an external broker (status and will) and keeps its own connection facts', async () => {
    const device = await given(db).device({ programId, patientId, kind: 'dispenser', dispenserType: 2 });
    const connected = async () =>
      (await db.execute<{ connected: boolean }>(sql`SELECT connected FROM devices WHERE id = ${device.id}`))
        .rows[0]!.connected;
    const before = app.deviceGateway.status().malformed ?? 0;
    const client = await connect(device.serial, device.secret, {
      will: {
        topic: statusTopic(device.serial),
        payload: Buffer.from('{"online":false}'),
        qos: 1,
        retain: true,
      },
    });
    await client.publishAsync(statusTopic(device.serial), 'online', { qos: 1, retain: true });
    await client.publishAsync(statusTopic(device.serial), '{"online":true,"firmware":"2.0"}', { qos: 1 });
    await client.publishAsync(statusTopic(device.serial), 'maybe', { qos: 1 });
    // Acknowledged, still connected, still ingesting; only the malformed status is counted.
    await publish(client, eventsTopic(device.serial), {
      seq: 1,
      type: 'door_opened',
      at: new Date().toISOString(),
    });
    expect((app.deviceGateway.status().malformed ?? 0) - before).toBe(1);
    expect(client.connected).toBe(true);
    await expect.poll(connected).toBe(true);
    // A status is not applied here: "offline" from a live connection leaves it connected.
    await client.publishAsync(statusTopic(device.serial), 'offline', { qos: 1, retain: true });
    expect(await connected()).toBe(true);
    // The socket dropped: the broker publishes the will (accepted) and the connection closing is the fact.
    client.stream.destroy();
    await expect.poll(connected).toBe(false);
    expect((app.deviceGateway.status().malformed ?? 0) - before).toBe(1);
    // The same firmware's will on another device's status topic is refused like any foreign topic.
    const forbidden = app.deviceGateway.status().forbidden ?? 0;
    const spoof = await connect(device.serial, device.secret, {
      will: { topic: statusTopic(dispenser.serial), payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    spoof.stream.destroy();
    await expect.poll(() => (app.deviceGateway.status().forbidden ?? 0) - forbidden).toBe(1);
  });

  it("speaks with the simulator's dispenser (status and will included) without a complaint", async () => {
    const device = await given(db).device({ programId, patientId, kind: 'dispenser', dispenserType: 1 });
    const before = app.deviceGateway.status();
    const simulated = await connectDevice({
      url: `mqtt://127.0.0.1:${port}`,
      serial: device.serial,
      secret: device.secret,
    });
    const connected = async () =>
      (await db.execute<{ connected: boolean }>(sql`SELECT connected FROM devices WHERE id = ${device.id}`))
        .rows[0]!.connected;
    await expect.poll(connected).toBe(true);
    await simulated.close();
    await expect.poll(connected).toBe(false);
    const after = app.deviceGateway.status();
    expect([after.malformed, after.forbidden]).toEqual([before.malformed, before.forbidden]);
  });

  it('refuses unknown devices and wrong secrets at connect, and other devices topics', async () => {
    const failures = app.deviceGateway.status().authFailures ?? 0;
    await expect(connect('SN-NOBODY', 'secret')).rejects.toThrow(/Bad username or password|Not authorized/i);
    await expect(connect(dispenser.serial, 'wrong-secret')).rejects.toThrow(
      /Bad username or password|Not authorized/i,
    );
    expect((app.deviceGateway.status().authFailures ?? 0) - failures).toBe(2);
    const other = await given(db).device({ programId, patientId, kind: 'pulse_oximeter' });
    const client = await connect(other.serial, other.secret);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(
      eventsTopic(dispenser.serial),
      JSON.stringify({ seq: 500, type: 'door_opened', at: new Date().toISOString() }),
      { qos: 1 },
    );
    await closed;
    expect(await count(sql`SELECT count(*) AS n FROM device_events WHERE seq = 500`)).toBe(0);
  });
});
