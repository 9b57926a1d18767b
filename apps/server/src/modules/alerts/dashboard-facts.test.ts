import { DASHBOARD_FACTS, type DashboardFact } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { given } from '../../seed/given';
import { testDatabase } from '../../test/harness';
import { dailyFact } from './analytics.queries';

let db: Database;
beforeAll(async () => {
  ({ db } = await testDatabase());
});

/** The facts counted from the tables themselves, as the dashboards counted them before migration 0048. */
const COUNTED: Record<DashboardFact, (programs: number[]) => ReturnType<typeof sql>> = {
  alerts: (p) => sql`SELECT first_at AS at FROM alerts WHERE program_id = ANY(${`{${p}}`}::bigint[])`,
  resolved: (p) =>
    sql`SELECT resolved_at AS at FROM alerts WHERE program_id = ANY(${`{${p}}`}::bigint[]) AND resolved_at IS NOT NULL`,
  readings: (p) =>
    sql`SELECT measured_at AS at FROM measurements WHERE program_id = ANY(${`{${p}}`}::bigint[])`,
  doses: (p) => sql`
    SELECT u.taken_at AS at FROM medication_usages u JOIN patients pt ON pt.id = u.patient_id
    WHERE pt.program_id = ANY(${`{${p}}`}::bigint[]) AND u.kind = 'taken'`,
  enrolments: (p) => sql`SELECT created_at AS at FROM patients WHERE program_id = ANY(${`{${p}}`}::bigint[])`,
};

async function counted(fact: DashboardFact, programIds: number[], zone: string, from: Date, to: Date) {
  const res = await db.execute<{ date: string; value: number }>(sql`
    SELECT to_char((at AT TIME ZONE ${zone})::date, 'YYYY-MM-DD') AS date, count(*)::int AS value
    FROM (${COUNTED[fact](programIds)}) x WHERE at >= ${from.toISOString()} AND at < ${to.toISOString()}
    GROUP BY 1 ORDER BY 1`);
  return res.rows;
}

/** Local midnight of a date in a zone, as the dashboards' period() gives it. */
async function midnight(date: string, zone: string): Promise<Date> {
  const res = await db.execute<{ at: string }>(sql`SELECT (${date}::timestamp AT TIME ZONE ${zone}) AS at`);
  return new Date(res.rows[0]!.at);
}

/**
 * The dashboards read quarter-hour counts kept by triggers (ADR 066). Whatever is written, moved or deleted,
 * every day of every zone must equal what counting the tables gives, zones of 30 and 45 minutes included.
 */
describe('the dashboards’ quarter-hour counts', () => {
  it('equal the tables’ own counts after inserts, updates, moves and deletes, in every zone', async () => {
    const g = given(db);
    const [a, b] = [(await g.program()).id, (await g.program()).id];
    // Moments around local midnights of several zones (Kathmandu +05:45, Adelaide +10:30/+09:30, New York).
    const moments = [
      '2026-03-07T18:14:59Z',
      '2026-03-07T18:15:00Z',
      '2026-03-07T18:29:59Z',
      '2026-03-08T04:59:59Z',
      '2026-03-08T05:00:00Z',
      '2026-03-08T07:00:00Z',
      '2026-03-08T13:29:59Z',
      '2026-03-08T13:30:00Z',
      '2026-03-09T23:59:59Z',
    ];
    const patients = [];
    for (let i = 0; i < 4; i++) patients.push(await g.patient({ programId: i < 3 ? a : b }));
    await db.execute(sql`UPDATE patients SET created_at = ${moments[3]!} WHERE id = ${patients[0]!.id}`);
    for (const [i, p] of patients.entries()) {
      const regimen = await g.regimen({ patientId: p.id, programId: i < 3 ? a : b, times: ['08:00'] });
      await g.doses({ patientId: p.id, regimenId: regimen.id, at: moments });
      await g.doses({ patientId: p.id, regimenId: regimen.id, at: moments.slice(0, 2), kind: 'skipped' });
      await db.execute(sql`
        INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
        SELECT ${p.id}, ${i < 3 ? a : b}, 'pulse', 70, 'bpm', t FROM unnest(${`{${moments}}`}::timestamptz[]) t`);
      await db.execute(sql`
        INSERT INTO alerts (program_id, patient_id, type, first_at, last_at, summary, reason, condition_key)
        SELECT ${i < 3 ? a : b}, ${p.id}, 'pulse_high', t, t, 'Pulse high', '{}'::jsonb, t::text
        FROM unnest(${`{${moments}}`}::timestamptz[]) t`);
    }
    // Writes the dashboards must follow: alerts resolved (and one reopened), a dose's kind and time changed,
    // readings deleted, a patient moved to the other program, another deleted.
    await db.execute(sql`
      UPDATE alerts SET status = 'resolved', resolved_at = first_at + interval '20 minutes'
      WHERE patient_id = ${patients[1]!.id}`);
    await db.execute(sql`
      UPDATE alerts SET status = 'open', resolved_at = NULL
      WHERE patient_id = ${patients[1]!.id} AND first_at = ${moments[0]!}`);
    await db.execute(sql`
      UPDATE medication_usages SET kind = 'skipped' WHERE patient_id = ${patients[2]!.id} AND taken_at = ${moments[4]!}`);
    await db.execute(sql`
      UPDATE medication_usages SET taken_at = taken_at + interval '1 day'
      WHERE patient_id = ${patients[2]!.id} AND taken_at = ${moments[5]!}`);
    await db.execute(
      sql`DELETE FROM measurements WHERE patient_id = ${patients[2]!.id} AND measured_at < ${moments[4]!}`,
    );
    await db.execute(sql`UPDATE patients SET program_id = ${b} WHERE id = ${patients[1]!.id}`);
    await db.execute(sql`DELETE FROM patients WHERE id = ${patients[2]!.id}`);

    for (const zone of ['UTC', 'Asia/Kathmandu', 'Australia/Adelaide', 'America/New_York']) {
      const from = await midnight('2026-03-06', zone);
      const to = await midnight('2026-03-12', zone);
      for (const fact of DASHBOARD_FACTS)
        for (const programIds of [[a], [b], [a, b]]) {
          const kept = (await dailyFact(db, fact, { programIds, from, to, zone })).filter(
            (d) => d.value !== 0,
          );
          expect(kept, `${fact} ${zone} ${programIds}`).toEqual(
            await counted(fact, programIds, zone, from, to),
          );
        }
    }
    // Nothing is left behind for rows that are gone: no bucket holds a negative count.
    const negative = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM dashboard_fact_buckets WHERE n < 0`,
    );
    expect(negative.rows[0]!.n).toBe(0);
  });
});
