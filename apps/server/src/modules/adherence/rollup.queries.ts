import type { RollupDay } from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

/** "Every day" in `adherence_dirty.from_day` (a new patient, a new zone or program). */
export const EVERY_DAY = '0001-01-01';
/** One job at a time writes the rollup (its rows and the program sums are written in key order). */
const ROLLUP_LOCK = sql`hashtextextended('caredeck.adherence_rollup', 0)`;

/** An array literal of dates, numbers or ISO instants (none of which needs quoting). */
const list = (values: readonly (string | number)[]) => `{${values.join(',')}}`;

export const COUNT_COLUMNS = [
  'due',
  'on_time',
  'late',
  'missed',
  'skipped',
  'partial',
  'pending',
  'extra',
] as const;
export type Counts = Record<(typeof COUNT_COLUMNS)[number], number>;

/** True when this transaction may write the rollup (no other job is writing it). */
export async function lockRollup(tx: Queryable): Promise<boolean> {
  const res = await tx.execute<{ ok: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${ROLLUP_LOCK}) AS ok`);
  return res.rows[0]!.ok;
}

/** The newest stale-mark now: a pass rolls up what was marked before it started, and no more. */
export async function newestMark(db: Queryable): Promise<number> {
  const res = await db.execute<{ id: number | null }>(sql`SELECT max(id) AS id FROM adherence_dirty`);
  return res.rows[0]!.id ?? 0;
}

/**
 * The patients the job should roll up next: marked stale up to mark `upTo`, or not covered up to `target`.
 * (A patient whose device keeps sending is rolled up once per pass, not in a loop within it.)
 */
export async function patientsToRoll(db: Queryable, target: string, limit: number, upTo: number, restMs = 0) {
  // A patient rolled up less than `restMs` ago waits (the KPI reads them live meanwhile): a device sending all
  // the time costs one roll-up a rest period, not one a pass.
  const resting =
    restMs > 0
      ? sql`AND NOT EXISTS (SELECT 1 FROM adherence_rollup_state s WHERE s.patient_id = d.patient_id
          AND s.updated_at > now() - make_interval(secs => ${restMs / 1000}))`
      : sql``;
  const res = await db.execute<{ patient_id: number }>(sql`
    (SELECT DISTINCT patient_id FROM (
       SELECT d.patient_id FROM adherence_dirty d WHERE d.id <= ${upTo} ${resting}
       ORDER BY d.id LIMIT ${limit * 10}) oldest
     LIMIT ${limit})
    UNION
    (SELECT patient_id FROM adherence_rollup_state WHERE through < ${target} ORDER BY through LIMIT ${limit})
    LIMIT ${limit}`);
  return res.rows.map((r) => r.patient_id);
}

/**
 * Patients no entry will ever bring to the job (nothing should leave one so; a safety net), and patients
 * rolled up with another on-time allowance: both are marked stale from the start.
 */
export async function markForgotten(db: Queryable, onTimeMinutes: number) {
  await db.execute(sql`
    INSERT INTO adherence_dirty (patient_id, from_day)
    SELECT p.id, ${EVERY_DAY}::date FROM patients p
    WHERE NOT EXISTS (SELECT 1 FROM adherence_rollup_state s WHERE s.patient_id = p.id)
      AND NOT EXISTS (SELECT 1 FROM adherence_dirty d WHERE d.patient_id = p.id)
    UNION ALL
    SELECT patient_id, ${EVERY_DAY}::date FROM adherence_rollup_state WHERE on_time_minutes <> ${onTimeMinutes}`);
}

export type RollPatient = {
  id: number;
  program_id: number;
  time_zone: string | null;
  /** First day whose rows are stale (from the claimed entries); null without any. */
  dirty_from: string | null;
  through: string | null;
  on_time_minutes: number | null;
  /** The earliest regimen start or dose event: where a patient rolled up from scratch begins. */
  first_at: Date | null;
};

/**
 * Locks the patients (a zone or program change waits for this transaction, so rows are never written for
 * a zone or program the patient just left), claims their stale-marks and reads what the job needs of them.
 */
export async function claimPatients(tx: Queryable, ids: number[]): Promise<RollPatient[]> {
  const locked = await tx.execute<{ id: number; program_id: number; time_zone: string | null }>(sql`
    SELECT id, program_id, time_zone FROM patients WHERE id = ANY(${idArray(ids)}::bigint[]) ORDER BY id FOR SHARE`);
  const claimed = await tx.execute<{ patient_id: number; from_day: string }>(sql`
    WITH gone AS (DELETE FROM adherence_dirty WHERE patient_id = ANY(${idArray(ids)}::bigint[]) RETURNING patient_id, from_day)
    SELECT patient_id, min(from_day)::text AS from_day FROM gone GROUP BY patient_id`);
  const found = locked.rows.map((p) => p.id);
  const known = await tx.execute<{
    patient_id: number;
    through: string | null;
    on_time_minutes: number | null;
    first_at: Date | null;
  }>(sql`
    SELECT x.id AS patient_id, s.through::text AS through, s.on_time_minutes,
      least((SELECT min(scheduled_at) FROM regimens r WHERE r.patient_id = x.id),
            (SELECT min(taken_at) FROM medication_usages u WHERE u.patient_id = x.id)) AS first_at
    FROM unnest(${idArray(found)}::bigint[]) AS x(id)
    LEFT JOIN adherence_rollup_state s ON s.patient_id = x.id`);
  const dirty = new Map(claimed.rows.map((r) => [r.patient_id, r.from_day]));
  const state = new Map(known.rows.map((r) => [r.patient_id, r]));
  return locked.rows.map((p) => {
    const s = state.get(p.id);
    return {
      ...p,
      dirty_from: dirty.get(p.id) ?? null,
      through: s?.through ?? null,
      on_time_minutes: s?.on_time_minutes ?? null,
      first_at: s?.first_at ? new Date(s.first_at) : null,
    };
  });
}

/** Running totals at the end of each patient's given day (absent: nothing rolled up before it). */
export async function runningTotals(tx: Queryable, at: { id: number; day: string }[]) {
  if (at.length === 0) return new Map<number, { cum_due: number; cum_taken: number }>();
  const res = await tx.execute<{ patient_id: number; cum_due: number; cum_taken: number }>(sql`
    SELECT r.patient_id, r.cum_due, r.cum_taken
    FROM unnest(${idArray(at.map((a) => a.id))}::bigint[], ${list(at.map((a) => a.day))}::date[]) AS x(id, day)
    JOIN adherence_days r ON r.patient_id = x.id AND r.day = x.day AND r.date = x.day`);
  return new Map(res.rows.map((r) => [r.patient_id, r]));
}

export type RollupRow = RollupDay & {
  patient_id: number;
  program_id: number;
  cum_due: number;
  cum_taken: number;
};
export type PendingRow = {
  patient_id: number;
  program_id: number;
  day: string;
  date: string;
  closes_at: string;
  becomes: 'missed' | 'partial';
  doses: number;
};

/**
 * Replaces the rolled-up days of each patient from its `from` day on with the new rows, and records how far
 * each is rolled up. (State first: the rows reference it.)
 */
export async function writeRollup(
  tx: Queryable,
  input: {
    states: { patient_id: number; program_id: number; from: string; through: string }[];
    rows: RollupRow[];
    pending: PendingRow[];
    onTimeMinutes: number;
  },
) {
  const { states, rows, pending } = input;
  if (states.length === 0) return;
  const ids = idArray(states.map((s) => s.patient_id));
  const froms = list(states.map((s) => s.from));
  await tx.execute(sql`
    INSERT INTO adherence_rollup_state AS s (patient_id, program_id, through, on_time_minutes, updated_at)
    SELECT id, program_id, through, ${input.onTimeMinutes}, now()
    FROM unnest(${ids}::bigint[], ${idArray(states.map((s) => s.program_id))}::bigint[],
                ${list(states.map((s) => s.through))}::date[]) AS x(id, program_id, through)
    ORDER BY id
    ON CONFLICT (patient_id) DO UPDATE SET program_id = EXCLUDED.program_id, through = EXCLUDED.through,
      on_time_minutes = EXCLUDED.on_time_minutes, updated_at = now()`);
  await tx.execute(sql`
    DELETE FROM adherence_days r USING unnest(${ids}::bigint[], ${froms}::date[]) AS x(id, day)
    WHERE r.patient_id = x.id AND r.day >= x.day`);
  await tx.execute(sql`
    DELETE FROM adherence_pending q USING unnest(${ids}::bigint[], ${froms}::date[]) AS x(id, day)
    WHERE q.patient_id = x.id AND q.day >= x.day`);
  if (rows.length > 0) {
    const col = <K extends keyof RollupRow>(k: K) => list(rows.map((r) => r[k] as string | number));
    await tx.execute(sql`
      INSERT INTO adherence_days (patient_id, program_id, day, date, due, on_time, late, missed, skipped, partial,
        pending, extra, cum_due, cum_taken)
      SELECT * FROM unnest(${col('patient_id')}::bigint[], ${col('program_id')}::bigint[], ${col('day')}::date[],
        ${col('date')}::date[], ${col('due')}::int[], ${col('on_time')}::int[], ${col('late')}::int[],
        ${col('missed')}::int[], ${col('skipped')}::int[], ${col('partial')}::int[], ${col('pending')}::int[],
        ${col('extra')}::int[], ${col('cum_due')}::int[], ${col('cum_taken')}::int[])`);
  }
  if (pending.length > 0) {
    const col = <K extends keyof PendingRow>(k: K) => list(pending.map((r) => r[k] as string | number));
    await tx.execute(sql`
      INSERT INTO adherence_pending (patient_id, program_id, day, date, closes_at, becomes, doses)
      SELECT * FROM unnest(${col('patient_id')}::bigint[], ${col('program_id')}::bigint[], ${col('day')}::date[],
        ${col('date')}::date[], ${col('closes_at')}::timestamptz[], ${col('becomes')}::text[], ${col('doses')}::int[])`);
  }
}

/**
 * Moves the pending doses whose windows closed by `now` into their rows, as missed or partial (what the
 * engine decides for them with no event, which would have marked the patient stale), and carries the new
 * due doses into the running totals of the days after. One statement: one row is updated once.
 */
export async function settleClosedWindows(tx: Queryable, now: Date): Promise<number> {
  const res = await tx.execute<{ n: number }>(sql`
    WITH closed AS (
      DELETE FROM adherence_pending WHERE closes_at <= ${now.toISOString()}
      RETURNING patient_id, day, date, becomes, doses
    ), per_row AS (
      SELECT patient_id, day, date, sum(doses)::int AS n,
        coalesce(sum(doses) FILTER (WHERE becomes = 'missed'), 0)::int AS missed,
        coalesce(sum(doses) FILTER (WHERE becomes = 'partial'), 0)::int AS partial
      FROM closed GROUP BY patient_id, day, date
    ), per_day AS (
      SELECT patient_id, day, sum(n)::int AS n FROM per_row GROUP BY patient_id, day
    ), delta AS (
      SELECT r.patient_id, r.day, r.date, coalesce(x.n, 0) AS n, coalesce(x.missed, 0) AS missed,
        coalesce(x.partial, 0) AS partial,
        (SELECT sum(d.n) FROM per_day d WHERE d.patient_id = r.patient_id AND d.day <= r.day)::int AS cum
      FROM adherence_days r
      JOIN (SELECT patient_id, min(day) AS first FROM per_day GROUP BY patient_id) f
        ON f.patient_id = r.patient_id AND r.day >= f.first
      LEFT JOIN per_row x ON x.patient_id = r.patient_id AND x.day = r.day AND x.date = r.date
    ), moved AS (
      UPDATE adherence_days r SET pending = r.pending - d.n, due = r.due + d.n, missed = r.missed + d.missed,
        partial = r.partial + d.partial, cum_due = r.cum_due + d.cum
      FROM delta d WHERE r.patient_id = d.patient_id AND r.day = d.day AND r.date = d.date
      RETURNING 1
    )
    SELECT (SELECT coalesce(sum(n), 0) FROM per_row)::int AS n, (SELECT count(*) FROM moved) AS rows`);
  return res.rows[0]!.n;
}
