import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import type { DoseEventRow, ScheduleRow } from './adherence.queries';

/** A reading outside the usual adult range (the KPI and the reports count the same readings). */
export const OUT_OF_RANGE = sql`((type = 'systolic' AND (value > 140 OR value < 90))
  OR (type = 'diastolic' AND (value > 90 OR value < 60))
  OR (type = 'pulse' AND (value > 100 OR value < 60))
  OR (type = 'oxygen' AND value < 95)
  OR (type = 'glucose' AND (value > 180 OR value < 70)))`;

export type KpiPatient = { id: number; time_zone: string | null };

/** Patients of the programs, by id after `afterId` (keyset chunks keep memory flat for large programs). */
export async function patientChunk(db: Queryable, programIds: number[], afterId: number, limit: number) {
  const res = await db.execute<KpiPatient>(sql`
    SELECT id, time_zone FROM patients
    WHERE program_id = ANY(${idArray(programIds)}::bigint[]) AND id > ${afterId}
    ORDER BY id LIMIT ${limit}`);
  return res.rows;
}

/**
 * The regimens of many patients that can expect doses in [from, to); with `asNeededAlways`, their as-needed
 * regimens whatever their dates too (an as-needed dose is then never an extra one, in any range: what the
 * calendar, the KPI and its rollup read, ADR 046).
 */
export async function schedulesOfPatients(
  db: Queryable,
  patientIds: number[],
  from: Date,
  to: Date,
  options: { asNeededAlways?: boolean } = {},
): Promise<(ScheduleRow & { patient_id: number })[]> {
  const res = await db.execute<ScheduleRow & { patient_id: number }>(sql`
    SELECT id, patient_id, name, type, device_serial, repeat, interval, times, time_cascade, lockout_time, unlock_before, scheduled_at,
           CASE WHEN completed_at IS NULL THEN end_at
                WHEN end_at IS NULL THEN completed_at
                ELSE least(end_at, completed_at) END AS end_at,
           multi_pod, num
    FROM regimens
    WHERE patient_id = ANY(${idArray(patientIds)}::bigint[])
      AND (${options.asNeededAlways === true} AND repeat = 'as_needed' OR (scheduled_at < ${to.toISOString()}
        AND (end_at IS NULL OR end_at >= ${from.toISOString()})
        AND (completed_at IS NULL OR completed_at >= ${from.toISOString()})))
    ORDER BY patient_id, id`);
  return res.rows;
}

export async function doseEventsOfPatients(
  db: Queryable,
  patientIds: number[],
  from: Date,
  to: Date,
): Promise<(DoseEventRow & { patient_id: number })[]> {
  const res = await db.execute<DoseEventRow & { patient_id: number }>(sql`
    SELECT id, patient_id, regimen_id, taken_at AS at, kind, source FROM medication_usages
    WHERE patient_id = ANY(${idArray(patientIds)}::bigint[])
      AND taken_at >= ${from.toISOString()} AND taken_at < ${to.toISOString()}
    ORDER BY patient_id, taken_at, id`);
  return res.rows;
}

/** The dose events of each patient in their own [from, to). */
export async function doseEventsWithin(
  db: Queryable,
  ranges: { id: number; from: number; to: number }[],
): Promise<(DoseEventRow & { patient_id: number })[]> {
  if (ranges.length === 0) return [];
  const instants = (pick: (r: (typeof ranges)[number]) => number) =>
    `{${ranges.map((r) => new Date(pick(r)).toISOString()).join(',')}}`;
  const res = await db.execute<DoseEventRow & { patient_id: number }>(sql`
    SELECT u.id, u.patient_id, u.regimen_id, u.taken_at AS at, u.kind, u.source
    FROM unnest(${idArray(ranges.map((r) => r.id))}::bigint[], ${instants((r) => r.from)}::timestamptz[],
                ${instants((r) => r.to)}::timestamptz[]) AS x(id, from_at, to_at)
    JOIN medication_usages u ON u.patient_id = x.id AND u.taken_at >= x.from_at AND u.taken_at < x.to_at
    ORDER BY u.patient_id, u.taken_at, u.id`);
  return res.rows;
}

