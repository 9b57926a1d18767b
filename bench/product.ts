/**
 * `npm run product -w bench` (issue 27): the population screens measured from outside on the product as
 * `npm start` runs it — `node --import tsx apps/server/src/main.ts` as its own process, workers at their
 * shipped intervals, logging at its shipped level (to a file) — on a generated program of 100,000 patients
 * with history, while devices publish to its embedded broker at the 100k-patient rate. The bare Fastify +
 * pg baseline (bench/baseline.ts) runs as another process in the same run, measured alternating with the
 * product on the same two requests. Figures go to the `product` block of bench/RESULTS.md.
 *
 * Knobs (env): BENCH_PATIENTS (100000), BENCH_SECOND_PATIENTS (10000), BENCH_DURATION (5 s per scenario),
 * BENCH_WARMUP (2 s), BENCH_CONNECTIONS (10), BENCH_EVENTS_PER_SECOND (1800), BENCH_DEVICES (100),
 * BENCH_AUDIT_ROWS (200000), BENCH_CONVERSATIONS (300), BENCH_WEARABLE_DAYS (90), BENCH_SETTLE_SECONDS
 * (how long to wait for the adherence rollup to settle, 600), BENCH_TIME_LIMIT_SECONDS (whole run, 2400),
 * BENCH_ONLY (regular expression of scenario ids: printed, RESULTS.md untouched), BENCH_DATABASE_URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { databaseCpuMs, openBenchDatabase } from './database';
import { BENCH_ADMIN } from './dataset';
import type { GeneratorConfig, GeneratorResult } from './ingest-generator';
import { type LoadResult, runLoad, stopLoad } from './load';
import {
  freePort,
  intEnv,
  processCpuMs,
  registerDispensers,
  spawnTsx,
  stopChild,
  waitForLine,
} from './processes';
import { generateProductDataset, type ProductDataset } from './product-dataset';
import { writeBlock } from './report';
import type { Scenario } from './scenarios';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const JWT_SECRET = 'caredeck-product-bench-secret-0123456789abcdef';

const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1).padStart(6);
const log = (line: string) => process.stdout.write(`[product ${elapsed()}s] ${line}\n`);

const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse())
      await step().catch((err: Error) => log(`clean-up step failed: ${err.message}`));
  })();
  return cleaning;
}

async function abort(reason: string, code: number): Promise<never> {
  log(`${reason}: stopping and cleaning up`);
  stopLoad();
  setTimeout(() => process.exit(code), 30_000).unref();
  await cleanUp();
  process.exit(code);
}

const tsxChild = (script: string, args: string[], env: NodeJS.ProcessEnv) =>
  spawnTsx(ROOT, script, args, env, cleanups);

async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_ADMIN.email, password: BENCH_ADMIN.password }),
  });
  const body = (await res.json()) as { status?: string; access_token?: string };
  if (res.status !== 200 || body.status !== 'signedIn' || !body.access_token)
    throw new Error(`sign-in answered ${res.status} ${JSON.stringify(body)}, expected signedIn`);
  return body.access_token;
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

type ProductScenario = Scenario & { group: string };

/** The population screens of issue 27 item 1, as the console calls them (apps/web/src/features/*\/api.ts). */
function screens(d: ProductDataset, lastAlertPage: number, pageIds: string): ProductScenario[] {
  const p = d.bigProgramId;
  const month = { start: `${day(0).slice(0, 7)}-01`, end: day(0) };
  const s = (group: string, id: string, title: string, url: string): ProductScenario => ({
    group,
    id,
    title,
    path: url,
    sessions: 'one',
  });
  const users = `/api/v1/programs/${p}/users?page=1&per_page=10&sort_by=name&sort_direction=ASC`;
  return [
    s(
      'alerts',
      'board',
      'alert board, this week, active',
      `/api/v1/alerts/all/week/all?program_id=${p}&page=1&status=active`,
    ),
    s(
      'alerts',
      'board-filtered',
      'alert board, open and unassigned, all time',
      `/api/v1/alerts/all/all/all?program_id=${p}&page=1&status=open&assigned=nobody`,
    ),
    s(
      'alerts',
      'board-type',
      'alert board, one type (missed doses), month',
      `/api/v1/alerts/missed_doses/month/all?program_id=${p}&page=1&status=active`,
    ),
    s(
      'alerts',
      'board-last',
      'alert board, last page (all time, active)',
      `/api/v1/alerts/all/all/all?program_id=${p}&page=${lastAlertPage}&status=active`,
    ),
    s(
      'alerts',
      'board-escalated',
      'alert board, escalated',
      `/api/v1/alerts/all/all/all?program_id=${p}&page=1&status=escalated`,
    ),
    s('alerts', 'tiles', 'alert tiles', `/api/v1/alerts/groups?program_id=${p}`),
    s(
      'alerts',
      'analytics',
      'alert analytics, 30 days',
      `/api/v1/programs/${p}/analytics/${day(-29)}/${day(0)}?count=1&zone=UTC`,
    ),
    s(
      'alerts',
      'triage',
      'triage worklist (open alerts per patient)',
      `/api/v1/programs/${p}/alerts/summary?grouped=1&page=1`,
    ),
    s('dashboards', 'dash-patients', 'dashboard: patient counts', `/api/v1/users/count?program_id=${p}`),
    s(
      'dashboards',
      'dash-alerts',
      'dashboard: alerts, 14 days',
      `/api/v1/dashboard/alerts/${day(-13)}/${day(0)}?program_id=${p}&zone=UTC`,
    ),
    s(
      'dashboards',
      'dash-readings',
      'dashboard: readings, 14 days',
      `/api/v1/dashboard/readings/${day(-13)}/${day(0)}?program_id=${p}&zone=UTC`,
    ),
    s(
      'dashboards',
      'dash-doses',
      'dashboard: doses, 14 days',
      `/api/v1/dashboard/doses/${day(-13)}/${day(0)}?program_id=${p}&zone=UTC`,
    ),
    s(
      'dashboards',
      'dash-enrolments',
      'dashboard: enrolments, 14 days',
      `/api/v1/dashboard/enrolments/${day(-13)}/${day(0)}?program_id=${p}&zone=UTC`,
    ),
    s('dashboards', 'kpi', 'KPI, 30 days', `/api/v1/programs/${p}/kpi/${day(-29)}/${day(0)}`),
    s('worklist', 'list', 'patient worklist, page 1', users),
    s(
      'worklist',
      'list-combined',
      'worklist: status + state + assignee',
      `${users}&statuses=active&state=CA,NY,TX&assignedAdmin=${d.assigneeId}`,
    ),
    s('worklist', 'list-due', 'worklist: follow-up due this week', `${users}&follow_up=1&follow_up_for=week`),
    s(
      'worklist',
      'list-overdue',
      'worklist: follow-up overdue',
      `${users}&follow_up=1&follow_up_for=overdue`,
    ),
    s('worklist', 'list-escalated', 'worklist: escalated', `${users}&escalation=1`),
    s('worklist', 'list-pipeline', 'worklist: in a pipeline', `${users}&patientType=pipeline`),
    s(
      'worklist',
      'summaries',
      "worklist: the page's summaries (10 patients)",
      `/api/v1/programs/${p}/users/summaries?ids=${pageIds}`,
    ),
    s(
      'worklist',
      'surveys',
      'surveys worklist',
      `/api/v1/programs/${p}/surveys/worklist?page=1&per_page=10&status=todo`,
    ),
    s('pipelines', 'pipelines', 'pipelines list', `/api/v1/programs/${p}/pipelines`),
    s('pipelines', 'pipeline-board', 'a pipeline board', `/api/v1/programs/${p}/pipelines/${d.pipelineId}`),
    s('operations', 'billing', 'billing, current month', `/api/v1/programs/${p}/billings`),
    s('operations', 'reports', 'reports list', `/api/v1/programs/${p}/report`),
    s('operations', 'messenger', 'messenger conversations', '/api/v1/messenger/conversations'),
    s(
      'operations',
      'staff-logs',
      'staff logs (one row per staff member)',
      `/api/v1/programs/${p}/adminlogs?summary=1&start=${day(-29)}&end=${day(0)}&per_page=100`,
    ),
    s(
      'operations',
      'staff-one',
      'one staff member',
      `/api/v1/programs/${p}/adminlogs/${d.staffIds[1]}?start=${day(-29)}&end=${day(0)}`,
    ),
    s('operations', 'fleet', '/controller fleet (dispensers)', '/api/v1/devices?kind=dispenser'),
    s(
      'patient',
      'calendar',
      "a patient's calendar (this month, 5 regimens)",
      `/api/v1/programs/${p}/users/${d.wearablePatientId}/adherence/${month.start}/${month.end}`,
    ),
    s(
      'patient',
      'chart-30',
      'readings chart, 30 days (a reading a minute)',
      `/api/v1/programs/${p}/users/${d.wearablePatientId}/measurements/grouped/${day(-29)}/${day(0)}?types=pulse`,
    ),
    s(
      'patient',
      'chart-90',
      'readings chart, 90 days',
      `/api/v1/programs/${p}/users/${d.wearablePatientId}/measurements/grouped/${day(-89)}/${day(0)}?types=pulse`,
    ),
  ];
}

