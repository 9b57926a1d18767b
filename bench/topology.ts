/**
 * `npm run topology -w bench` (issue 27 §4, ADR 061): the product split by ROLE as an operator would run it
 * on one machine: one `api`, one `worker` and two `gateway` processes (each `node --import tsx
 * apps/server/src/main.ts`, workers at their shipped intervals, logging as shipped, to files) on one
 * PostgreSQL, Redis and a Mosquitto of the bench's own with production limits. Devices publish to Mosquitto
 * at the morning peak of 100,000 wearable patients (5,400 events/s, paced) while staff read through the API
 * at 50 connections. It reports what the devices got acknowledged and what was stored (nothing acknowledged
 * may be lost), how far behind the stored readings ran (publish → committed row, per minute), the readers'
 * latencies, and each process's CPU and memory over the run (the memory slope: a soak of the split
 * product). Figures go to the `topology` block of bench/RESULTS.md.
 *
 * Knobs (env): TOPOLOGY_SECONDS (600), TOPOLOGY_EVENTS_PER_SECOND (5400), TOPOLOGY_DEVICES (300),
 * TOPOLOGY_CONNECTIONS (50), BENCH_PATIENTS (100000), BENCH_SECOND_PATIENTS (10000), BENCH_DATABASE_URL,
 * REDIS_URL (default redis://127.0.0.1:6379). Needs a `mosquitto` binary and Redis; says so and exits when
 * either is missing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './database';
import { BENCH_ADMIN, generateDataset } from './dataset';
import type { GeneratorConfig, GeneratorResult } from './ingest-generator';
import { type LoadResult, runLoad, stopLoad } from './load';
import {
  answers,
  freePort,
  intEnv,
  mosquittoBinary,
  processCpuMs,
  processRssMiB,
  registerDispensers,
  spawnTsx,
  startMosquitto,
  stopChild,
  waitForLine,
} from './processes';
import { writeBlock } from './report';
import type { Scenario } from './scenarios';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const JWT_SECRET = 'caredeck-topology-bench-secret-0123456789abcdef';
const ENCRYPTION_KEY = 'caredeck-topology-bench-encryption-0123456789ab';

const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1).padStart(6);
const log = (line: string) => process.stdout.write(`[topology ${elapsed()}s] ${line}\n`);
const cleanups: (() => Promise<void>)[] = [];
async function cleanUp(): Promise<void> {
  for (const step of cleanups.reverse())
    await step().catch((err: Error) => log(`clean-up step failed: ${err.message}`));
  cleanups.length = 0;
}

async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_ADMIN.email, password: BENCH_ADMIN.password }),
  });
  const body = (await res.json()) as { status?: string; access_token?: string };
  if (body.status !== 'signedIn' || !body.access_token) throw new Error(`sign-in answered ${res.status}`);
  return body.access_token;
}

type Node = { name: string; role: string; child: ChildProcess; url: string };
type Sample = { atMs: number; stored: number; rss: Record<string, number> };

async function main(): Promise<void> {
  const seconds = intEnv('TOPOLOGY_SECONDS', 600, 10, 7_200);
  const rate = intEnv('TOPOLOGY_EVENTS_PER_SECOND', 5_400, 1, 100_000);
  const deviceCount = intEnv('TOPOLOGY_DEVICES', 300, 1, 10_000);
  const connections = intEnv('TOPOLOGY_CONNECTIONS', 50, 1, 500);
  const counts = {
    big: intEnv('BENCH_PATIENTS', 100_000, 100, 1_000_000),
    small: intEnv('BENCH_SECOND_PATIENTS', 10_000, 10, 1_000_000),
  };
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const redis = new URL(redisUrl);
  const binary = mosquittoBinary();
  if (!binary || !(await answers(Number(redis.port || 6379), redis.hostname))) {
    log(`needs a mosquitto binary and Redis at ${redis.host}: not here, nothing measured`);
    return;
  }
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

  const bench = await openBenchDatabase(log);
  cleanups.push(bench.dispose);
  const { db } = bench;
  const dataset = await generateDataset(db, counts, log);
  const registered = await registerDispensers(db, dataset.bigProgramId, deviceCount);
  const devices = registered.map(({ serial, secret }) => ({ serial, secret }));
  const deviceIds = registered.map((d) => d.id);
  await db.execute(sql`VACUUM ANALYZE`);
  log(`dataset: ${counts.big} + ${counts.small} patients, ${deviceCount} devices`);

  // The bench's own Mosquitto with production limits (docs/devices.md): Debian's defaults drop messages
  // past 1,000 queued for a session.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'caredeck-topology-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const { child: mosquitto, url: mqttUrl } = await startMosquitto(binary, dataDir);
  cleanups.push(() => stopChild(mosquitto));

  // The processes, as an operator starts them: only ROLE, the client id and the ports differ.
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/_MS$|^LOG_LEVEL$|^DEMO|^REDIS_URL$|^MQTT_|^DATABASE_URL$|^PORT$|^NODE_ENV$|^ROLE$|^VITEST/.test(k))
      base[k] = v;
  const start = async (name: string, role: string): Promise<Node> => {
    const port = await freePort();
    const env = {
      ...base,
      NODE_ENV: 'development',
      ROLE: role,
      DATABASE_URL: bench.url,
      REDIS_URL: redisUrl,
      MQTT_URL: mqttUrl,
      MQTT_PORT: '-1',
      MQTT_CLIENT_ID: `caredeck-topology-${name}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dataDir, name),
      JWT_SECRET,
      ENCRYPTION_KEY,
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const file = createWriteStream(path.join(dataDir, `${name}.log`));
    child.stdout?.pipe(file);
    child.stderr?.pipe(file);
    cleanups.push(() => stopChild(child));
    await waitForLine(child, /is running/, 180_000);
    return { name, role, child, url: `http://127.0.0.1:${port}` };
  };
  const nodes = [
    await start('api', 'api'),
    await start('worker', 'worker'),
    await start('gateway-1', 'gateway'),
    await start('gateway-2', 'gateway'),
  ];
  const api = nodes[0]!.url;
  log(`processes: ${nodes.map((n) => `${n.name} (pid ${n.child.pid})`).join(', ')}; broker ${mqttUrl}`);

  const cpu0 = Object.fromEntries(nodes.map((n) => [n.name, processCpuMs(n.child.pid)]));
  const generatorConfig: GeneratorConfig = {
    url: mqttUrl,
    devices,
    durationMs: seconds * 1000,
    inflight: 100,
    startSeq: 1,
    ratePerSecond: rate,
  };
  const generatorChild = spawnTsx(
    ROOT,
    path.join(HERE, 'ingest-generator.ts'),
    [JSON.stringify(generatorConfig)],
    {
      ...process.env,
    },
    cleanups,
  );
  const generated = waitForLine(generatorChild, /\{"sent".*\}\n/, (seconds + 300) * 1000).then(
    (m) => JSON.parse(m[0]) as GeneratorResult,
  );
  const t0 = performance.now();
  log(
    `devices: ${deviceCount} publishing ${rate} events/s for ${seconds} s; staff reading at ${connections} connections`,
  );

  // Every 10 s: what is stored, and each process's memory.
  const samples: Sample[] = [];
  const storedNow = async () =>
    Number(
      (
        await db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM device_events WHERE device_id = ANY(${`{${deviceIds}}`}::bigint[])`,
        )
      ).rows[0]!.n,
    );
  const sample = async () =>
    samples.push({
      atMs: performance.now() - t0,
      stored: await storedNow(),
      rss: Object.fromEntries(nodes.map((n) => [n.name, processRssMiB(n.child.pid)])),
    });
  await sample();
  const sampler = setInterval(() => void sample(), 10_000);

  // Staff reading while the devices publish: the requests every screen makes first, 20 s each in turn.
  const patientId = Number(
    (await db.execute<{ id: number }>(sql`SELECT patient_id AS id FROM devices WHERE id = ${deviceIds[0]!}`))
      .rows[0]!.id,
  );
  const today = new Date().toISOString().slice(0, 10);
  const reads: Scenario[] = [
    { id: 'user', title: 'GET /api/v1/user', path: '/api/v1/user', sessions: 'one' },
    {
      id: 'list',
      title: 'patient list page 1',
      path: `/api/v1/programs/${dataset.bigProgramId}/users?page=1&per_page=10&sort_by=name&sort_direction=ASC`,
      sessions: 'one',
    },
    {
      id: 'chart',
      title: "a device patient's readings today",
      path: `/api/v1/programs/${dataset.bigProgramId}/users/${patientId}/measurements/grouped/${today}/${today}?types=systolic`,
      sessions: 'one',
    },
  ];
  const results: Record<string, LoadResult[]> = {};
  let slice = 0;
  while (performance.now() - t0 < seconds * 1000 - 5_000) {
    const s = reads[slice++ % reads.length]!;
    const remaining = Math.floor((seconds * 1000 - (performance.now() - t0)) / 1000);
    const token = await signIn(api);
    const r = await runLoad(
      api,
      s,
      { one: token, many: [] },
      {
        durationSeconds: Math.max(1, Math.min(20, remaining)),
        warmupSeconds: 0,
        connections,
      },
    );
    results[s.id] = [...(results[s.id] ?? []), r];
  }
  const gen = await generated;
  // Drain: what the broker acknowledged must all be stored.
  const drainStarted = performance.now();
  let stored = await storedNow();
  while (stored < gen.acked && performance.now() - drainStarted < 120_000) {
    await new Promise((r) => setTimeout(r, 500));
    stored = await storedNow();
  }
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  clearInterval(sampler);
  await sample();
  const wallSeconds = (performance.now() - t0) / 1000;
  const cpu = Object.fromEntries(
    nodes.map((n) => [n.name, (processCpuMs(n.child.pid) - cpu0[n.name]!) / 10 / wallSeconds]),
  );

  // How far behind: publish (the event's own time) to the row's commit transaction, per minute of the run.
  const lag = await db.execute<{ minute: number; n: number; p50: number; p99: number; max: number }>(sql`
    WITH e AS (
      SELECT occurred_at, extract(epoch FROM received_at - occurred_at) AS s FROM device_events
      WHERE device_id = ANY(${`{${deviceIds}}`}::bigint[]))
    SELECT floor(extract(epoch FROM occurred_at - (SELECT min(occurred_at) FROM e)) / 60)::int AS minute,
           count(*)::int AS n,
           round((percentile_cont(0.5) WITHIN GROUP (ORDER BY s))::numeric, 2)::float AS p50,
           round((percentile_cont(0.99) WITHIN GROUP (ORDER BY s))::numeric, 2)::float AS p99,
           round(max(s)::numeric, 2)::float AS max
    FROM e GROUP BY 1 ORDER BY 1`);
  stopLoad();
  await cleanUp();

  // Memory slope per process after the first minute (warm-up), MiB per minute, least squares.
  const slope = (name: string) => {
    const pts = samples.filter((s) => s.atMs >= 60_000).map((s) => [s.atMs / 60_000, s.rss[name]!] as const);
    if (pts.length < 3) return Number.NaN;
    const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
    const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    const num = pts.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
    const den = pts.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
    return num / den;
  };
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const worst = lag.rows.reduce((a, r) => Math.max(a, r.p99), 0);
  const lines = [
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round((performance.now() - started) / 1000)} s in all. Machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; load average (1 / 5 / 15 min) before the run: ${loadBefore}. Database: ${bench.url.replace(/\/\/[^@]*@/, '//')} (scratch). Command: \`npm run topology -w bench\`.`,
    '',
    `Processes: one \`ROLE=api\`, one \`ROLE=worker\`, two \`ROLE=gateway\` (\`node --import tsx apps/server/src/main.ts\`, workers at shipped intervals, \`LOG_LEVEL\` info to files), Redis at ${redis.host}, the bench's Mosquitto (production limits). Dataset: ${n(counts.big)} + ${n(counts.small)} patients; ${deviceCount} devices publishing ${n(rate)} events/s (paced; 50 % heartbeats, 30 % blood-pressure readings, 20 % doses) for ${seconds} s; staff reading at ${connections} connections through the API process in 20-s turns.`,
    '',
    `- **Devices:** ${n(gen.sent)} events sent, ${n(gen.acked)} acknowledged by the broker (${n(gen.acked / (gen.elapsedMs / 1000))}/s achieved of ${n(rate)}/s; PUBACK p50 ${Math.round(gen.p50)} ms, p99 ${Math.round(gen.p99)} ms), ${n(gen.failed)} failed.`,
    `- **Stored:** ${n(stored)} of ${n(gen.acked)} acknowledged (${stored >= gen.acked ? '**none lost**' : `**${n(gen.acked - stored)} missing**`}), the last ${drainSeconds.toFixed(1)} s after the devices stopped.`,
    `- **Behind (publish → committed row):** worst minute p99 ${worst.toFixed(2)} s (target ≤ 5 s).`,
    '',
    '| minute | events | p50 s | p99 s | max s |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...lag.rows.map((r) => `| ${r.minute} | ${n(r.n)} | ${r.p50} | ${r.p99} | ${r.max} |`),
    '',
    '| staff request (API process) | turns | req/s (mean) | p50 ms (worst turn) | p99 ms (worst turn) | errors | non-2xx |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...reads.map((s) => {
      const rs = results[s.id] ?? [];
      const mean = rs.reduce((a, r) => a + r.requestsPerSecond, 0) / Math.max(1, rs.length);
      return `| ${s.title} | ${rs.length} | ${n(mean)} | ${Math.max(0, ...rs.map((r) => r.p50))} | ${Math.max(0, ...rs.map((r) => r.p99))} | ${rs.reduce((a, r) => a + r.errors, 0)} | ${rs.reduce((a, r) => a + r.non2xx, 0)} |`;
    }),
    '',
    '| process | CPU % of one core (mean) | RSS at start MiB | RSS at end MiB | RSS slope after the first minute, MiB/min |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...nodes.map(
      (nd) =>
        `| ${nd.name} (\`ROLE=${nd.role}\`) | ${cpu[nd.name]!.toFixed(0)} | ${samples[0]!.rss[nd.name]!.toFixed(0)} | ${samples.at(-1)!.rss[nd.name]!.toFixed(0)} | ${slope(nd.name).toFixed(2)} |`,
    ),
  ];
  await writeBlock(path.join(HERE, 'RESULTS.md'), 'topology', 'npm run topology -w bench', lines.join('\n'));
  log(
    `written to bench/RESULTS.md (worst minute p99 ${worst.toFixed(2)} s; stored ${stored} of ${gen.acked})`,
  );
}

main().then(
  () => process.exit(0),
  async (err: Error) => {
    log(`failed: ${err.message}`);
    stopLoad();
    await cleanUp();
    process.exit(1);
  },
);
