import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALERTS_CHANGED_EVENT,
  authContract,
  devicesContract,
  routeUrl,
  userContract,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config';
import { commandsTopic, eventsTopic, repliesTopic } from './modules/devices/gateway/topics';
import type { Database } from './platform/db/client';
import { given } from './seed/given';
import { DEMO_PASSWORD, seedDemoData } from './test/flows';
import { testDatabase } from './test/harness';

/**
 * Issue 27 §4, ADR 061: the product split by ROLE across processes on one PostgreSQL, Redis and MQTT
 * broker: two API processes, one worker, two gateways sharing the broker's events
 * (`$share/{MQTT_SHARE_GROUP}/devices/+/events`). Each process is the real entry (`src/main.ts`), as an operator
 * starts it. Needs Redis and a broker: npm test sets REDIS_URL and TEST_MQTT_URL when they answer here.
 */
const redisUrl = process.env.REDIS_URL;
const mqttUrl = process.env.TEST_MQTT_URL;
if (!redisUrl || !mqttUrl)
  process.stdout.write(
    'multi-process test skipped: it needs REDIS_URL and TEST_MQTT_URL (npm test sets them when Redis answers on 127.0.0.1:6379 and an MQTT broker on 127.0.0.1:1883)\n',
  );

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = randomBytes(3).toString('hex');

type Node = { name: string; child: ChildProcess; output: () => string; url: Promise<string> };
const nodes: Node[] = [];
const sockets: Socket[] = [];
const clients: mqtt.MqttClient[] = [];
let dataDir = '';

/** One process of the deployment, started as an operator would: `node src/main.ts` with its ROLE. */
function startNode(name: string, env: Record<string, string>): Node {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const url = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /is running (?:at |\(health: )(http:\/\/[^/\s]+)\//.exec(output);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 100);
    child.on('exit', () => {
      clearInterval(timer);
      reject(new Error(`${name} exited early:\n${output}`));
    });
  });
  url.catch(() => {});
  const node = { name, child, output: () => output, url };
  nodes.push(node);
  return node;
}

async function signIn(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}${authContract.signIn.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const body = (await res.json()) as { status: string; access_token: string };
  if (body.status === 'signedIn') return body.access_token;
  expect(body.status).toBe('hipaa');
  const consent = await fetch(`${url}${userContract.consentHipaa.path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  expect(consent.status).toBe(200);
  return ((await consent.json()) as { access_token: string }).access_token;
}

function openSocket(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(url, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', reject);
  });
}

/** The first `event` whose payload satisfies `match`, within 20 s. */
function heard<T>(socket: Socket, event: string, match: (payload: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no matching ${event} received`)), 20_000);
    const listener = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

describe('ROLE', () => {
  const keys = {
    NODE_ENV: 'test',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
  };
  it('is every role by default, and the roles named otherwise, in a fixed order', () => {
    expect(loadConfig(keys).ROLE).toEqual(['api', 'worker', 'gateway']);
    expect(loadConfig({ ...keys, ROLE: 'gateway, api', REDIS_URL: 'redis://r:6379' }).ROLE).toEqual([
      'api',
      'gateway',
    ]);
  });
  it('refuses an unknown role, and a process of some roles without Redis to reach the others', () => {
    expect(() => loadConfig({ ...keys, ROLE: 'api,cron', REDIS_URL: 'redis://r:6379' })).toThrow(
      /ROLE: one or more of api, worker, gateway/,
    );
    expect(() => loadConfig({ ...keys, ROLE: 'worker' })).toThrow(
      /REDIS_URL: a process with only some roles/,
    );
  });
});

