import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import type { Counts } from './rollup.queries';

/**
 * What the KPI reads of the daily rollup (ADR 046), inside its one REPEATABLE READ transaction so that all
 * statements see the same rollup. Dates are local dates of each patient's calendar.
 */

const list = (values: readonly (string | number)[]) => `{${values.join(',')}}`;
const counts = sql`sum(due)::int AS due, sum(on_time)::int AS on_time, sum(late)::int AS late,
  sum(missed)::int AS missed, sum(skipped)::int AS skipped, sum(partial)::int AS partial,
  sum(pending)::int AS pending, sum(extra)::int AS extra`;

/** A patient whose rows cannot be read (all of them, or from `from` on): classified live instead. */
export type StalePatient = { id: number; time_zone: string | null; from: string };

/**
 * The patients of the programs whose rollup does not cover [start, end]: marked stale by a trigger on or
 * before `end`, rolled up only to a day before `end`, or with another on-time allowance. The rest are
 * covered for any start (every day up to `through` is rolled up).
 */
export async function staleInRange(
  tx: Queryable,
  programIds: number[],
  start: string,
  end: string,
  onTimeMinutes: number,
): Promise<StalePatient[]> {
  const res = await tx.execute<{
    id: number;
    time_zone: string | null;
    valid_through: string | null;
  }>(sql`
    WITH dirty AS (
      SELECT patient_id, min(from_day) AS first FROM adherence_dirty GROUP BY patient_id
    ), candidates AS (
      SELECT patient_id FROM dirty WHERE first <= ${end}
      UNION
      SELECT patient_id FROM adherence_rollup_state
      WHERE program_id = ANY(${idArray(programIds)}::bigint[]) AND (through < ${end} OR on_time_minutes <> ${onTimeMinutes})
    )
    SELECT p.id, p.time_zone,
      CASE WHEN s.on_time_minutes = ${onTimeMinutes} THEN least(s.through, d.first - 1)::text END AS valid_through
    FROM candidates c
    JOIN patients p ON p.id = c.patient_id AND p.program_id = ANY(${idArray(programIds)}::bigint[])
    LEFT JOIN adherence_rollup_state s ON s.patient_id = p.id
    LEFT JOIN dirty d ON d.patient_id = p.id
    ORDER BY p.id`);
  return res.rows.map((r) => {
    const after = r.valid_through === null ? null : nextDate(r.valid_through);
    return { id: r.id, time_zone: r.time_zone, from: after !== null && after > start ? after : start };
  });
}

function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The programs' rolled-up counts of [start, end] per schedule date (extras on the day they were taken). */
export async function programDays(tx: Queryable, programIds: number[], start: string, end: string) {
  const res = await tx.execute<Counts & { date: string }>(sql`
    SELECT date::text AS date, ${counts} FROM adherence_program_days
    WHERE program_id = ANY(${idArray(programIds)}::bigint[]) AND day BETWEEN ${start} AND ${end}
    GROUP BY date`);
  return res.rows;
}

/** The rolled-up counts of stale patients from their `from` to `end`, per date: to take back out. */
export async function staleRows(tx: Queryable, stale: StalePatient[], end: string) {
  if (stale.length === 0) return [];
  const res = await tx.execute<Counts & { date: string }>(sql`
    SELECT r.date::text AS date, ${counts}
    FROM unnest(${idArray(stale.map((s) => s.id))}::bigint[], ${list(stale.map((s) => s.from))}::date[]) AS x(id, day)
    JOIN adherence_days r ON r.patient_id = x.id AND r.day >= x.day AND r.day <= ${end}
    GROUP BY r.date`);
  return res.rows;
}

/**
 * Pending doses of [start, end] whose windows have closed by `now` and that the job has not settled yet
 * (each patient's stale days left out), per date and what they became.
 */
export async function settledOnRead(
  tx: Queryable,
  programIds: number[],
  start: string,
  end: string,
  now: number,
  stale: StalePatient[],
) {
  const res = await tx.execute<{ date: string; becomes: 'missed' | 'partial'; doses: number }>(sql`
    SELECT q.date::text AS date, q.becomes, sum(q.doses)::int AS doses
    FROM adherence_pending q
    LEFT JOIN unnest(${idArray(stale.map((s) => s.id))}::bigint[], ${list(stale.map((s) => s.from))}::date[]) AS x(id, day)
      ON x.id = q.patient_id
    WHERE q.program_id = ANY(${idArray(programIds)}::bigint[]) AND q.closes_at <= ${new Date(now).toISOString()}
      AND q.day BETWEEN ${start} AND ${end} AND (x.id IS NULL OR q.day < x.day)
    GROUP BY q.date, q.becomes`);
  return res.rows;
}

