import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { given } from '../../seed/given';
import { testDatabase } from '../../test/harness';
import { listAlerts, patientCounts, patientSummaries } from './alerts.queries';
import { tiles } from './open-facts.queries';

let db: Database;
beforeAll(async () => {
  ({ db } = await testDatabase());
});

const arr = (ids: number[]) => `{${ids.join(',')}}`;
const snoozed = (a: string) =>
  sql.raw(`EXISTS (SELECT 1 FROM alert_snoozes z WHERE z.patient_id = ${a}.patient_id
  AND z.type = ${a}.type AND z.condition_key = ${a}.condition_key AND z.until > now())`);

/** What the alert tiles counted from the alerts themselves before migration 0049. */
async function countedTiles(programIds: number[]) {
  const res = await db.execute<{
    type: string;
    count: number;
    patients: number;
    unacknowledged: number;
    snoozed: number;
  }>(sql`
    SELECT a.type,
           count(*) FILTER (WHERE NOT a.hidden AND NOT ${snoozed('a')})::int AS count,
           count(DISTINCT a.patient_id) FILTER (WHERE NOT a.hidden AND NOT ${snoozed('a')})::int AS patients,
           count(*) FILTER (WHERE NOT a.hidden AND NOT ${snoozed('a')} AND a.status = 'open')::int AS unacknowledged,
           count(*) FILTER (WHERE ${snoozed('a')})::int AS snoozed
    FROM alerts a WHERE a.program_id = ANY(${arr(programIds)}::bigint[]) AND a.status <> 'resolved'
    GROUP BY a.type
    HAVING count(*) FILTER (WHERE NOT a.hidden AND NOT ${snoozed('a')}) > 0 OR count(*) FILTER (WHERE ${snoozed('a')}) > 0
    ORDER BY a.type`);
  return res.rows;
}

async function countedPatients(programIds: number[]) {
  const res = await db.execute<{ patients: number; with_alerts: number }>(sql`
    SELECT (SELECT count(*) FROM patients WHERE program_id = ANY(${arr(programIds)}::bigint[]) AND active)::int AS patients,
           (SELECT count(DISTINCT a.patient_id) FROM alerts a JOIN patients p ON p.id = a.patient_id
            WHERE a.program_id = ANY(${arr(programIds)}::bigint[]) AND p.active AND a.status <> 'resolved'
              AND NOT a.hidden AND NOT ${snoozed('a')})::int AS with_alerts`);
  return res.rows[0]!;
}

/** The triage ranking counted from the alerts: patient ids in order. */
async function countedTriage(programIds: number[]) {
  const res = await db.execute<{ patient_id: number; total: number; escalated: number }>(sql`
    SELECT a.patient_id, count(*)::int AS total, count(*) FILTER (WHERE a.status = 'escalated')::int AS escalated,
           max(a.last_at) AS last_at
    FROM alerts a WHERE a.program_id = ANY(${arr(programIds)}::bigint[]) AND a.status <> 'resolved'
      AND NOT a.hidden AND NOT ${snoozed('a')}
    GROUP BY a.patient_id ORDER BY escalated DESC, total DESC, last_at DESC, patient_id`);
  return res.rows.map((r) => r.patient_id);
}

type Board = { statuses: string[]; type: string | null; since: Date | null; nobody: boolean };

const board = (programIds: number[], b: Board, page: number) => ({
  programIds,
  type: b.type,
  since: b.since,
  cohortId: null,
  search: null,
  statuses: b.statuses,
  includeHidden: false,
  includeSnoozed: false,
  assigned: b.nobody ? ('nobody' as const) : null,
  page,
  perPage: 4,
});

/** The board's alerts counted from the alerts: ids, newest first. */
async function countedBoard(programIds: number[], b: Board) {
  const res = await db.execute<{ id: number }>(sql`
    SELECT a.id FROM alerts a
    WHERE a.program_id = ANY(${arr(programIds)}::bigint[]) AND a.status = ANY(${`{${b.statuses}}`}::text[])
      AND NOT a.hidden AND NOT ${snoozed('a')}
      ${b.type === null ? sql`` : sql`AND a.type = ${b.type}`}
      ${b.since === null ? sql`` : sql`AND a.last_at >= ${b.since.toISOString()}`}
      ${b.nobody ? sql`AND a.assigned_admin_id IS NULL` : sql``}
    ORDER BY a.last_at DESC, a.id DESC`);
  return res.rows.map((r) => Number(r.id));
}

/** A small deterministic generator (the same writes on every run). */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

const TYPES = ['missed_doses', 'low_adherence', 'out_range_blood_pressure_alerts'];
const STATUSES = ['open', 'acknowledged', 'escalated'];

/**
 * The tiles, the dashboard's patient counts, the triage ranking and the board's totals and pages read counts
 * kept by triggers (ADR 057). Whatever is written to alerts and patients, they must answer what counting the
 * alerts answers, snoozes included.
 */
