import { randomBytes } from 'node:crypto';
import { DEVICE_MESSAGES, deviceChannelContract, devicesContract, routeUrl } from '@caredeck/contracts';
import { connectDevice, type SimulatedDevice } from '@caredeck/devices/device';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import type { Realtime } from '../../platform/realtime/realtime';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { createDeviceGateway, type DeviceGateway, FLEET_CHANGED_EVENT } from './gateway/gateway';
import { commandsTopic, eventsTopic, repliesTopic, statusTopic } from './gateway/topics';

// Needs an MQTT broker: runs when TEST_MQTT_URL is set (npm test sets it to MQTT_URL, or to the
// Mosquitto answering on 127.0.0.1:1883).
const url = process.env.TEST_MQTT_URL;
const clientId = `caredeck-test-${randomBytes(4).toString('hex')}`;

describe.runIf(url)('the gateway behind an external broker', () => {
  let app: App;
  let db: Database;
  let config: Config;
  let programId = 0;
  let patientId = 0;
  /** Status topics this run left retained at the broker (cleared at the end). */
  const retained = new Set<string>();
  /** Second gateways (another node), with their client ids (their sessions are dropped at the end). */
  const nodes: { gateway: DeviceGateway; clientId: string }[] = [];
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

  /**
   * A device speaking the presence protocol (docs/devices.md "Presence"), as the simulator does: its Last
   * Will is `{"online":false}` on its status topic (QoS 1, retained), and it publishes `online` retained
   * right after CONNACK.
   */
  async function presentDevice(serial: string) {
    retained.add(statusTopic(serial));
    const client = mqtt.connect(url!, {
      clientId: `dev-${serial}-${randomBytes(3).toString('hex')}`,
      username: serial,
      reconnectPeriod: 0,
      will: { topic: statusTopic(serial), payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
    });
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    await client.publishAsync(statusTopic(serial), '{"online":true}', { qos: 1, retain: true });
    return client;
  }
  const state = async (id: number) =>
    (
      await db.execute<{ connected: boolean; reported: boolean }>(
        sql`SELECT connected, presence_at IS NOT NULL AS reported FROM devices WHERE id = ${id}`,
      )
    ).rows[0]!;
  const dispenserOf = () => given(db).device({ programId, patientId, kind: 'dispenser', dispenserType: 2 });
  /** Another node's gateway on the same database, telling its fleet changes to `fleet`. */
  async function otherNode(fleet: string[] = []) {
    const nodeId = `caredeck-test-${randomBytes(4).toString('hex')}`;
    const realtime = {
      toControllers: (event: string) => fleet.push(event),
      toProgram: () => {},
      toUser: () => {},
    } as unknown as Realtime;
    const gateway = createDeviceGateway({
      db,
      config: { ...config, MQTT_CLIENT_ID: nodeId },
      log: app.log,
      realtime,
    });
    nodes.push({ gateway, clientId: nodeId });
    await gateway.start();
    return gateway;
  }

  beforeAll(async () => {
    ({ app, db, config } = await testApp({
      MQTT_URL: url,
      MQTT_CLIENT_ID: clientId,
      // A group of this run's own: other runs and test files on the same broker never take its events.
      MQTT_SHARE_GROUP: clientId,
      MQTT_PORT: -1,
      INGEST_BATCH_WAIT_MS: 5,
    }));
    const g = given(db);
    programId = (await g.program()).id;
    patientId = (await g.patient({ programId })).id;
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
    for (const node of nodes) await node.gateway.close();
    await app.close();
    // Drop the gateways' persistent sessions at the broker (a clean connect discards one) and the
    // statuses this run left retained (an empty retained message deletes one).
    for (const id of [clientId, ...nodes.map((n) => n.clientId)]) {
      const cleaner = mqtt.connect(url!, { clientId: id, clean: true, reconnectPeriod: 0 });
      await new Promise<void>((resolve) => cleaner.once('connect', () => resolve()));
      if (id === clientId)
        for (const topic of retained) await cleaner.publishAsync(topic, '', { qos: 1, retain: true });
      await cleaner.endAsync(true);
    }
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

  it('replaces a secret without closing connections it cannot see: the broker signs devices in itself (ADR 051)', async () => {
    const device = await dispenserOf();
    const res = await app.inject({
      method: 'POST',
      url: routeUrl(devicesContract.replaceSecret, { id: device.id }),
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: DEVICE_MESSAGES.secretReplaced,
      connection: { broker: { kind: 'external' }, username: device.serial },
      disconnected: null,
    });
    expect(res.json().secret).not.toBe(device.secret);
  });

  it('sends a command through the broker and shows the reply', async () => {
    // This dispenser never published a status (older firmware): heard from lately, it counts as reachable.
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

  it('shows a device that connects with its presence protocol as connected', async () => {
    const device = await dispenserOf();
    expect(await state(device.id)).toEqual({ connected: false, reported: false });
    await presentDevice(device.serial);
    await expect.poll(() => state(device.id), { timeout: 5000 }).toEqual({ connected: true, reported: true });
  });

  it('shows a device whose socket dropped (no DISCONNECT) as disconnected once the broker sends its will', async () => {
    const device = await dispenserOf();
    const client = await presentDevice(device.serial);
    await expect.poll(() => state(device.id), { timeout: 5000 }).toMatchObject({ connected: true });
    client.stream.destroy();
    await expect
      .poll(() => state(device.id), { timeout: 5000 })
      .toEqual({ connected: false, reported: true });
  });

  it('shows a device that said offline and disconnected cleanly as disconnected, and answers its commands at once', async () => {
    const device = await dispenserOf();
    const client = await presentDevice(device.serial);
    await expect.poll(() => state(device.id), { timeout: 5000 }).toMatchObject({ connected: true });
    await client.publishAsync(statusTopic(device.serial), 'offline', { qos: 1, retain: true });
    await client.endAsync();
    await expect
      .poll(() => state(device.id), { timeout: 5000 })
      .toEqual({ connected: false, reported: true });
    // It was heard from a moment ago, but its reported state is the fact: no 30-minute guess, no wait.
    await db.execute(sql`UPDATE devices SET last_seen_at = now() WHERE id = ${device.id}`);
    const res = await app.inject({
      method: 'POST',
      url: routeUrl(devicesContract.message, { id: device.id }),
      payload: { dispenserType: 2, data: { command: 'get_status' } },
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ message: DEVICE_MESSAGES.offline });
  });

  it('counts malformed statuses and unknown serials and keeps applying the good ones', async () => {
    const dispenser = await dispenserOf();
    const before = app.deviceGateway.status().external!;
    const malformed = before.malformed;
    const unknown = before.unknownStatuses;
    const client = await device(dispenser.serial);
    for (const bad of ['maybe', '{"online":"yes"}', '[true]', 'x'.repeat(300)])
      await client.publishAsync(statusTopic(dispenser.serial), bad, { qos: 1 });
    const stranger = `SN-STRANGER-${randomBytes(3).toString('hex')}`;
    retained.add(statusTopic(stranger));
    await client.publishAsync(statusTopic(stranger), 'online', { qos: 1, retain: true });
    await expect
      .poll(() => app.deviceGateway.status().external!.malformed - malformed, { timeout: 5000 })
      .toBeGreaterThanOrEqual(4);
    await expect
      .poll(() => app.deviceGateway.status().external!.unknownStatuses - unknown, { timeout: 5000 })
      .toBeGreaterThanOrEqual(1);
    expect(await state(dispenser.id)).toEqual({ connected: false, reported: false });
    expect(app.deviceGateway.status().external!.connected).toBe(true);
    await client.publishAsync(statusTopic(dispenser.serial), 'online', { qos: 1 });
    await expect
      .poll(() => state(dispenser.id), { timeout: 5000 })
      .toEqual({ connected: true, reported: true });
  });

  it("takes the retained statuses at start as the broker's current truth over a stale database", async () => {
    const [up, down] = [await dispenserOf(), await dispenserOf()];
    await presentDevice(up.serial);
    const gone = await presentDevice(down.serial);
    await gone.publishAsync(statusTopic(down.serial), 'offline', { qos: 1, retain: true });
    await gone.endAsync();
    await expect.poll(() => state(up.id), { timeout: 5000 }).toMatchObject({ connected: true });
    await expect.poll(() => state(down.id), { timeout: 5000 }).toMatchObject({ connected: false });
    // The database disagrees with the broker (a node was down while they changed): a node that starts
    // (or reconnects) gets the retained statuses, sets both right and tells /controller.
    await db.execute(sql`UPDATE devices SET connected = NOT connected WHERE id IN (${up.id}, ${down.id})`);
    const fleet: string[] = [];
    await otherNode(fleet);
    await expect.poll(() => state(up.id), { timeout: 5000 }).toMatchObject({ connected: true });
    await expect.poll(() => state(down.id), { timeout: 5000 }).toMatchObject({ connected: false });
    await expect.poll(() => fleet, { timeout: 5000 }).toContain(FLEET_CHANGED_EVENT);
  });

  /** The simulator's dispenser (subscribes, then says online), with the commands it receives. */
  async function simulated(device: { serial: string; secret: string }) {
    retained.add(statusTopic(device.serial));
    const received: { command: string; arg: Record<string, unknown> }[] = [];
    const sim = await connectDevice({
      url: url!,
      serial: device.serial,
      secret: device.secret,
      onCommand: (command) => received.push(command as (typeof received)[number]),
    });
    return { sim, received };
  }
  const scheduleOf = async (patient: number) =>
    (
      await app.inject({
        method: 'GET',
        url: routeUrl(deviceChannelContract.patientSchedules, { id: patient }),
        headers: bearer(token),
      })
    ).json().data as { id: number; status: string; sent_at: string | null }[];

  it('sends the newest schedule and goal stored while the dispenser was away when it says online, once', async () => {
    const patient = (await given(db).patient({ programId })).id;
    const device = await given(db).device({
      programId,
      patientId: patient,
      kind: 'dispenser',
      dispenserType: 2,
    });
    const post = (times: string[]) =>
      app.inject({
        method: 'POST',
        url: routeUrl(deviceChannelContract.createPatientSchedule, { id: patient }),
        payload: { times },
        headers: bearer(token),
      });
    const older = (await post(['08:00'])).json().data[0];
    const newer = (await post(['08:15', '20:15'])).json().data[0];
    expect(newer.status).toBe('pending');
    expect((await scheduleOf(patient)).map((r) => r.status)).toEqual(['pending', 'superseded']);
    const goal = await app.inject({
      method: 'POST',
      url: routeUrl(deviceChannelContract.goals),
      payload: { device_id: device.id, type: 'adherence', target: 95 },
      headers: bearer(token),
    });
    expect(goal.json().data.status).toBe('pending');

    // Another node sees the same statuses: each row is still sent once.
    await otherNode();
    const { sim, received } = await simulated(device);
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          command: 'set_schedule',
          arg: { times: ['08:15', '20:15'], weekdays: [0, 1, 2, 3, 4, 5, 6], schedule_id: newer.id },
        }),
        expect.objectContaining({ command: 'set_goal', arg: { type: 'adherence', target: 95 } }),
      ]),
    );
    expect(received).toHaveLength(2);
    expect(await scheduleOf(patient)).toEqual([
      expect.objectContaining({ id: newer.id, status: 'sent', sent_at: expect.any(String) }),
      expect.objectContaining({ id: older.id, status: 'superseded', sent_at: null }),
    ]);

    // Back after a break: nothing is sent twice; a schedule stored while it is online goes at once.
    await sim.close();
    await expect.poll(() => state(device.id), { timeout: 5000 }).toMatchObject({ connected: false });
    const again = await simulated(device);
    await expect.poll(() => state(device.id), { timeout: 5000 }).toMatchObject({ connected: true });
    const live = (await post(['09:00'])).json().data[0];
    expect(live.status).toBe('sent');
    await expect.poll(() => again.received.length, { timeout: 5000 }).toBe(1);
    expect(again.received[0]!.arg).toMatchObject({ schedule_id: live.id });
    await again.sim.close();
  });

  it('sends a schedule stored while a presence-reporting dispenser was offline when it comes back', async () => {
    const device = await dispenserOf();
    const first: SimulatedDevice = (await simulated(device)).sim;
    await expect.poll(() => state(device.id), { timeout: 5000 }).toMatchObject({ connected: true });
    await first.close();
    await expect.poll(() => state(device.id), { timeout: 5000 }).toMatchObject({ connected: false });
    const res = await app.inject({
      method: 'POST',
      url: routeUrl(deviceChannelContract.createPatientSchedule, { id: patientId }),
      payload: { times: ['22:00'] },
      headers: bearer(token),
    });
    const row = res.json().data.find((s: { device_id: number }) => s.device_id === device.id);
    // The patient's dispenser is the newest provisioned: this one.
    expect(row).toMatchObject({ status: 'pending' });
    const { sim, received } = await simulated(device);
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0]!.arg).toMatchObject({ times: ['22:00'], schedule_id: row.id });
    await sim.close();
  });

  it("shows the simulator's dispenser connected while it runs and disconnected when it stops", async () => {
    const device = await dispenserOf();
    retained.add(statusTopic(device.serial));
    const simulated = await connectDevice({ url: url!, serial: device.serial, secret: device.secret });
    await expect.poll(() => state(device.id), { timeout: 5000 }).toEqual({ connected: true, reported: true });
    await simulated.close();
    await expect
      .poll(() => state(device.id), { timeout: 5000 })
      .toEqual({ connected: false, reported: true });
  });
});