/**
 * Every covered patient's doses due and taken over [start, end] (running totals two rows apart, plus the
 * doses settled on read), put in adherence bands: the same percentages, rounded as the engine rounds them
 * (two decimals, half up), as `percent` in packages/domain.
 */
export async function rolledBands(
  tx: Queryable,
  input: {
    programIds: number[];
    start: string;
    end: string;
    now: number;
    stale: StalePatient[];
    bands: { high: number; medium: number };
  },
) {
  const programs = idArray(input.programIds);
  // One grouped pass over the three kinds of rows (the running totals at the end, the running totals the day
  // before the start, the doses settled on read) rather than joins: with the rollup just written and its
  // statistics not yet taken, the planner estimated one row per side and nested the joins, 100,000 x 100,000
  // (the KPI at 100k patients took 210 s). A grouped scan has no plan to get wrong.
  const res = await tx.execute<{ with_doses_due: number; high: number; medium: number; low: number }>(sql`
    WITH parts AS (
      SELECT patient_id, cum_due AS due, cum_taken AS taken, true AS ends FROM adherence_days
      WHERE program_id = ANY(${programs}::bigint[]) AND day = ${input.end} AND date = day
      UNION ALL
      SELECT patient_id, -cum_due, -cum_taken, false FROM adherence_days
      WHERE program_id = ANY(${programs}::bigint[]) AND day = ${input.start}::date - 1 AND date = day
      UNION ALL
      SELECT patient_id, doses, 0, false FROM adherence_pending
      WHERE program_id = ANY(${programs}::bigint[]) AND closes_at <= ${new Date(input.now).toISOString()}
        AND day BETWEEN ${input.start} AND ${input.end}
    ), per AS (
      SELECT sum(due) AS due, sum(taken) AS taken FROM parts
      WHERE patient_id <> ALL(${idArray(input.stale.map((s) => s.id))}::bigint[])
      GROUP BY patient_id HAVING bool_or(ends)
    ), rated AS (
      SELECT floor(taken * 10000.0 / due + 0.5) AS hundredths FROM per WHERE due > 0
    )
    SELECT count(*)::int AS with_doses_due,
      count(*) FILTER (WHERE hundredths >= ${input.bands.high * 100})::int AS high,
      count(*) FILTER (WHERE hundredths >= ${input.bands.medium * 100} AND hundredths < ${input.bands.high * 100})::int AS medium,
      count(*) FILTER (WHERE hundredths < ${input.bands.medium * 100})::int AS low
    FROM rated`);
  return res.rows[0]!;
}

/** Stale patients' doses due and taken over [start, their `from`), read from their rows that still hold. */
export async function rolledBefore(tx: Queryable, stale: StalePatient[], start: string, now: number) {
  const partly = stale.filter((s) => s.from > start);
  if (partly.length === 0) return new Map<number, { due: number; taken: number }>();
  const res = await tx.execute<{ id: number; due: number; taken: number }>(sql`
    SELECT x.id,
      coalesce(a.cum_due, 0) - coalesce(b.cum_due, 0) + (
        SELECT coalesce(sum(q.doses), 0) FROM adherence_pending q
        WHERE q.patient_id = x.id AND q.closes_at <= ${new Date(now).toISOString()}
          AND q.day >= ${start} AND q.day < x.day
      )::int AS due,
      coalesce(a.cum_taken, 0) - coalesce(b.cum_taken, 0) AS taken
    FROM unnest(${idArray(partly.map((s) => s.id))}::bigint[], ${list(partly.map((s) => s.from))}::date[]) AS x(id, day)
    LEFT JOIN adherence_days a ON a.patient_id = x.id AND a.day = x.day - 1 AND a.date = a.day
    LEFT JOIN adherence_days b ON b.patient_id = x.id AND b.day = ${start}::date - 1 AND b.date = b.day`);
  return new Map(res.rows.map((r) => [r.id, { due: r.due, taken: r.taken }]));
}