type Measured = {
  scenario: ProductScenario;
  check: string;
  result?: LoadResult;
  /** CPU of the product process over the scenario (warm-up included), in % of one core. */
  productCpuPercent?: number;
  databaseCpuPercent?: number;
  /** The check request alone (no other load from the bench): its time and the answer's size. */
  firstMs?: number;
  bytes?: number;
};

async function main(): Promise<number> {
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const counts = {
    big: intEnv('BENCH_PATIENTS', 100_000, 100, 1_000_000),
    small: intEnv('BENCH_SECOND_PATIENTS', 10_000, 10, 1_000_000),
  };
  const knobs = {
    doseDays: 30,
    auditRows: intEnv('BENCH_AUDIT_ROWS', 200_000, 0, 10_000_000),
    conversations: intEnv('BENCH_CONVERSATIONS', 300, 1, 100_000),
    wearableDays: intEnv('BENCH_WEARABLE_DAYS', 90, 1, 365),
  };
  const settings = {
    durationSeconds: intEnv('BENCH_DURATION', 5, 1, 60),
    warmupSeconds: intEnv('BENCH_WARMUP', 2, 0, 30),
    connections: intEnv('BENCH_CONNECTIONS', 10, 1, 100),
  };
  const eventsPerSecond = intEnv('BENCH_EVENTS_PER_SECOND', 1_800, 0, 50_000);
  const deviceCount = intEnv('BENCH_DEVICES', 100, 1, 5_000);
  const settleSeconds = intEnv('BENCH_SETTLE_SECONDS', 600, 0, 7_200);
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;

  const bench = await openBenchDatabase(log);
  cleanups.push(bench.dispose);
  const { db } = bench;
  const version = await db.execute<{ v: string }>(sql`SELECT split_part(version(), ' on ', 1) AS v`);
  log(`migrated; generating ${counts.big} + ${counts.small} patients with history`);
  const dataset = await generateProductDataset(db, counts, knobs, log);
  const generationSeconds = dataset.seconds + dataset.historySeconds;
  log(
    `dataset ready in ${generationSeconds.toFixed(1)} s (patients ${dataset.seconds.toFixed(1)} s, history ${dataset.historySeconds.toFixed(1)} s)`,
  );

  // Devices that publish during the screens: registered dispensers with a regimen, as bench/ingest.ts does.
  const devices = (await registerDispensers(db, dataset.bigProgramId, deviceCount)).map(
    ({ serial, secret }) => ({
      serial,
      secret,
    }),
  );

  // The product as `npm start` runs it (scripts/start.mjs): its own process, workers and log level as shipped.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'caredeck-product-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const mqttPort = await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Nothing of the caller's environment may change what is measured: no worker intervals, no log level.
    if (/_MS$|^LOG_LEVEL$|^DEMO|^REDIS_URL$|^MQTT_|^DATABASE_URL$|^PORT$|^NODE_ENV$|^VITEST/.test(k))
      continue;
    env[k] = v;
  }
  Object.assign(env, {
    DATABASE_URL: bench.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    JWT_SECRET,
  });
  const logFile = path.join(dataDir, 'product.log');
  const product = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const productLog = createWriteStream(logFile);
  product.stdout.pipe(productLog);
  product.stderr.pipe(productLog);
  cleanups.push(() => stopChild(product));
  await waitForLine(product, /CareDeck is running at/, 180_000);
  const baseUrl = `http://127.0.0.1:${port}`;
  log(`product listening on ${baseUrl} (pid ${product.pid}, MQTT ${mqttPort}, log ${logFile})`);

  // The adherence rollup worker settles what the import marked: wait for it (bounded) and report how long.
  const settleStarted = performance.now();
  let dirty = 0;
  for (;;) {
    dirty = Number(
      (await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM adherence_dirty`)).rows[0]!.n,
    );
    if (dirty === 0 || performance.now() - settleStarted > settleSeconds * 1000) break;
    await new Promise((r) => setTimeout(r, 2_000));
  }
  const settled = { seconds: (performance.now() - settleStarted) / 1000, leftDirty: dirty };
  log(
    `adherence rollup: ${dirty === 0 ? 'settled' : `${dirty} patients still dirty`} after ${settled.seconds.toFixed(0)} s`,
  );
  // What autovacuum does within a minute or two of an import on a server that runs it: visibility maps (for
  // index-only scans) and statistics. The machine's shared PostgreSQL runs with autovacuum off, and without
  // statistics the planner took the new rollup tables for empty ones (the KPI took 210 s, ADR 069).
  const vacuumStarted = performance.now();
  await db.execute(sql`VACUUM ANALYZE`);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  log(`VACUUM ANALYZE after the import and the rollup: ${vacuumSeconds.toFixed(1)} s`);

  // A fresh session per scenario: an access token lives ACCESS_TOKEN_TTL_SECONDS (600 s as shipped), less
  // than the run (the full-size run of 2026-11-28 got 401s on its last scenario from an expired token).
  let token = await signIn(baseUrl);
  let auth = { authorization: `Bearer ${token}`, accept: 'application/json' };

  const baselineChild = tsxChild(
    path.join(HERE, 'product-baseline.ts'),
    [JSON.stringify({ url: bench.url, jwtSecret: JWT_SECRET, idleSeconds: 900, maxAgeSeconds: 12 * 3600 })],
    { ...process.env },
  );
  const bareUrl = (await waitForLine(baselineChild, /listening (\S+)\n/, 60_000))[1]!;
  log(`bare baseline listening on ${bareUrl} (pid ${baselineChild.pid})`);

  // What the screens need to know first: the alert board's last page, the worklist's first page.
  const first = (await (
    await fetch(
      `${baseUrl}/api/v1/alerts/all/all/all?program_id=${dataset.bigProgramId}&page=1&status=active`,
      { headers: auth },
    )
  ).json()) as { last_page?: number };
  const page = (await (
    await fetch(`${baseUrl}/api/v1/programs/${dataset.bigProgramId}/users?page=1&per_page=10`, {
      headers: auth,
    })
  ).json()) as { data?: { id: number }[] };
  const all = screens(dataset, first.last_page ?? 1, (page.data ?? []).map((r) => r.id).join(',') || '1');
  const chosen = all.filter((s) => !only || only.test(s.id));

  // Product vs bare on the same requests, alternating.
  const pairs: ProductScenario[] = [
    { group: 'bare', id: 'user', title: 'GET /api/v1/user', path: '/api/v1/user', sessions: 'one' },
    {
      group: 'bare',
      id: 'list-bare',
      title: 'patient list page 1',
      path: `/api/v1/programs/${dataset.bigProgramId}/users?page=1&per_page=10`,
      sessions: 'one',
    },
  ];

  // An upper bound: the generator is told to stop (SIGTERM) when the screens are done.
  const perScenario = settings.warmupSeconds + settings.durationSeconds + 10;
  const loadSeconds = Math.ceil(perScenario * (chosen.length + pairs.length * 4) + 30);
  let generator: Promise<GeneratorResult | null> = Promise.resolve(null);
  let generatorChild: ChildProcess | null = null;
  const eventsBefore = Number(
    (await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM device_events`)).rows[0]!.n,
  );
  if (eventsPerSecond > 0) {
    const config: GeneratorConfig = {
      url: `mqtt://127.0.0.1:${mqttPort}`,
      devices,
      durationMs: loadSeconds * 1000,
      inflight: 100,
      startSeq: 1,
      ratePerSecond: eventsPerSecond,
    };
    generatorChild = tsxChild(path.join(HERE, 'ingest-generator.ts'), [JSON.stringify(config)], {
      ...process.env,
    });
    generator = waitForLine(generatorChild, /\{"sent".*\}\n/, (loadSeconds + 120) * 1000).then(
      (m) => JSON.parse(m[0]) as GeneratorResult,
      (err: Error) => {
        log(`device generator: ${err.message}`);
        return null;
      },
    );
    log(`devices: ${devices.length} dispensers publishing ${eventsPerSecond} events/s for ${loadSeconds} s`);
    await new Promise((r) => setTimeout(r, 3_000));
  }

  const measure = async (s: ProductScenario, url: string, server: 'product' | 'bare'): Promise<Measured> => {
    token = await signIn(baseUrl);
    auth = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const c0 = performance.now();
    const res = await fetch(`${url}${s.path}`, { headers: auth, signal: AbortSignal.timeout(60_000) }).catch(
      (err: Error) => err,
    );
    if (res instanceof Error) return { scenario: s, check: `failed: ${res.message}` };
    const bytes = (await res.arrayBuffer()).byteLength;
    const firstMs = performance.now() - c0;
    if (res.status !== 200) return { scenario: s, check: `answered ${res.status}` };
    const cpu0 = processCpuMs(server === 'product' ? product.pid : baselineChild.pid);
    const db0 = await databaseCpuMs(db);
    const t0 = performance.now();
    const result = await runLoad(url, s, { one: token, many: [] }, settings);
    const wall = performance.now() - t0;
    const cpu = processCpuMs(server === 'product' ? product.pid : baselineChild.pid) - cpu0;
    const dbCpu = (await databaseCpuMs(db)) - db0;
    const m: Measured = {
      scenario: s,
      check: 'ok',
      result,
      firstMs,
      bytes,
      productCpuPercent: (cpu / wall) * 100,
      databaseCpuPercent: (dbCpu / wall) * 100,
    };
    log(
      `${server === 'bare' ? 'bare   ' : 'product'} ${s.id}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms, errors ${result.errors}, non-2xx ${result.non2xx}; CPU ${m.productCpuPercent?.toFixed(0)} %, PostgreSQL ${m.databaseCpuPercent?.toFixed(0)} %`,
    );
    return m;
  };

  const bare: { product: Measured; bare: Measured }[][] = [];
  const runPairs = async () => {
    const round: { product: Measured; bare: Measured }[] = [];
    for (const s of pairs) {
      const a = await measure(s, baseUrl, 'product');
      const b = await measure(s, bareUrl, 'bare');
      round.push({ product: a, bare: b });
    }
    bare.push(round);
  };
  await runPairs();
  const measured: Measured[] = [];
  for (const s of chosen) {
    const m = await measure(s, baseUrl, 'product');
    if (m.check !== 'ok') log(`product ${s.id}: ${m.check} — not measured`);
    measured.push(m);
  }
  await runPairs();

  // The device load ends on its own; then what the product stored of it.
  generatorChild?.kill('SIGTERM');
  const generated = await generator;
  const storedEvents =
    Number((await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM device_events`)).rows[0]!.n) -
    eventsBefore;
  if (generated)
    log(
      `devices: sent ${generated.sent}, acknowledged ${generated.acked} (${Math.round(generated.acked / (generated.elapsedMs / 1000))}/s), failed ${generated.failed}; stored ${storedEvents}`,
    );

  const productLogBytes = readFileSync(logFile).byteLength;
  if (only) {
    log('BENCH_ONLY run: RESULTS.md untouched');
    return 0;
  }
  await writeBlock(
    RESULTS_FILE,
    'product',
    'npm run product -w bench',
    report({
      machine: `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
      database: `${bench.description}; ${version.rows[0]?.v ?? ''}`,
      loadBefore,
      dataset,
      generationSeconds,
      settled,
      vacuumSeconds,
      settings,
      eventsPerSecond,
      generated,
      storedEvents,
      bare,
      measured,
      productLogBytes,
      totalSeconds: (performance.now() - started) / 1000,
    }),
  );
  log(`results written to ${path.relative(ROOT, RESULTS_FILE)}`);
  return 0;
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