describe.runIf(redisUrl && mqttUrl)('the product split across processes by ROLE', () => {
  let db: Database;
  let api1 = '';
  let api2 = '';
  let programId = 0;
  const gatewayIds = [`caredeck-mp-${run}-g1`, `caredeck-mp-${run}-g2`];
  /** The dispenser of the device-event test, connected to the broker as `clients[0]`. */
  let dispenser = { id: 0, serial: '' };

  beforeAll(async () => {
    let url: string;
    ({ db, url } = await testDatabase());
    await seedDemoData(db);
    programId = Number(
      (
        await db.execute<{ program_id: number }>(
          sql`SELECT program_id FROM conversations WHERE name = 'Monitoring care team'`,
        )
      ).rows[0]!.program_id,
    );
    dataDir = await mkdtemp(path.join(tmpdir(), 'caredeck-mp-'));
    // One deployment: one database, Redis and broker, and the same keys in every process (ADR 012).
    const shared = {
      NODE_ENV: 'development',
      DATABASE_URL: url,
      REDIS_URL: redisUrl!,
      MQTT_URL: mqttUrl!,
      MQTT_PORT: '-1',
      JWT_SECRET: randomBytes(32).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      ALERT_SWEEP_MS: '1000',
      ALERT_EVALUATE_WAIT_MS: '0',
      // This run's own share group: other test files' gateways on the same broker never take its events.
      MQTT_SHARE_GROUP: `caredeck-mp-${run}`,
    };
    const started = [
      startNode('api-1', { ...shared, ROLE: 'api', MQTT_CLIENT_ID: `caredeck-mp-${run}-a1` }),
      startNode('api-2', { ...shared, ROLE: 'api', MQTT_CLIENT_ID: `caredeck-mp-${run}-a2` }),
      startNode('worker', { ...shared, ROLE: 'worker' }),
      startNode('gateway-1', { ...shared, ROLE: 'gateway', MQTT_CLIENT_ID: gatewayIds[0]! }),
      startNode('gateway-2', { ...shared, ROLE: 'gateway', MQTT_CLIENT_ID: gatewayIds[1]! }),
    ];
    const urls = await Promise.all(started.map((n) => n.url));
    api1 = urls[0]!;
    api2 = urls[1]!;
  }, 180_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const c of clients) await c.endAsync(true);
    await Promise.all(
      nodes.map(async (n) => {
        if (n.child.exitCode !== null) return;
        const exited = new Promise((r) => n.child.once('exit', r));
        n.child.kill('SIGTERM');
        await exited;
      }),
    );
    // The gateways' persistent sessions at the broker are dropped (a clean connect discards one).
    for (const id of gatewayIds) {
      const cleaner = mqtt.connect(mqttUrl!, { clientId: id, clean: true, reconnectPeriod: 0 });
      await new Promise<void>((resolve) => cleaner.once('connect', () => resolve()));
      await cleaner.endAsync(true);
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('serves the API only from API processes; workers and gateways answer their health checks', async () => {
    const worker = await nodes.find((n) => n.name === 'worker')!.url;
    expect((await fetch(`${worker}/healthz`)).status).toBe(200);
    const refused = await fetch(`${worker}${authContract.signIn.path}`, { method: 'POST' });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ message: 'This process serves no API (ROLE=worker).' });
    expect((await fetch(`${api1}/healthz`)).status).toBe(200);
  });

  it('stores device events published to the broker once each, through the gateways, and tells a socket on an API process', async () => {
    const patient = await given(db).patient({ programId, timeZone: 'UTC' });
    dispenser = (await given(db).device({
      programId,
      patientId: patient.id,
      kind: 'dispenser',
      dispenserType: 2,
    })) as { id: number; serial: string };
    const token = await signIn(api1, 'coordinator@caredeck.demo');
    const socket = await openSocket(api2, token);
    const told = heard<{ patient_id: number; kinds: string[] }>(
      socket,
      'patient.data',
      (p) => p.patient_id === patient.id,
    );

    const device = mqtt.connect(mqttUrl!, { clientId: `dev-${dispenser.serial}-${run}`, reconnectPeriod: 0 });
    clients.push(device);
    await new Promise<void>((resolve, reject) => {
      device.once('connect', () => resolve());
      device.once('error', reject);
    });
    // Forty events, the last a dose: the broker hands each to one of the two gateways.
    const at = Date.now() - 60_000;
    for (let seq = 1; seq <= 40; seq++)
      await device.publishAsync(
        eventsTopic(dispenser.serial),
        JSON.stringify(
          seq < 40
            ? { seq, type: 'heartbeat', battery: 90, at: new Date(at + seq * 1000).toISOString() }
            : { seq, type: 'dose_taken', at: new Date(at + seq * 1000).toISOString() },
        ),
        { qos: 1 },
      );

    expect(await told).toEqual({ patient_id: patient.id, kinds: expect.any(Array) });
    await expect
      .poll(
        async () =>
          (
            await db.execute<{ n: number; seqs: number }>(
              sql`SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM device_events WHERE device_id = ${dispenser.id}`,
            )
          ).rows[0],
        { timeout: 20_000 },
      )
      .toEqual({ n: 40, seqs: 40 });
  }, 60_000);

  it('sends a dispenser command from an API process through the broker and answers with the reply', async () => {
    const { serial, id } = dispenser;
    const client = clients[0]!;
    await client.subscribeAsync(commandsTopic(serial), { qos: 1 });
    client.on('message', (topic, payload) => {
      if (topic !== commandsTopic(serial)) return;
      const cmd = JSON.parse(payload.toString()) as { id: number; command: string };
      client.publish(repliesTopic(serial), JSON.stringify({ id: cmd.id, ok: true, command: cmd.command }), {
        qos: 1,
      });
    });
    const token = await signIn(api2, 'admin@caredeck.demo');
    const res = await fetch(`${api2}${routeUrl(devicesContract.message, { id })}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dispenserType: 2, data: { command: 'get_status' } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { command: { reply: unknown } }).command.reply).toMatchObject({
      ok: true,
      command: 'get_status',
    });
  }, 30_000);

  it('opens an alert in the worker and tells a socket on an API process', async () => {
    const token = await signIn(api2, 'coordinator@caredeck.demo');
    const socket = await openSocket(api1, token);
    const told = heard<{ types: string[] }>(socket, ALERTS_CHANGED_EVENT, (p) =>
      p.types.includes('missed_doses'),
    );
    // A new patient whose doses of the last two days were never taken: the worker's next sweep opens the
    // missed-dose alert (the API and gateway processes do not sweep).
    const patient = await given(db).patient({ programId, timeZone: 'UTC' });
    await given(db).regimen({
      patientId: patient.id,
      programId,
      times: ['00:00', '06:00', '12:00', '18:00'],
      lockoutTime: 60,
      unlockBefore: 30,
      scheduledAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    await told;
    // The event names types, not patients: the sweep may tell of the demo patients' missed doses a moment before
    // this patient's alert is committed, so the alert is awaited, not read once.
    await vi.waitFor(
      async () => {
        const open = await db.execute<{ type: string }>(
          sql`SELECT type FROM alerts WHERE patient_id = ${patient.id} AND status <> 'resolved'`,
        );
        expect(open.rows.map((r) => r.type)).toContain('missed_doses');
      },
      { timeout: 30_000, interval: 200 },
    );
  }, 60_000);

  it('delivers a messenger message posted on one API process to a member connected to the other', async () => {
    const coordinator = await signIn(api1, 'coordinator@caredeck.demo');
    const physician = await signIn(api2, 'physician@caredeck.demo');
    const id = Number(
      (
        await db.execute<{ id: number }>(
          sql`SELECT id FROM conversations WHERE name = 'Monitoring care team'`,
        )
      ).rows[0]!.id,
    );
    const socket = await openSocket(api2, physician);
    const told = heard<{ conversation_id: number; message_id: number }>(
      socket,
      'messenger.message',
      (p) => p.conversation_id === id,
    );
    const res = await fetch(`${api1}/api/v1/messenger/conversations/${id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${coordinator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Across processes' }),
    });
    expect(res.status).toBe(201);
    const posted = (await res.json()) as { data: { id: number } };
    expect(await told).toEqual({ conversation_id: id, message_id: posted.data.id, parent_id: null });
  }, 30_000);
});
