/**
 * The alert sweep at scale (issue 27 §3): `npm run sweep -w bench`. A 100,000-patient program (the patients
 * list's dataset) in five time zones, a fifth of them with a daily regimen and 30 days of dose events, a
 * tenth with a blood-pressure cuff, written in SQL. The sweep of the alert engine runs in the bench process
 * as it runs in the product (the API's process with `ROLE=all`), while a timer measures how long the event
 * loop is held (what every API request of the process waits behind). Measured: the first sweep after a start
 * (every patient classified, every alert opened), a sweep with nothing changed (the steady state of a
 * minute), and a sweep after 1 % of the patients took a dose. Rewrites the `sweep` block of bench/RESULTS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { createRollupJob } from '../apps/server/src/modules/adherence/rollup.job';
import { openBenchDatabase } from './database';
import { generateDataset } from './dataset';
import { writeBlock } from './report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const PATIENTS = Number(process.env.SWEEP_PATIENTS ?? 100_000);
const DAYS = 30;
const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/Berlin',
];
const log = (line: string) => process.stdout.write(`[sweep] ${line}\n`);
const n = (v: number) => Math.round(v).toLocaleString('en-US');

type Db = Awaited<ReturnType<typeof openBenchDatabase>>['db'];

/** A fifth of the program with a daily regimen and 30 days of doses; a tenth with a BP cuff and readings. */
async function addHistory(db: Db, programId: number) {
  const zones = `{${ZONES.join(',')}}`;
  await db.execute(sql`
    UPDATE patients SET time_zone = (${zones}::text[])[1 + id % ${ZONES.length}] WHERE program_id = ${programId}`);
  await db.execute(sql`
    INSERT INTO regimens (patient_id, program_id, name, times, lockout_time, unlock_before, scheduled_at)
    SELECT id, program_id, 'Bench regimen',
           CASE id % 3 WHEN 0 THEN '{08:00}'::text[] WHEN 1 THEN '{08:00,20:00}'::text[]
                ELSE '{07:00,13:00,19:00}'::text[] END,
           120, 30, date_trunc('day', now()) - make_interval(days => ${DAYS + 1})
    FROM patients WHERE program_id = ${programId} AND id % 5 = 0 ORDER BY id`);
  await db.execute(sql`
    INSERT INTO medication_usages (patient_id, regimen_id, taken_at, kind, source)
    SELECT r.patient_id, r.id, e.at, e.kind, 'dispenser'
    FROM regimens r
    JOIN patients p ON p.id = r.patient_id
    CROSS JOIN generate_series(1, ${DAYS}) AS d(back)
    CROSS JOIN unnest(r.times) AS t(time)
    CROSS JOIN LATERAL (SELECT abs(hashtext(r.id || ':' || d.back || ':' || t.time)) % 1000 AS h) x
    CROSS JOIN LATERAL (
      SELECT ((current_date - d.back + 1) + t.time::time) AT TIME ZONE p.time_zone AS due
    ) s
    CROSS JOIN LATERAL (VALUES
      (CASE WHEN x.h < 700 THEN s.due + make_interval(mins => (x.h % 80) - 20)
            WHEN x.h < 820 THEN s.due + make_interval(mins => 61 + x.h % 55)
            WHEN x.h < 850 THEN s.due END,
       CASE WHEN x.h BETWEEN 820 AND 849 THEN 'skipped' ELSE 'taken' END)
    ) AS e(at, kind)
    WHERE p.program_id = ${programId} AND e.at IS NOT NULL AND e.at < now()`);
  // A tenth with a blood-pressure cuff and a reading a day (the missed-readings and vitals alerts).
  await db.execute(sql`
    INSERT INTO devices (program_id, patient_id, serial, vendor, kind, provisioned_at)
    SELECT program_id, id, 'BP-' || id, 'bench', 'bp_cuff', now() - interval '40 days'
    FROM patients WHERE program_id = ${programId} AND id % 10 = 1`);
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, device_id, type, value, unit, measured_at)
    SELECT d.patient_id, d.program_id, d.id, 'systolic', 110 + (d.id * 7 + g) % 60, 'mmHg', now() - make_interval(days => g, hours => (d.id % 24)::int)
    FROM devices d CROSS JOIN generate_series(0, 6) g
    WHERE d.program_id = ${programId} AND d.kind = 'bp_cuff'`);
  await db.execute(sql`VACUUM (ANALYZE) patients, regimens, medication_usages, devices, measurements`);
  const counts = await db.execute<{ regimens: number; events: number; readings: number }>(sql`
    SELECT (SELECT count(*) FROM regimens WHERE program_id = ${programId})::int AS regimens,
           (SELECT count(*) FROM medication_usages)::int AS events,
           (SELECT count(*) FROM measurements)::int AS readings`);
  return counts.rows[0]!;
}

type Measured = {
  label: string;
  seconds: number;
  cpuSeconds: number;
  loopMaxMs: number;
  loopP99Ms: number;
  verdicts: number;
  changes: number;
  classified: number;
  rssMb: number;
};

async function measure(
  label: string,
  run: () => Promise<{ verdicts: number; changes: number }>,
  stats: () => { adherenceClassified: number },
) {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const report = await run();
  const seconds = (performance.now() - t) / 1000;
  loop.disable();
  const used = process.cpuUsage(cpu);
  const m: Measured = {
    label,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    loopMaxMs: loop.max / 1e6,
    loopP99Ms: loop.percentile(99) / 1e6,
    verdicts: report.verdicts,
    classified: stats().adherenceClassified,
    changes: report.changes,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  };
  log(
    `${label}: ${seconds.toFixed(2)} s, CPU ${m.cpuSeconds.toFixed(2)} s, event loop held up to ${m.loopMaxMs.toFixed(0)} ms (p99 ${m.loopP99Ms.toFixed(0)} ms), ${n(m.verdicts)} verdicts, ${n(m.changes)} changes, ${n(m.classified)} patients classified`,
  );
  return m;
}

async function main() {
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  const bench = await openBenchDatabase(log);
  try {
    const db = bench.db;
    const dataset = await generateDataset(db, { big: PATIENTS, small: 100 }, log);
    const programId = dataset.bigProgramId;
    const t0 = performance.now();
    const counts = await addHistory(db, programId);
    const generated = (performance.now() - t0) / 1000;
    log(
      `${n(counts.regimens)} regimens, ${n(counts.events)} dose events, ${n(counts.readings)} readings in ${generated.toFixed(0)} s`,
    );

    const { app } = await buildApp({
      config: testConfig({ LOG_LEVEL: 'silent', WEB_DIST: path.join(HERE, '.no-web-dist') }),
      db,
    });
    await app.ready();
    const engine = app.alertEngine;
    // The product's rollup job (every 2 s) keeps the adherence rollup current; here it runs to the end first.
    const rollup = createRollupJob({ db });
    const rollAll = async () => {
      const t = performance.now();
      let rolled = 0;
      for (let done = -1; done !== 0; rolled += done) done = await rollup.run({ budgetMs: 600_000 });
      return { rolled, seconds: (performance.now() - t) / 1000 };
    };
    const firstRoll = await rollAll();
    log(`rollup: ${n(firstRoll.rolled)} patients in ${firstRoll.seconds.toFixed(0)} s`);
    // Sweeps are a minute apart; the engine looks back 15 s for rollups committed late (ADR 068).
    const later = () => new Promise((resolve) => setTimeout(resolve, 16_000));
    await later();
    const rows: Measured[] = [];
    rows.push(
      await measure(
        'first sweep after a start (every alert opened)',
        () => engine.sweep(),
        () => engine.stats,
      ),
    );
    await later();
    rows.push(
      await measure(
        'next sweep, nothing changed',
        () => engine.sweep(),
        () => engine.stats,
      ),
    );
    await db.execute(sql`
      INSERT INTO medication_usages (patient_id, regimen_id, taken_at, kind, source)
      SELECT r.patient_id, r.id, now() - interval '1 minute', 'taken', 'dispenser'
      FROM regimens r WHERE r.program_id = ${programId} AND r.patient_id % 100 = 0`);
    await rollAll();
    await later();
    rows.push(
      await measure(
        'sweep after 1 % of the patients took a dose',
        () => engine.sweep(),
        () => engine.stats,
      ),
    );
    await later();
    rows.push(
      await measure(
        'next sweep, nothing changed (again)',
        () => engine.sweep(),
        () => engine.stats,
      ),
    );
    const open = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM alerts WHERE status <> 'resolved'`,
    );
    await app.close();

    const table = [
      '| sweep | wall s | CPU s (bench process) | event loop held, max ms | p99 ms | patients classified | verdicts | changes | RSS MiB |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${r.seconds.toFixed(2)} | ${r.cpuSeconds.toFixed(2)} | ${r.loopMaxMs.toFixed(0)} | ${r.loopP99Ms.toFixed(0)} | ${n(r.classified)} | ${n(r.verdicts)} | ${n(r.changes)} | ${n(r.rssMb)} |`,
      ),
    ];
    const block = [
      `## Sweep run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `- Machine: ${os.cpus().length} cores, Node ${process.version}; 1-min load average ${loadAtStart} before the run`,
      `- Dataset: ${n(PATIENTS)} patients in five zones; ${n(counts.regimens)} with a daily regimen (one to three doses) and ${DAYS} days of dose events (${n(counts.events)}); ${n(counts.readings)} blood-pressure readings of a tenth of the patients; generated in ${generated.toFixed(0)} s`,
      `- The engine's sweep called as its timer calls it, in the bench process (the API's process with \`ROLE=all\`); event-loop delay sampled every 5 ms (\`monitorEventLoopDelay\`): "held" is what a request arriving during the sweep waits at most. ${n(open.rows[0]!.n)} open alerts at the end.`,
      '',
      ...table,
    ].join('\n');
    await writeBlock(RESULTS_FILE, 'sweep', 'npm run sweep -w bench', block);
    log('written to bench/RESULTS.md');
  } finally {
    await bench.dispose();
  }
}

await main();
