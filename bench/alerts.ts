/**
 * The alert bench (issue 10 §4): `npm run alerts -w bench`. On one scratch database, in one run:
 * 1. evaluation throughput: 10,000 patients with blood-pressure readings of the last hour (a third of
 *    them out of range) are evaluated the way the engine does after ingest batches (chunks of 500
 *    patients: settings, readings, verdicts, one statement that opens, counts or resolves alerts), beside
 *    a bare floor: the plain statements that read the same readings and insert the same alerts;
 * 2. the alert tiles of a 100,000-patient program with 30,000 unresolved alerts (some snoozed, some
 *    hidden) and 200,000 resolved ones, through the whole HTTP stack in process (GET alerts/groups), and
 *    the first page of a type's list, beside the bare GROUP BY over the same rows.
 * Rewrites the `alerts` block of bench/RESULTS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALERT_TYPES, alertsContract, authContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { given } from '../apps/server/src/seed/given';
import { openBenchDatabase } from './database';
import { writeBlock } from './report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const EVAL_PATIENTS = Number(process.env.ALERT_EVAL_PATIENTS ?? 10_000);
const BOARD_PATIENTS = Number(process.env.ALERT_BOARD_PATIENTS ?? 100_000);
const ROUNDS = Number(process.env.ALERT_ROUNDS ?? 40);
const log = (line: string) => process.stdout.write(`[alerts] ${line}\n`);

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
  return { p50: at(0.5), p95: at(0.95) };
}
const ms = (v: number) => `${v.toFixed(1)} ms`;
const n = (v: number) => Math.round(v).toLocaleString('en-US');

async function main() {
  const machine = `${os.cpus().length} cores, Node ${process.version}; 1-min load average ${os.loadavg()[0]!.toFixed(1)} before the run`;
  const bench = await openBenchDatabase(log);
  try {
    const db = bench.db;
    const g = given(db);
    const password = 'CareDeck-bench-2026';
    const evalProgram = await g.program();
    const boardProgram = await g.program();
    const admin = await g.admin({
      hipaaConsented: true,
      password,
      programRoles: [
        { programId: evalProgram.id, role: 'admin' },
        { programId: boardProgram.id, role: 'admin' },
      ],
    });

    // 1. Evaluation: patients with six readings each in the last hour.
    await db.execute(sql`
      INSERT INTO patients (program_id, first_name, last_name, time_zone)
      SELECT ${evalProgram.id}, 'Eval', 'Patient ' || i, 'America/New_York' FROM generate_series(1, ${EVAL_PATIENTS}) i`);
    await db.execute(sql`
      INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
      SELECT p.id, p.program_id, t.type,
             CASE WHEN p.id % 3 = 0 THEN (CASE t.type WHEN 'systolic' THEN 172 ELSE 104 END)
                  ELSE (CASE t.type WHEN 'systolic' THEN 124 ELSE 79 END) END + (k % 5),
             'mmHg', now() - make_interval(mins => k * 10)
      FROM patients p CROSS JOIN (VALUES ('systolic'), ('diastolic')) t(type) CROSS JOIN generate_series(0, 5) k
      WHERE p.program_id = ${evalProgram.id}`);
    const evalIds = (
      await db.execute<{ id: number }>(
        sql`SELECT id FROM patients WHERE program_id = ${evalProgram.id} ORDER BY id`,
      )
    ).rows.map((r) => r.id);

    // 2. The board: a large program with many alerts.
    await db.execute(sql`
      INSERT INTO patients (program_id, first_name, last_name)
      SELECT ${boardProgram.id}, 'Board', 'Patient ' || i FROM generate_series(1, ${BOARD_PATIENTS}) i`);
    const types = `{${ALERT_TYPES.join(',')}}`;
    await db.execute(sql`
      INSERT INTO alerts (program_id, patient_id, type, status, first_at, last_at, summary, reason, hidden, occurrences)
      SELECT p.program_id, p.id, (${types}::text[])[1 + (p.id % 17)],
             CASE WHEN p.id % 4 = 0 THEN 'acknowledged' ELSE 'open' END,
             now() - make_interval(hours => (p.id % 200)::int), now() - make_interval(mins => (p.id % 600)::int),
             'Systolic 172 ≥ 160', '{}'::jsonb, p.id % 50 = 0, 1 + p.id % 3
      FROM patients p WHERE p.program_id = ${boardProgram.id} AND p.id % 10 < 3`);
    await db.execute(sql`
      INSERT INTO alerts (program_id, patient_id, type, condition_key, status, first_at, last_at, summary, reason, resolved_at, resolution)
      SELECT p.program_id, p.id, (${types}::text[])[1 + (k % 17)], 'r' || k, 'resolved',
             now() - make_interval(days => k), now() - make_interval(days => k), 'Resolved', '{}'::jsonb,
             now() - make_interval(days => k), 'auto'
      FROM patients p CROSS JOIN generate_series(1, 2) k WHERE p.program_id = ${boardProgram.id}`);
    await db.execute(sql`
      INSERT INTO alert_snoozes (patient_id, type, condition_key, until)
      SELECT patient_id, type, condition_key, now() + interval '4 hours' FROM alerts
      WHERE program_id = ${boardProgram.id} AND status <> 'resolved' AND patient_id % 7 = 0`);
    await db.$client.query('VACUUM ANALYZE');
    const counts = (
      await db.execute<{ open: number; resolved: number; snoozed: number }>(sql`
        SELECT count(*) FILTER (WHERE status <> 'resolved')::int AS open, count(*) FILTER (WHERE status = 'resolved')::int AS resolved,
               (SELECT count(*)::int FROM alert_snoozes) AS snoozed
        FROM alerts WHERE program_id = ${boardProgram.id}`)
    ).rows[0]!;
    log(
      `board: ${n(BOARD_PATIENTS)} patients, ${n(counts.open)} unresolved alerts, ${n(counts.resolved)} resolved, ${n(counts.snoozed)} snoozed`,
    );

    const { app } = await buildApp({
      config: testConfig({ LOG_LEVEL: 'silent', WEB_DIST: path.join(HERE, '.no-web-dist') }),
      db,
    });
    await app.ready();

    // Floor of the evaluation: read the same readings, write the same alerts, in plain statements.
    const floorStart = performance.now();
    for (let i = 0; i < evalIds.length; i += 500) {
      const chunk = `{${evalIds.slice(i, i + 500).join(',')}}`;
      await db.$client.query(
        `SELECT patient_id, type, avg(value) FROM measurements WHERE patient_id = ANY($1::bigint[])
           AND type IN ('systolic', 'diastolic') AND measured_at > now() - interval '1 hour' GROUP BY patient_id, type`,
        [chunk],
      );
      await db.$client.query(
        `INSERT INTO alerts (program_id, patient_id, type, condition_key, first_at, last_at, summary, reason)
         SELECT program_id, id, 'bench_floor', '', now(), now(), 'x', '{}'::jsonb FROM patients
         WHERE id = ANY($1::bigint[]) AND id % 3 = 0`,
        [chunk],
      );
    }
    const floorMs = performance.now() - floorStart;
    await db.execute(sql`DELETE FROM alerts WHERE type = 'bench_floor'`);

    // The engine, as after ingest batches: chunks of 500 dirty patients.
    const engineStart = performance.now();
    let changes = 0;
    for (let i = 0; i < evalIds.length; i += 500)
      changes += (await app.alertEngine.evaluate(evalIds.slice(i, i + 500))).length;
    const engineMs = performance.now() - engineStart;
    const opened = Number(
      (
        await db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM alerts WHERE program_id = ${evalProgram.id}`,
        )
      ).rows[0]!.n,
    );
    // Again: every condition already holds, nothing new to count (the steady state between readings).
    const againStart = performance.now();
    for (let i = 0; i < evalIds.length; i += 500) await app.alertEngine.evaluate(evalIds.slice(i, i + 500));
    const againMs = performance.now() - againStart;
    log(
      `evaluation: ${n(evalIds.length / (engineMs / 1000))} patients/s (floor ${n(evalIds.length / (floorMs / 1000))}), ${opened} alerts opened, ${changes} changes`,
    );

    const signIn = await app.inject({
      method: 'POST',
      url: authContract.signIn.path,
      payload: { email: admin.email, password },
    });
    const headers = { authorization: `Bearer ${(signIn.json() as { access_token: string }).access_token}` };
    const time = async (fn: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < ROUNDS + 5; i++) {
        const t0 = performance.now();
        await fn();
        if (i >= 5) samples.push(performance.now() - t0);
      }
      return stats(samples);
    };
    const tilesUrl = routeUrl(alertsContract.groups, undefined, { program_id: String(boardProgram.id) });
    const tilesStatus = (await app.inject({ method: 'GET', url: tilesUrl, headers })).statusCode;
    const tiles = await time(() => app.inject({ method: 'GET', url: tilesUrl, headers }));
    const listUrl = routeUrl(
      alertsContract.list,
      { type: ALERT_TYPES[1], period: 'week', cohort: 'all' },
      { program_id: String(boardProgram.id) },
    );
    const list = await time(() => app.inject({ method: 'GET', url: listUrl, headers }));
    const bare = await time(() =>
      db.$client.query(
        `SELECT type, count(*), count(DISTINCT patient_id) FROM alerts WHERE program_id = $1 AND status <> 'resolved' GROUP BY type`,
        [boardProgram.id],
      ),
    );
    await app.close();
    log(`tiles p50 ${ms(tiles.p50)} (bare ${ms(bare.p50)}), list p50 ${ms(list.p50)}`);

    const block = [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}, ${bench.description}, one run.`,
      '',
      `**Evaluation** (${n(evalIds.length)} patients, six systolic and diastolic readings each in the last hour, a third out of range; chunks of 500 patients as after ingest batches):`,
      '',
      '| | time | patients/s | ratio |',
      '|---|---|---|---|',
      `| bare floor: read the readings (GROUP BY) and insert the alerts, plain statements | ${ms(floorMs)} | ${n(evalIds.length / (floorMs / 1000))} | 1.00 |`,
      `| CareDeck engine, first pass (settings, readings of each window, verdicts, open ${n(opened)} alerts with history) | ${ms(engineMs)} | ${n(evalIds.length / (engineMs / 1000))} | ${(floorMs / engineMs).toFixed(2)} |`,
      `| CareDeck engine, again with nothing new (the steady state) | ${ms(againMs)} | ${n(evalIds.length / (againMs / 1000))} | ${(floorMs / againMs).toFixed(2)} |`,
      '',
      `At the ingestion bench's rate (24,000 events/s, 30 % of them readings: at most 7,200 patients with a new reading each second, when every reading is another patient's) the engine ${evalIds.length / (engineMs / 1000) >= 7200 ? 'keeps up' : 'falls behind'}: ${n(evalIds.length / (engineMs / 1000))} patients/s on a first pass. Readings gather for 200 ms before an evaluation, so a patient sending several readings is evaluated once.`,
      '',
      `**Board** (${n(BOARD_PATIENTS)} patients, ${n(counts.open)} unresolved alerts of 17 types, ${n(counts.resolved)} resolved, ${n(counts.snoozed)} snoozed conditions; ${ROUNDS} calls each, through the whole HTTP stack in process):`,
      '',
      '| call | p50 | p95 |',
      '|---|---|---|',
      `| bare GROUP BY over the unresolved alerts (the floor) | ${ms(bare.p50)} | ${ms(bare.p95)} |`,
      `| GET alerts/groups (tiles: counts, patients, new and snoozed per type; status ${tilesStatus}) | ${ms(tiles.p50)} | ${ms(tiles.p95)} |`,
      `| GET alerts/{type}/week/all, page 1 of 25 (snoozed and hidden left out, total in the same statement) | ${ms(list.p50)} | ${ms(list.p95)} |`,
      '',
      `Tiles / bare: ${(tiles.p50 / bare.p50).toFixed(2)}× the floor's time (the snooze check per alert and the HTTP stack).`,
    ].join('\n');
    await writeBlock(RESULTS_FILE, 'alerts', 'npm run alerts -w bench', block);
    log('bench/RESULTS.md updated');
  } finally {
    await bench.dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
