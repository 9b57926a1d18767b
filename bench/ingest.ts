/**
 * The ingestion bench (issue 8, DESIGN §5): `npm run ingest -w bench`. In one run, on one scratch
 * database, the same device load (20 devices × 100 QoS 1 events in flight, from a separate generator
 * process) goes to:
 * 1. Mosquitto on 127.0.0.1:1883 when one answers: the generator's own ceiling (Mosquitto acknowledges
 *    without storing anything);
 * 2. the bare baseline (aedes + unnest batches, PUBACK after commit; bench/ingest-baseline.ts);
 * 3. CareDeck itself (`apps/server/src/main.ts`, the embedded broker and the device gateway: device
 *    sign-in, validation, the event log, doses, measurements and device state);
 * then a crash test: CareDeck is killed with SIGKILL mid-stream, every acknowledged event must be stored,
 * and after a restart the devices resend what was not acknowledged, stored exactly once.
 * Rewrites the `ingest` block of bench/RESULTS.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { given } from '../apps/server/src/seed/given';
import { databaseCpuMs, openBenchDatabase } from './database';
import type { GeneratorConfig, GeneratorResult } from './ingest-generator';
import {
  answers,
  freePort,
  mosquittoBinary,
  processCpuMs,
  registerDispensers,
  startMosquitto,
  waitForLine,
} from './processes';
import { writeBlock } from './report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const DURATION_MS = Number(process.env.INGEST_DURATION ?? 10) * 1000;
const DEVICES = Number(process.env.INGEST_DEVICES ?? 20);
const INFLIGHT = Number(process.env.INGEST_INFLIGHT ?? 100);
/**
 * Knobs for investigating rather than recording: `INGEST_QUICK=1` runs only the bare baseline and CareDeck
 * (alternating `INGEST_ROUNDS` times, default 1), prints the ratios and writes nothing to RESULTS.md;
 * `INGEST_PROFILE=<dir>` writes a CPU profile of each CareDeck server run there (`--cpu-prof`);
 * `INGEST_SERVER_ENV='{"ADHERENCE_ROLLUP_MS":"0"}'` adds settings to the CareDeck server (A/B runs).
 */
const QUICK = process.env.INGEST_QUICK === '1';
const ROUNDS = Math.max(1, Number(process.env.INGEST_ROUNDS ?? 1));
const PROFILE_DIR = process.env.INGEST_PROFILE ?? '';
const SERVER_ENV = JSON.parse(process.env.INGEST_SERVER_ENV ?? '{}') as NodeJS.ProcessEnv;

const started = performance.now();
const log = (line: string) =>
  process.stdout.write(
    `[ingest ${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}\n`,
  );