describe('the alert counts kept by triggers', () => {
  it('equal counting the alerts after inserts, status changes, hiding, snoozes, resolutions and deletes', async () => {
    const g = given(db);
    const [a, b] = [(await g.program()).id, (await g.program()).id];
    const patients: { id: number; program: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const program = i < 9 ? a : b;
      patients.push({ id: (await g.patient({ programId: program })).id, program });
    }
    const next = random(7);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
    const check = async (step: string) => {
      for (const programIds of [[a], [b], [a, b]]) {
        const kept = (await tiles(db, programIds)).sort((x, y) => x.type.localeCompare(y.type));
        expect(kept, `${step}: tiles ${programIds}`).toEqual(await countedTiles(programIds));
        expect(await patientCounts(db, programIds, null), `${step}: patients ${programIds}`).toEqual(
          await countedPatients(programIds),
        );
      }
      for (const programIds of [[a], [b], [a, b]]) {
        const ranking = await countedTriage(programIds);
        const pages = [];
        for (let page = 1; page <= Math.ceil(ranking.length / 3) + 1; page++) {
          const { rows, total } = await patientSummaries(db, programIds, null, page, 3);
          expect(total, `${step}: triage total`).toBe(ranking.length);
          pages.push(...rows.map((r) => r.patient.id));
        }
        expect(pages, `${step}: triage order`).toEqual(ranking);
        for (const statuses of [STATUSES, ['open'], ['escalated', 'acknowledged']])
          for (const type of [null, TYPES[0]!])
            for (const since of [null, new Date(Date.now() - 3 * 3_600_000)])
              for (const nobody of [false, true]) {
                const b = { statuses, type, since, nobody };
                const ids = await countedBoard(programIds, b);
                const seen: number[] = [];
                for (let page = 1; page <= Math.ceil(ids.length / 4) + 1; page++) {
                  const kept = await listAlerts(db, board(programIds, b, page));
                  expect(kept.total, `${step}: board total ${JSON.stringify(b)}`).toBe(ids.length);
                  seen.push(...kept.rows.map((r) => Number(r.id)));
                }
                expect(seen, `${step}: board pages ${JSON.stringify(b)}`).toEqual(ids);
              }
      }
    };

    // Inserts, spread over patients, types, conditions and times.
    for (let i = 0; i < 40; i++) {
      const p = pick(patients);
      await db.execute(sql`
        INSERT INTO alerts (program_id, patient_id, type, condition_key, status, first_at, last_at, summary, reason)
        VALUES (${p.program}, ${p.id}, ${pick(TYPES)}, ${String(i % 3)}, ${pick(STATUSES)},
                now() - ${`${i} hours`}::interval, now() - ${`${i % 7} hours`}::interval, 'x', '{}'::jsonb)
        ON CONFLICT DO NOTHING`);
    }
    await check('inserted');
    // Several rows in one statement: status changes, hiding, a new last_at, resolutions.
    await db.execute(sql`UPDATE alerts SET status = 'acknowledged' WHERE id % 3 = 0 AND status = 'open'`);
    await db.execute(sql`UPDATE alerts SET hidden = true WHERE id % 7 = 0`);
    const admin = await g.admin();
    await db.execute(sql`UPDATE alerts SET assigned_admin_id = ${admin.id} WHERE id % 5 = 0`);
    await db.execute(
      sql`UPDATE alerts SET last_at = now() + interval '1 minute', occurrences = occurrences + 1 WHERE id % 5 = 1`,
    );
    await db.execute(sql`UPDATE alerts SET status = 'resolved', resolved_at = now() WHERE id % 4 = 2`);
    await check('updated');
    // Snoozes in force hide alerts (some patients entirely), expired ones do not.
    await db.execute(sql`
      INSERT INTO alert_snoozes (patient_id, type, condition_key, until)
      SELECT patient_id, type, condition_key, CASE WHEN id % 2 = 0 THEN now() + interval '1 hour' ELSE now() - interval '1 hour' END
      FROM alerts WHERE status <> 'resolved' AND id % 3 <> 2`);
    expect((await countedTiles([a, b])).some((t) => t.snoozed > 0)).toBe(true);
    await check('snoozed');
    // A patient made inactive, one deleted, alerts reopened and deleted.
    await db.execute(sql`UPDATE patients SET active = false WHERE id = ${patients[1]!.id}`);
    await db.execute(sql`DELETE FROM patients WHERE id = ${patients[2]!.id}`);
    await db.execute(sql`UPDATE alerts SET status = 'open', resolved_at = NULL WHERE id % 8 = 2
      AND NOT EXISTS (SELECT 1 FROM alerts o WHERE o.patient_id = alerts.patient_id AND o.type = alerts.type
                      AND o.condition_key = alerts.condition_key AND o.status <> 'resolved')`);
    await db.execute(sql`DELETE FROM alerts WHERE id % 9 = 4`);
    await db.execute(sql`UPDATE patients SET active = true WHERE id = ${patients[1]!.id}`);
    await check('moved');
    const negative = await db.execute<{ n: number }>(sql`
      SELECT (SELECT count(*) FROM alert_open_totals WHERE alerts < 0 OR patients < 0)
           + (SELECT count(*) FROM alert_open_facts WHERE patient_id = ${patients[2]!.id}) AS n`);
    expect(Number(negative.rows[0]!.n)).toBe(0);
  });

  it('stay exact when two transactions change one patient’s alerts at once', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const patient = (await g.patient({ programId: program })).id;
    await db.execute(sql`
      INSERT INTO alerts (program_id, patient_id, type, condition_key, first_at, last_at, summary, reason)
      SELECT ${program}, ${patient}, 'missed_doses', k::text, now(), now(), 'x', '{}'::jsonb FROM generate_series(1, 2) k`);
    // Each resolves one of the two alerts; neither sees the other's change when its statement starts.
    await Promise.all(
      ['1', '2'].map((key) =>
        db.transaction(async (tx) => {
          await tx.execute(sql`UPDATE alerts SET status = 'resolved', resolved_at = now()
            WHERE patient_id = ${patient} AND condition_key = ${key}`);
          await tx.execute(sql`SELECT pg_sleep(0.2)`);
        }),
      ),
    );
    expect(await tiles(db, [program])).toEqual([]);
    expect(await patientCounts(db, [program], null)).toEqual({ patients: 1, with_alerts: 0 });
  });
});
