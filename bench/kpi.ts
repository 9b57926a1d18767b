/**
 * KPI at scale (issue 8 §3, §4; ADR 046): `npm run kpi -w bench`. A 100,000-patient program (the patients
 * list's dataset: shared factories, fixed faker seed) in five time zones, each patient with a daily regimen
 * of one, two or three doses and 30 days of dose events (on time, late, skipped, missed, now and then a
 * double dose), written in SQL. In one run, through the whole HTTP stack in process (`app.inject`): the
 * program KPI with the rollup still empty (every patient classified live, as every call did before the
 * rollup: the baseline), the rollup job's first pass, the KPI over the rollup (30 days ending today and
 * ending yesterday, the export), the KPI while 1,000 patients' late events are not rolled up yet, and what
 * the rollup's trigger costs a statement writing dose events; beside the plain SQL that counts the same
 * dose events per day (the floor). Rewrites the `kpi` block of bench/RESULTS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authContract, kpiContract, type RouteContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { openBenchDatabase } from './database';
import { BENCH_ADMIN, generateDataset } from './dataset';
import { writeBlock } from './report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const PATIENTS = Number(process.env.KPI_PATIENTS ?? 100_000);
const ROUNDS = Number(process.env.KPI_ROUNDS ?? 10);
const DAYS = 30;
const DAY = 86_400_000;
const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/Berlin',
];
const log = (line: string) => process.stdout.write(`[kpi] ${line}\n`);

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s.at(-1)! };
}
const n = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number) => (v >= 100 ? n(v) : v.toFixed(1));

/** Regimens and 30 days of dose events for every patient of the program, in chunks of 10,000 patients. */
async function addDoses(db: Awaited<ReturnType<typeof openBenchDatabase>>['db'], programId: number) {
  const zones = `{${ZONES.join(',')}}`;
  await db.execute(sql`
    UPDATE patients SET time_zone = (${zones}::text[])[1 + id % ${ZONES.length}] WHERE program_id = ${programId}`);
  await db.execute(sql`
    INSERT INTO regimens (patient_id, program_id, name, times, lockout_time, unlock_before, scheduled_at)
    SELECT id, program_id, 'Bench regimen',
           CASE id % 3 WHEN 0 THEN '{08:00}'::text[] WHEN 1 THEN '{08:00,20:00}'::text[]
                ELSE '{07:00,13:00,19:00}'::text[] END,
           120, 30, date_trunc('day', now()) - make_interval(days => ${DAYS + 1})
    FROM patients WHERE program_id = ${programId} ORDER BY id`);
  const bounds = await db.execute<{ lo: number; hi: number }>(
    sql`SELECT min(id)::int AS lo, max(id)::int AS hi FROM patients WHERE program_id = ${programId}`,
  );
  const { lo, hi } = bounds.rows[0]!;
  // A fixed hash of (regimen, day, time) decides each dose's fate, so two runs hold the same rows.
  for (let from = lo; from <= hi; from += 10_000) {
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
        -- 70 % on time, 12 % late, 3 % skipped, 15 % missed; 2 % of the taken ones are taken twice.
        (CASE WHEN x.h < 700 THEN s.due + make_interval(mins => (x.h % 80) - 20)
              WHEN x.h < 820 THEN s.due + make_interval(mins => 61 + x.h % 55)
              WHEN x.h < 850 THEN s.due END,
         CASE WHEN x.h BETWEEN 820 AND 849 THEN 'skipped' ELSE 'taken' END),
        (CASE WHEN x.h < 14 THEN s.due + make_interval(mins => 200 + x.h) END, 'taken')
      ) AS e(at, kind)
      WHERE p.program_id = ${programId} AND r.patient_id BETWEEN ${from} AND ${from + 9_999}
        AND e.at IS NOT NULL AND e.at < now()`);
    log(`  doses of patients ${from}–${Math.min(hi, from + 9_999)}`);
  }
  await db.execute(sql`VACUUM (ANALYZE) patients, regimens, medication_usages`);
  const counts = await db.execute<{ regimens: number; events: number }>(sql`
    SELECT (SELECT count(*) FROM regimens WHERE program_id = ${programId})::int AS regimens,
           (SELECT count(*) FROM medication_usages)::int AS events`);
  return counts.rows[0]!;
}

async function main() {
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  const started = performance.now();
  const bench = await openBenchDatabase(log);
  try {
    const db = bench.db;
    log(`generating ${PATIENTS} patients`);
    const dataset = await generateDataset(db, { big: PATIENTS, small: 100 }, log);
    const programId = dataset.bigProgramId;
    const t0 = performance.now();
    const counts = await addDoses(db, programId);
    log(
      `${n(counts.regimens)} regimens, ${n(counts.events)} dose events in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    const { app } = await buildApp({
      config: testConfig({ LOG_LEVEL: 'silent', WEB_DIST: path.join(HERE, '.no-web-dist') }),
      db,
    });
    await app.ready();
    // A fresh token before each call: a slow call must not outlive the access token of the next.
    const headers = async () => {
      const signIn = await app.inject({
        method: 'POST',
        url: authContract.signIn.path,
        payload: { email: BENCH_ADMIN.email, password: BENCH_ADMIN.password },
      });
      return { authorization: `Bearer ${(signIn.json() as { access_token: string }).access_token}` };
    };
    // The KPI's dates are the default display zone's (New York): today and yesterday there.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONES[0] }).format(new Date());
    const shift = (date: string, days: number) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
    const ranges = {
      toToday: { start: shift(today, -(DAYS - 1)), end: today },
      toYesterday: { start: shift(today, -DAYS), end: shift(today, -1) },
    };

    const floor = async () => {
      const t = performance.now();
      await db.$client.query(
        `SELECT (u.taken_at AT TIME ZONE p.time_zone)::date AS day, u.kind, count(*)
         FROM medication_usages u JOIN patients p ON p.id = u.patient_id
         WHERE p.program_id = $1 AND u.taken_at >= $2 AND u.taken_at < $3
         GROUP BY 1, 2`,
        [programId, new Date(Date.parse(ranges.toToday.start) - DAY), new Date(Date.now() + DAY)],
      );
      return performance.now() - t;
    };
    const timeCall = async (
      contract: RouteContract,
      params: Record<string, number | string>,
      rounds: number,
    ) => {
      const target = routeUrl(contract, params);
      const samples: number[] = [];
      let status = 0;
      let bytes = 0;
      let body = '';
      for (let i = 0; i < rounds; i++) {
        const auth = await headers();
        const t = performance.now();
        const res = await app.inject({ method: 'GET', url: target, headers: auth });
        samples.push(performance.now() - t);
        status = res.statusCode;
        bytes = res.rawPayload.length;
        body = res.body;
      }
      return { target, status, bytes, body, ...stats(samples) };
    };

    const floorSamples: number[] = [];
    for (let i = 0; i < 3; i++) floorSamples.push(await floor());
    const f = stats(floorSamples);
    log(`SQL floor: p50 ${ms(f.p50)} ms`);

    type Timed = Awaited<ReturnType<typeof timeCall>>;
    const rows: string[] = [];
    const row = (label: string, r: Timed, baseline: number) => {
      rows.push(
        `| ${label} | \`GET ${r.target}\` | ${r.status} | ${ms(r.p50)} | ${ms(r.min)} | ${ms(r.max)} | ${(r.p50 / f.p50).toFixed(2)} | ${(r.p50 / baseline).toFixed(4)} |`,
      );
      log(`${label}: p50 ${ms(r.p50)} ms (HTTP ${r.status})`);
    };
    const dosesOf = (r: Timed) => (JSON.parse(r.body) as { doses: Record<string, number> }).doses;
    const figures = (r: Timed) => {
      const k = JSON.parse(r.body) as {
        doses: unknown;
        adherence_bands: unknown;
        daily: unknown;
        patients: unknown;
      };
      return JSON.stringify([k.doses, k.adherence_bands, k.daily, k.patients]);
    };
    const program = (range: { start: string; end: string }) => ({ programId, ...range });

    // 1. Before the rollup: nothing rolled up yet, so the KPI classifies every patient live (one call each).
    const once = ROUNDS;
    const liveToday = await timeCall(kpiContract.program, program(ranges.toToday), 1);
    const liveYesterday = await timeCall(kpiContract.program, program(ranges.toYesterday), 1);
    const baseline = liveToday.p50;
    row(
      'rollup empty: every patient classified live (as before the rollup), 30 days ending today',
      liveToday,
      baseline,
    );
    row('rollup empty, 30 days ending yesterday', liveYesterday, baseline);

    // 2. The job's first pass over every patient (what a deployment does once, in the background).
    let t = performance.now();
    let rolled = 0;
    for (let pass = app.adherenceRollup.run({ budgetMs: 3_600_000 }); ; ) {
      const done = await pass;
      rolled += done;
      if (done === 0) break;
      pass = app.adherenceRollup.run({ budgetMs: 3_600_000 });
    }
    const backfill = (performance.now() - t) / 1000;
    log(`rollup job, first pass: ${n(rolled)} patients in ${backfill.toFixed(0)} s`);
    const sizes = await db.execute<{ days: number; pending: number; mb: number }>(sql`
      SELECT (SELECT count(*) FROM adherence_days)::int AS days, (SELECT count(*) FROM adherence_pending)::int AS pending,
        round((pg_total_relation_size('adherence_days') + pg_total_relation_size('adherence_pending')
          + pg_total_relation_size('adherence_program_days')) / 1048576.0)::int AS mb`);
    await db.execute(
      sql`VACUUM (ANALYZE) adherence_days, adherence_pending, adherence_program_days, adherence_rollup_state`,
    );

    // 3. The KPI over the rollup.
    const rolledToday = await timeCall(kpiContract.program, program(ranges.toToday), once);
    const rolledYesterday = await timeCall(kpiContract.program, program(ranges.toYesterday), once);
    const exported = await timeCall(kpiContract.export, program(ranges.toToday), once);
    row('from the rollup, 30 days ending today', rolledToday, baseline);
    row('from the rollup, 30 days ending yesterday', rolledYesterday, baseline);
    row('from the rollup, export (.xlsx), 30 days ending today', exported, baseline);
    const same = figures(rolledYesterday) === figures(liveYesterday);
    log(`check ${same ? 'ok   ' : 'WRONG'}: the closed range's KPI from the rollup equals the live one`);

    // 4. Late device events for 1,000 patients (three days back): read live until the job has run again.
    await db.execute(sql`
      INSERT INTO medication_usages (patient_id, regimen_id, taken_at, kind, source)
      SELECT r.patient_id, r.id, now() - interval '3 days', 'taken', 'dispenser'
      FROM regimens r WHERE r.program_id = ${programId} ORDER BY r.patient_id LIMIT 1000`);
    const staleToday = await timeCall(kpiContract.program, program(ranges.toToday), once);
    row(
      '1,000 patients with late events not rolled up yet (read live), 30 days ending today',
      staleToday,
      baseline,
    );
    t = performance.now();
    const again = await app.adherenceRollup.run({ budgetMs: 3_600_000 });
    const catchUp = performance.now() - t;
    log(`rollup job, ${n(again)} stale patients in ${ms(catchUp)} ms`);

    // 5. What the triggers cost writers: 50,000 dose events in one statement, with and without them.
    const insertCost = async (withTriggers: boolean) => {
      const client = await db.$client.connect();
      try {
        await client.query('BEGIN');
        if (!withTriggers) await client.query('ALTER TABLE medication_usages DISABLE TRIGGER USER');
        const t1 = performance.now();
        await client.query(
          `INSERT INTO medication_usages (patient_id, regimen_id, taken_at, kind, source)
           SELECT r.patient_id, r.id, now() - make_interval(mins => (g * 7) % 40000), 'taken', 'dispenser'
           FROM generate_series(1, 50000) g
           JOIN regimens r ON r.id = (SELECT min(id) FROM regimens) + g % (SELECT count(*) FROM regimens)`,
        );
        const spent = performance.now() - t1;
        await client.query('ROLLBACK');
        return spent;
      } finally {
        client.release();
      }
    };
    const plain: number[] = [];
    const triggered: number[] = [];
    for (let i = 0; i < 3; i++) {
      plain.push(await insertCost(false));
      triggered.push(await insertCost(true));
    }
    const write = { plain: stats(plain).p50, triggered: stats(triggered).p50 };
    log(`50,000 dose events: ${ms(write.plain)} ms without the triggers, ${ms(write.triggered)} ms with`);

    await app.close();
    const d = dosesOf(rolledToday);
    const lines = [
      `## Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; 1-min load average ${loadAtStart} before the run (the machine is shared: other work skews the figures)`,
      `- Database: ${bench.description}`,
      `- Data: ${n(PATIENTS)} patients of one program (the patients list's dataset) in ${ZONES.length} time zones, each with one daily regimen of 1, 2 or 3 doses (lockout 120 min, unlock 30 min): ${n(counts.regimens)} regimens, ${n(counts.events)} dose events over ${DAYS} days (70 % on time, 12 % late, 3 % skipped, 15 % missed, 2 % double doses), written in SQL`,
      `- KPI of the 30 days ending today: due ${n(d.due!)}, on time ${n(d.on_time!)}, late ${n(d.late!)}, missed ${n(d.missed!)}, skipped ${n(d.skipped!)}, pending ${n(d.pending!)}, extra ${n(d.extra!)}`,
      `- Method: the rollup-empty calls once each (every patient classified live, what every call did before the rollup), the others ${once} times in a row, through the whole HTTP stack in process (\`app.inject\`); the SQL floor counts the same dose events per local day and kind, without classifying them: p50 ${ms(f.p50)} ms`,
      `- Check: the KPI of the closed range (30 days ending yesterday) from the rollup ${same ? 'equals' : '**differs from**'} the live one (doses, bands, daily series, patients)`,
      `- Rollup job, first pass over every patient (${DAYS + 3} days each, in the background): ${n(rolled)} patients in ${backfill.toFixed(0)} s (${n(rolled / backfill)} patients/s); ${n(sizes.rows[0]!.days)} day rows, ${n(sizes.rows[0]!.pending)} pending doses, ${n(sizes.rows[0]!.mb)} MiB with indexes. After 1,000 patients' late events: ${n(again)} patients rolled up again in ${ms(catchUp)} ms`,
      `- Writers: 50,000 dose events in one statement take ${ms(write.triggered)} ms with the rollup's trigger, ${ms(write.plain)} ms without (p50 of 3, rolled back): ${(write.triggered / write.plain).toFixed(2)}×`,
      `- Command: \`npm run kpi -w bench\` (knobs \`KPI_PATIENTS\`, \`KPI_ROUNDS\`); whole run ${((performance.now() - started) / 1000).toFixed(0)} s`,
      '',
      '| call | request | status | p50 ms | min ms | max ms | p50 / SQL floor | p50 / rollup empty |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
    ];
    await writeBlock(RESULTS_FILE, 'kpi', 'npm run kpi -w bench', lines.join('\n'));
    log('written to bench/RESULTS.md');
  } finally {
    await bench.dispose();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`kpi bench failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