/** Patient, device and reading counts of the programs, in one statement. */
export async function kpiCounts(db: Queryable, programIds: number[], from: Date, to: Date) {
  const ids = idArray(programIds);
  const res = await db.execute<{
    enrolled: number;
    active: number;
    with_dispenser: number;
    dispensers: number;
    connected: number;
    seen_24h: number;
    low_battery: number;
    measurements: number;
    patients_measured: number;
    out_of_range: number;
  }>(sql`
    SELECT
      -- Patients from the counts kept by the patients' triggers (migration 0002); status 'active' counted.
      (SELECT coalesce(sum(patients), 0) FROM program_patient_counts WHERE program_id = ANY(${ids}::bigint[]))::int AS enrolled,
      (SELECT count(*) FROM patients WHERE program_id = ANY(${ids}::bigint[]) AND status = 'active')::int AS active,
      d.with_dispenser, d.dispensers, d.connected, d.seen_24h, d.low_battery,
      m.measurements, m.patients_measured, m.out_of_range
    FROM (
      SELECT count(*)::int AS measurements, count(DISTINCT patient_id)::int AS patients_measured,
        count(*) FILTER (WHERE ${OUT_OF_RANGE})::int AS out_of_range
      FROM measurements
      WHERE program_id = ANY(${ids}::bigint[]) AND measured_at >= ${from.toISOString()} AND measured_at < ${to.toISOString()}
    ) m,
    -- The devices' figures in one pass over the programs' devices (five passes before).
    (
      SELECT count(DISTINCT patient_id) FILTER (WHERE kind = 'dispenser' AND patient_id IS NOT NULL)::int AS with_dispenser,
        count(*) FILTER (WHERE kind = 'dispenser')::int AS dispensers,
        count(*) FILTER (WHERE kind = 'dispenser' AND connected)::int AS connected,
        count(*) FILTER (WHERE kind = 'dispenser' AND last_seen_at > now() - interval '24 hours')::int AS seen_24h,
        count(*) FILTER (WHERE battery < 20)::int AS low_battery
      FROM devices WHERE program_id = ANY(${ids}::bigint[])
    ) d`);
  return res.rows[0]!;
}

export async function programNames(db: Queryable, programIds: number[]) {
  const res = await db.execute<{ id: number; name: string }>(
    sql`SELECT id, name FROM programs WHERE id = ANY(${idArray(programIds)}::bigint[]) ORDER BY id`,
  );
  return res.rows;
}

/** The patients among these ids that are in the program, with their zone. */
export async function patientsInProgram(db: Queryable, programId: number, ids: number[]) {
  const res = await db.execute<KpiPatient & { open_alerts: number; escalated: boolean }>(sql`
    SELECT p.id, p.time_zone, a.open_alerts, a.escalated
    FROM patients p
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS open_alerts, coalesce(bool_or(status = 'escalated'), false) AS escalated
      FROM alerts WHERE patient_id = p.id AND status <> 'resolved' AND NOT hidden
    ) a
    WHERE p.program_id = ${programId} AND p.id = ANY(${idArray(ids)}::bigint[])`);
  return res.rows;
}

/** Each patient's newest reading (one index probe per patient). */
export async function lastReadings(db: Queryable, ids: number[]) {
  const res = await db.execute<{
    patient_id: number;
    type: string;
    value: number;
    unit: string;
    measured_at: Date;
  }>(sql`
    SELECT p.id AS patient_id, m.type, m.value, m.unit, m.measured_at
    FROM unnest(${idArray(ids)}::bigint[]) AS p(id)
    CROSS JOIN LATERAL (
      SELECT type, value, unit, measured_at FROM measurements
      WHERE patient_id = p.id ORDER BY measured_at DESC LIMIT 1
    ) m`);
  return res.rows;
}