function report(r: {
  machine: string;
  database: string;
  loadBefore: string;
  dataset: ProductDataset;
  generationSeconds: number;
  settled: { seconds: number; leftDirty: number };
  vacuumSeconds: number;
  settings: { durationSeconds: number; warmupSeconds: number; connections: number };
  eventsPerSecond: number;
  generated: GeneratorResult | null;
  storedEvents: number;
  bare: { product: Measured; bare: Measured }[][];
  measured: Measured[];
  productLogBytes: number;
  totalSeconds: number;
}): string {
  const d = r.dataset;
  const row = (m: Measured) => {
    const x = m.result;
    if (!x)
      return `| ${m.scenario.title} | \`GET ${m.scenario.path}\` | ${m.check}: not measured | | | | | | | | | | |`;
    const first = `${ms(m.firstMs ?? 0)} (${n((m.bytes ?? 0) / 1024)} KiB)`;
    const cpu = `${m.productCpuPercent?.toFixed(0) ?? '–'} | ${m.databaseCpuPercent?.toFixed(0) ?? '–'}`;
    // No answer completed inside the measured seconds: autocannon's zeros are not latencies.
    if (x.requests === 0)
      return `| ${m.scenario.title} ✗ | \`GET ${m.scenario.path}\` | ${first} | 0 | none of the ${r.settings.connections} requests in flight answered within the ${r.settings.durationSeconds} s measured | | | | ${x.errors} (${x.timeouts}) | ${x.non2xx} | ${cpu} |`;
    const over = x.p99 <= 50 ? '' : ' ✗';
    return `| ${m.scenario.title}${over} | \`GET ${m.scenario.path}\` | ${first} | ${n(x.requestsPerSecond)} | ${ms(x.p50)} | ${ms(x.p97_5)} | ${ms(x.p99)} | ${ms(x.max)} | ${x.errors} (${x.timeouts}) | ${x.non2xx} | ${cpu} |`;
  };
  const ok = r.measured.filter((m) => m.result);
  const within = ok.filter((m) => m.result!.requests > 0 && m.result!.p99 <= 50).length;
  const lines = [
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${r.totalSeconds.toFixed(0)} s in all. Machine: ${r.machine}. Database: ${r.database}. Load average (1 / 5 / 15 min) before the run: ${r.loadBefore}.`,
    '',
    `Dataset: program 1 ${n(d.bigCount)} patients, program 2 ${n(d.smallCount)}, one enterprise, ${d.staffCount} staff; generated in ${r.generationSeconds.toFixed(0)} s (patients ${d.seconds.toFixed(0)} s through the factories, history ${d.historySeconds.toFixed(0)} s in set-based SQL). Rows: ${Object.entries(
      d.counts,
    )
      .map(([k, v]) => `${k.replaceAll('_', ' ')} ${n(v)}`)
      .join(', ')}.`,
    '',
    `The product's adherence rollup worker ${r.settled.leftDirty === 0 ? `settled the import in ${r.settled.seconds.toFixed(0)} s after the product started` : `had ${n(r.settled.leftDirty)} patients still to roll up after ${r.settled.seconds.toFixed(0)} s (the run's limit); it kept working during the measurements`}. Then VACUUM ANALYZE (${r.vacuumSeconds.toFixed(0)} s), as autovacuum would after an import: the machine's shared PostgreSQL runs with autovacuum off.`,
    '',
    `Device load during every measurement below: ${r.generated ? `${n(r.generated.sent)} events sent by ${r.eventsPerSecond ? 'paced' : ''} dispensers over ${(r.generated.elapsedMs / 1000).toFixed(0)} s (target ${n(r.eventsPerSecond)}/s), ${n(r.generated.acked)} acknowledged by the product's broker (${n(r.generated.acked / (r.generated.elapsedMs / 1000))}/s achieved, PUBACK p50 ${ms(r.generated.p50)} ms, p99 ${ms(r.generated.p99)} ms), ${r.generated.failed} failed; ${n(r.storedEvents)} device events stored` : 'none (BENCH_EVENTS_PER_SECOND=0 or the generator failed)'}.`,
    '',
    `Each scenario: ${r.settings.connections} connections, ${r.settings.warmupSeconds} s warm-up, ${r.settings.durationSeconds} s measured, one staff session (admin of both programs); checked 200 first. CPU: the product process (%, of one core) and PostgreSQL over the scenario. Product log written: ${n(r.productLogBytes / 1024)} KiB.`,
    '',
    '### Product vs bare baseline (same run, alternating: a round before and a round after the screens)',
    '',
    '| request | round | product req/s | product p50 / p99 ms | bare req/s | bare p50 / p99 ms | product / bare req/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  r.bare.forEach((round, i) => {
    for (const { product, bare } of round) {
      const a = product.result;
      const b = bare.result;
      lines.push(
        `| ${product.scenario.title} | ${i + 1} | ${a ? n(a.requestsPerSecond) : product.check} | ${a ? `${ms(a.p50)} / ${ms(a.p99)}` : '–'} | ${b ? n(b.requestsPerSecond) : bare.check} | ${b ? `${ms(b.p50)} / ${ms(b.p99)}` : '–'} | ${a && b ? (a.requestsPerSecond / b.requestsPerSecond).toFixed(2) : '–'} |`,
      );
    }
  });
  lines.push(
    '',
    `### Population screens (${within} of ${ok.length} measured within p99 ≤ 50 ms; ✗ marks the others)`,
    '',
    '| screen | request | check request alone, ms (size) | req/s | p50 ms | p97.5 ms | p99 ms | max ms | errors (timeouts) | non-2xx | product CPU % | PostgreSQL CPU % |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.measured.map(row),
  );
  return lines.join('\n');
}

const limit = intEnv('BENCH_TIME_LIMIT_SECONDS', 2_400, 60, 36_000);
const timer = setTimeout(() => void abort(`time limit of ${limit} s exceeded`, 2), limit * 1000);
timer.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void abort(signal, 130));

main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (err: Error) => {
    log(`failed: ${err.stack ?? err.message}`);
    await cleanUp();
    process.exit(1);
  });