function tsx(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const waitFor = (child: ChildProcess, pattern: RegExp, timeoutMs = 60_000) =>
  waitForLine(child, pattern, timeoutMs);
const cpuMsOf = (pid: number) => processCpuMs(pid);

async function generate(config: GeneratorConfig): Promise<GeneratorResult> {
  const child = tsx(path.join(HERE, 'ingest-generator.ts'), [JSON.stringify(config)]);
  const line = await waitFor(child, /\{"sent".*\}\n/, DURATION_MS + 120_000);
  return JSON.parse(line[0]) as GeneratorResult;
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

type Row = {
  pipeline: string;
  r: GeneratorResult;
  stored: number | null;
  serverCpuMs: number | null;
  dbCpuMs: number | null;
};

async function main() {
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; 1-min load average ${os.loadavg()[0]!.toFixed(1)} before the run`;
  const bench = await openBenchDatabase(log);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'caredeck-ingest-'));
  const children: ChildProcess[] = [];
  const rows: Row[] = [];
  try {
    const program = await given(bench.db).program();
    const devices = await registerDispensers(bench.db, program.id, DEVICES);
    const load = {
      devices: devices.map(({ serial, secret }) => ({ serial, secret })),
      durationMs: DURATION_MS,
      inflight: INFLIGHT,
    };
    log(`${DEVICES} devices, ${INFLIGHT} events in flight each, ${DURATION_MS / 1000} s per pipeline`);

    if (!QUICK && (await answers(1883))) {
      const r = await generate({ ...load, url: 'mqtt://127.0.0.1:1883', startSeq: 1 });
      rows.push({
        pipeline: 'Mosquitto 127.0.0.1:1883, acknowledges without storing (the generator’s ceiling)',
        r,
        stored: null,
        serverCpuMs: null,
        dbCpuMs: null,
      });
      log(`mosquitto: ${Math.round(r.acked / (r.elapsedMs / 1000))} events/s`);
    }

    const count = async (table: 'bench_raw_events' | 'device_events') =>
      Number(
        (await bench.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.raw(table)}`))
          .rows[0]!.n,
      );
    const mqttPort = await freePort();
    const startServer = async (extra: NodeJS.ProcessEnv = {}, ready = /Device broker \(MQTT\)/) => {
      const server = tsx(
        'apps/server/src/main.ts',
        [],
        {
          DATABASE_URL: bench.url,
          DATA_DIR: dataDir,
          PORT: '0',
          MQTT_PORT: String(mqttPort),
          LOG_LEVEL: 'warn',
          NODE_ENV: 'development',
          REDIS_URL: '',
          MQTT_URL: '',
          DEMO: '',
          ...SERVER_ENV,
          ...extra,
        },
        PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
      );
      children.push(server);
      await waitFor(server, ready);
      return server;
    };
    // The bare baseline and CareDeck, one after the other (rounds alternate them on the same database).
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const startSeq = 1 + round * 1_000_000;
      const basePort = await freePort();
      const baseline = tsx(path.join(HERE, 'ingest-baseline.ts'), [bench.url, String(basePort)]);
      children.push(baseline);
      await waitFor(baseline, /ready/);
      const baseBefore = await count('bench_raw_events').catch(() => 0);
      const baseCpu = cpuMsOf(baseline.pid!);
      const baseDbCpu = await databaseCpuMs(bench.db);
      const br = await generate({ ...load, url: `mqtt://127.0.0.1:${basePort}`, startSeq });
      const baseCpuUsed = cpuMsOf(baseline.pid!) - baseCpu;
      const baseDbCpuUsed = (await databaseCpuMs(bench.db)) - baseDbCpu;
      await stop(baseline);
      const baseStored = (await count('bench_raw_events')) - baseBefore;
      log(`baseline: ${Math.round(br.acked / (br.elapsedMs / 1000))} events/s, stored ${baseStored}`);

      const server = await startServer();
      const cdBefore = await count('device_events');
      const cdCpu = cpuMsOf(server.pid!);
      const cdDbCpu = await databaseCpuMs(bench.db);
      const cr = await generate({ ...load, url: `mqtt://127.0.0.1:${mqttPort}`, startSeq });
      const cdCpuUsed = cpuMsOf(server.pid!) - cdCpu;
      const cdDbCpuUsed = (await databaseCpuMs(bench.db)) - cdDbCpu;
      await stop(server);
      const cdStored = (await count('device_events')) - cdBefore;
      log(`caredeck: ${Math.round(cr.acked / (cr.elapsedMs / 1000))} events/s, stored ${cdStored}`);
      const ratio = cr.acked / cr.elapsedMs / (br.acked / br.elapsedMs);
      ratios.push(ratio);
      log(
        `round ${round + 1}: CareDeck / baseline ${ratio.toFixed(2)}; server CPU µs/event ${((cdCpuUsed * 1000) / Math.max(1, cr.acked)).toFixed(0)} against ${((baseCpuUsed * 1000) / Math.max(1, br.acked)).toFixed(0)}; database CPU µs/event ${((cdDbCpuUsed * 1000) / Math.max(1, cr.acked)).toFixed(0)} against ${((baseDbCpuUsed * 1000) / Math.max(1, br.acked)).toFixed(0)}`,
      );
      if (round === ROUNDS - 1) {
        rows.push({
          pipeline: 'bare baseline: aedes + unnest batches, PUBACK after commit',
          r: br,
          stored: baseStored,
          serverCpuMs: baseCpuUsed,
          dbCpuMs: baseDbCpuUsed,
        });
        rows.push({
          pipeline:
            'CareDeck gateway (embedded broker): sign-in, validation, event log, doses, measurements, device state',
          r: cr,
          stored: cdStored,
          serverCpuMs: cdCpuUsed,
          dbCpuMs: cdDbCpuUsed,
        });
      }
    }
    if (QUICK) {
      log(`ratios: ${ratios.map((r) => r.toFixed(2)).join(', ')} (quick run: RESULTS.md untouched)`);
      return;
    }

    // CareDeck behind an external Mosquitto (MQTT_URL): a broker of our own with production limits.
    let external: { rate: number; acked: number; stored: number; drainMs: number } | null = null;
    const binary = mosquittoBinary();
    if (binary) {
      const { child: mosquitto, url: externalUrl } = await startMosquitto(binary, dataDir);
      children.push(mosquitto);
      const before = Number(
        (await bench.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM device_events`)).rows[0]!.n,
      );
      const viaBroker = await startServer(
        { MQTT_URL: externalUrl, MQTT_PORT: '-1' },
        /subscribed to the external MQTT broker|CareDeck is running/,
      );
      const t0 = performance.now();
      const er = await generate({ ...load, url: externalUrl, startSeq: 5_000_000 });
      let stored = 0;
      for (let i = 0; i < 300; i++) {
        stored =
          Number(
            (await bench.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM device_events`))
              .rows[0]!.n,
          ) - before;
        if (stored >= er.acked) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const totalMs = performance.now() - t0;
      await stop(viaBroker);
      await stop(mosquitto);
      external = {
        rate: Math.round(stored / (totalMs / 1000)),
        acked: er.acked,
        stored,
        drainMs: Math.max(0, totalMs - er.elapsedMs),
      };
      log(`external mosquitto: ${external.rate} events/s stored end to end (${stored} of ${er.acked})`);
    }

    // Crash: SIGKILL mid-stream; nothing acknowledged may be lost; resends are stored once.
    let server = await startServer();
    const ledger = path.join(dataDir, 'ledger.json');
    const crashStart = 10_000_000;
    const crashing = generate({
      ...load,
      durationMs: 8000,
      url: `mqtt://127.0.0.1:${mqttPort}`,
      startSeq: crashStart,
      ledger,
    });
    await new Promise((r) => setTimeout(r, 3000));
    await stop(server, 'SIGKILL');
    await crashing;
    const book = JSON.parse(readFileSync(ledger, 'utf8')) as {
      sent: Record<string, number[]>;
      acked: Record<string, number[]>;
    };
    const storedSeqs = async () => {
      const res = await bench.db.execute<{ serial: string; seqs: number[] }>(sql`
        SELECT d.serial, array_agg(e.seq) AS seqs FROM device_events e JOIN devices d ON d.id = e.device_id
        WHERE e.seq >= ${crashStart} GROUP BY d.serial`);
      return new Map(res.rows.map((r) => [r.serial, new Set(r.seqs.map(Number))]));
    };
    let stored = await storedSeqs();
    let ackedTotal = 0;
    let lost = 0;
    const resend: Record<string, number[]> = {};
    for (const [serial, seqs] of Object.entries(book.acked)) {
      ackedTotal += seqs.length;
      lost += seqs.filter((s) => !stored.get(serial)?.has(s)).length;
    }
    let sentTotal = 0;
    for (const [serial, seqs] of Object.entries(book.sent)) {
      sentTotal += seqs.length;
      const ackedSet = new Set(book.acked[serial] ?? []);
      resend[serial] = seqs.filter((s) => !ackedSet.has(s));
    }
    const storedAtCrash = [...stored.values()].reduce((n, s) => n + s.size, 0);
    const unacked = Object.values(resend).reduce((n, s) => n + s.length, 0);
    server = await startServer();
    const resent = await generate({
      ...load,
      url: `mqtt://127.0.0.1:${mqttPort}`,
      startSeq: crashStart,
      resend,
    });
    await stop(server);
    stored = await storedSeqs();
    const missing = Object.entries(book.sent).reduce(
      (n, [serial, seqs]) => n + seqs.filter((s) => !stored.get(serial)?.has(s)).length,
      0,
    );
    const dupes = Number(
      (
        await bench.db.execute<{ n: number }>(sql`
          SELECT (count(*) - count(DISTINCT (device_id, seq)))::int AS n FROM device_events`)
      ).rows[0]!.n,
    );
    log(
      `crash: sent ${sentTotal}, acked ${ackedTotal}, stored at crash ${storedAtCrash}, lost ${lost}; resent ${unacked} (${resent.acked} acked), missing ${missing}, duplicates ${dupes}`,
    );

    const rate = (r: GeneratorResult) => Math.round(r.acked / (r.elapsedMs / 1000));
    const n = (v: number) => v.toLocaleString('en-US');
    const perEvent = (ms: number | null, events: number) =>
      ms === null || Number.isNaN(ms) ? '–' : ((ms * 1000) / Math.max(1, events)).toFixed(0);
    const base = rows.find((r) => r.pipeline.startsWith('bare'))!;
    const cd = rows.find((r) => r.pipeline.startsWith('CareDeck'))!;
    const lines = [
      `## Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `- Machine: ${machine}`,
      `- Database: ${bench.description}; PostgreSQL on the same machine as the broker, the gateway and the generator`,
      `- Load: ${DEVICES} devices, each one MQTT connection keeping ${INFLIGHT} QoS 1 events in flight, ${DURATION_MS / 1000} s per pipeline, from a separate generator process (bench/ingest-generator.ts); events: 50 % heartbeats, 30 % blood-pressure measurements (3 values), 20 % doses (resolved to the device's regimen)`,
      `- Command: \`npm run ingest -w bench\` (knobs \`INGEST_DURATION\`, \`INGEST_DEVICES\`, \`INGEST_INFLIGHT\`, \`BENCH_DATABASE_URL\`); whole run ${((performance.now() - started) / 1000).toFixed(0)} s`,
      '',
      '| pipeline | events/s acknowledged | p50 ms publish→PUBACK | p99 ms | sent | acknowledged | rows stored | server CPU µs/event | PostgreSQL CPU µs/event |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map(
        (row) =>
          `| ${row.pipeline} | ${n(rate(row.r))} | ${row.r.p50.toFixed(1)} | ${row.r.p99.toFixed(1)} | ${n(row.r.sent)} | ${n(row.r.acked)} | ${row.stored === null ? '–' : n(row.stored)} | ${perEvent(row.serverCpuMs, row.r.acked)} | ${perEvent(row.dbCpuMs, row.r.acked)} |`,
      ),
      '',
      `CareDeck / bare baseline, measured in this run: **${(rate(cd.r) / Math.max(1, rate(base.r))).toFixed(2)}** of the baseline's rate (target: at least 20,000 events/s end to end, aiming for 50,000).`,
      '',
      external
        ? `Through an external Mosquitto (\`MQTT_URL\`; a mosquitto 2 process of the bench with \`max_inflight_messages 0\` and \`max_queued_messages 1000000\`): the devices get their PUBACK from Mosquitto; CareDeck stored ${n(external.stored)} of ${n(external.acked)} events, **${n(external.rate)} events/s end to end** (device publish → committed row), ${(external.drainMs / 1000).toFixed(1)} s after the last publish to drain.`
        : 'No mosquitto binary on this machine: the external-broker run was skipped.',
      '',
      '### Crash test: SIGKILL mid-stream',
      '',
      `- ${n(sentTotal)} events sent in the 3 s before \`kill -9\`; ${n(ackedTotal)} acknowledged; ${n(storedAtCrash)} stored when the process died; **acknowledged but lost: ${lost}**.`,
      `- After a restart the devices resent the ${n(unacked)} events they had no acknowledgement for (${n(resent.acked)} acknowledged); events of the run missing from the log: **${missing}**; duplicate rows: **${dupes}** (the log is keyed by device and sequence number, so a resend of a stored event adds nothing).`,
    ];
    await writeBlock(RESULTS_FILE, 'ingest', 'npm run ingest -w bench', lines.join('\n'));
    log(`written to ${path.relative(ROOT, RESULTS_FILE)}`);
  } finally {
    for (const c of children) await stop(c, 'SIGKILL');
    await bench.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`ingest bench failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
