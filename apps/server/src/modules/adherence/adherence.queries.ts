import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export type PatientContext = { id: number; program_id: number; time_zone: string | null };

/** The patient (in the program when one is given) with its time zone; null when not there. */
export async function patientContext(
  db: Queryable,
  patientId: number,
  programId: number | null,
): Promise<PatientContext | null> {
  const res = await db.execute<PatientContext>(sql`
    SELECT id, program_id, time_zone FROM patients
    WHERE id = ${patientId} ${programId === null ? sql`` : sql`AND program_id = ${programId}`}`);
  return res.rows[0] ?? null;
}

export type ScheduleRow = {
  id: number;
  name: string;
  /** medication, inhaler or medesto-device; with `device_serial`, what the alert engine splits adherence by. */
  type?: string;
  device_serial?: string | null;
  repeat: 'daily' | 'weekly' | 'monthly' | 'as_needed';
  interval: number;
  times: string[];
  time_cascade: boolean;
  lockout_time: number;
  unlock_before: number;
  scheduled_at: string;
  end_at: string | null;
  multi_pod: boolean;
  num: number;
};

export type DoseEventRow = {
  id: number;
  regimen_id: number;
  at: string;
  kind: 'taken' | 'skipped';
  source: string;
};

export type MeasurementRow = {
  id: number;
  type: string;
  value: number;
  unit: string;
  measured_at: string;
  device_id: number | null;
};

/** Most readings one raw range answer lists (the newest); `total` says how many the range holds. */
export const MEASUREMENT_LIST_MAX = 20_000;

/** Readings of a range, oldest first: the newest `MEASUREMENT_LIST_MAX`, and the count of all. */
export async function measurementsOf(
  db: Queryable,
  patientId: number,
  from: Date,
  to: Date,
  filter: { types?: string[]; deviceKind?: string },
): Promise<{ rows: MeasurementRow[]; total: number }> {
  const res = await db.execute<MeasurementRow & { total: number }>(sql`
    SELECT m.id, m.type, m.value, m.unit, m.measured_at, m.device_id, count(*) OVER ()::int AS total FROM measurements m
    ${filter.deviceKind ? sql`JOIN devices d ON d.id = m.device_id AND d.kind = ${filter.deviceKind}` : sql``}
    WHERE m.patient_id = ${patientId} AND m.measured_at >= ${from.toISOString()} AND m.measured_at < ${to.toISOString()}
      ${filter.types?.length ? sql`AND m.type = ANY(${`{${filter.types.join(',')}}`}::text[])` : sql``}
    ORDER BY m.measured_at DESC, m.type DESC
    LIMIT ${MEASUREMENT_LIST_MAX}`);
  const rows = res.rows.map(({ total: _t, ...r }) => r).reverse();
  return { rows, total: res.rows[0]?.total ?? 0 };
}

export type GroupedRow = {
  type: string;
  value: number;
  min: number | null;
  max: number | null;
  count: number | null;
  at: string | Date;
  unit: string;
  readings: number;
  binned: boolean;
};

/**
 * The chart series of a range: per type, its raw readings when it has at most `maxPoints` of them, else
 * min/mean/max/count per bucket of `bucketSeconds` aligned on the range's start, all in SQL (issue 27).
 * One pass over the range makes the buckets (and so each type's count); only a type with few readings is
 * read again, raw. Both read measurements_patient_type_time_idx (patient_id, type, measured_at).
 */
export async function groupedMeasurementsOf(
  db: Queryable,
  patientId: number,
  from: Date,
  to: Date,
  types: string[],
  bucketSeconds: number,
  maxPoints: number,
): Promise<GroupedRow[]> {
  const f = from.toISOString();
  const t = to.toISOString();
  const binned = await db.execute<GroupedRow>(sql`
    SELECT m.type, avg(m.value)::float8 AS value, min(m.value) AS min, max(m.value) AS max, count(*)::int AS count,
           date_bin(make_interval(secs => ${bucketSeconds}), m.measured_at, ${f}::timestamptz) AS at,
           max(m.unit) AS unit, (sum(count(*)) OVER (PARTITION BY m.type))::int AS readings, true AS binned
    FROM measurements m
    WHERE m.patient_id = ${patientId} AND m.type = ANY(${`{${types.join(',')}}`}::text[])
      AND m.measured_at >= ${f} AND m.measured_at < ${t}
    GROUP BY m.type, 6
    ORDER BY type, at`);
  const few = [...new Set(binned.rows.filter((r) => r.readings <= maxPoints).map((r) => r.type))];
  if (few.length === 0) return binned.rows;
  const raw = await db.execute<GroupedRow>(sql`
    SELECT m.type, m.value, NULL::float8 AS min, NULL::float8 AS max, NULL::int AS count,
           m.measured_at AS at, m.unit, (count(*) OVER (PARTITION BY m.type))::int AS readings, false AS binned
    FROM measurements m
    WHERE m.patient_id = ${patientId} AND m.type = ANY(${`{${few.join(',')}}`}::text[])
      AND m.measured_at >= ${f} AND m.measured_at < ${t}
    ORDER BY type, at`);
  return [...binned.rows.filter((r) => r.readings > maxPoints), ...raw.rows].sort((a, b) =>
    a.type === b.type ? 0 : a.type < b.type ? -1 : 1,
  );
}

export async function measurementsPage(
  db: Queryable,
  patientId: number,
  type: string,
  page: { page: number; per_page: number },
): Promise<{ rows: MeasurementRow[]; total: number }> {
  const res = await db.execute<MeasurementRow & { total: number }>(sql`
    SELECT id, type, value, unit, measured_at, device_id,
           (SELECT count(*) FROM measurements WHERE patient_id = ${patientId} AND type = ${type})::int AS total
    FROM measurements WHERE patient_id = ${patientId} AND type = ${type}
    ORDER BY measured_at DESC, id DESC
    LIMIT ${page.per_page} OFFSET ${(page.page - 1) * page.per_page}`);
  let total = res.rows[0]?.total;
  if (total === undefined) {
    const c = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM measurements WHERE patient_id = ${patientId} AND type = ${type}`,
    );
    total = c.rows[0]!.n;
  }
  return { rows: res.rows.map(({ total: _t, ...r }) => r), total };
}

export type UsageRow = {
  id: number;
  regimen_id: number;
  regimen_name: string;
  pod_id: number | null;
  taken_at: Date;
  servings: number;
  kind: 'taken' | 'skipped';
  source: string;
  as_needed: boolean;
  regimen_type: string;
};

/** Most dose rows one usages answer lists; the per-day figures beside them count every dose. */
export const USAGE_LIST_MAX = 5000;

/**
 * Doses of a range with their regimen, oldest first: the newest `USAGE_LIST_MAX` of them, and how many the
 * range holds (`total`), so an answer says when it lists only part (issue 27).
 */
export async function usagesOf(
  db: Queryable,
  patientId: number,
  from: Date,
  to: Date,
  regimenType?: string,
): Promise<{ rows: UsageRow[]; total: number }> {
  const res = await db.execute<UsageRow & { total: number }>(sql`
    SELECT u.id, u.regimen_id, r.name AS regimen_name, u.pod_id, u.taken_at, u.servings, u.kind, u.source,
           r.repeat = 'as_needed' AS as_needed, r.type AS regimen_type, count(*) OVER ()::int AS total
    FROM medication_usages u JOIN regimens r ON r.id = u.regimen_id
    WHERE u.patient_id = ${patientId} AND u.taken_at >= ${from.toISOString()} AND u.taken_at < ${to.toISOString()}
      ${regimenType ? sql`AND r.type = ${regimenType}` : sql``}
    ORDER BY u.taken_at DESC, u.id DESC
    LIMIT ${USAGE_LIST_MAX}`);
  return {
    rows: res.rows.map(({ total: _t, ...r }) => r).reverse(),
    total: res.rows[0]?.total ?? 0,
  };
}

/** Inhaler puffs per local day of the patient: scheduled (controller) and as-needed (rescue), taken only. */
export async function dailyInhalerUse(db: Queryable, patientId: number, from: Date, to: Date, zone: string) {
  const res = await db.execute<{ date: string; controller: number; rescue: number }>(sql`
    SELECT to_char(u.taken_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS date,
           coalesce(sum(u.servings) FILTER (WHERE r.repeat <> 'as_needed'), 0)::int AS controller,
           coalesce(sum(u.servings) FILTER (WHERE r.repeat = 'as_needed'), 0)::int AS rescue
    FROM medication_usages u JOIN regimens r ON r.id = u.regimen_id
    WHERE u.patient_id = ${patientId} AND u.kind = 'taken' AND r.type = 'inhaler'
      AND u.taken_at >= ${from.toISOString()} AND u.taken_at < ${to.toISOString()}
    GROUP BY 1 ORDER BY 1`);
  return res.rows;
}

/** Doses and servings per local day of the patient (taken doses only). */
export async function dailyUsages(db: Queryable, patientId: number, from: Date, to: Date, zone: string) {
  const res = await db.execute<{ date: string; doses: number; servings: number }>(sql`
    SELECT to_char(u.taken_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS date,
           count(*)::int AS doses, sum(u.servings)::int AS servings
    FROM medication_usages u
    WHERE u.patient_id = ${patientId} AND u.kind = 'taken'
      AND u.taken_at >= ${from.toISOString()} AND u.taken_at < ${to.toISOString()}
    GROUP BY 1 ORDER BY 1`);
  return res.rows;
}

/** Most pods one usages answer lists; `pods_total` says how many the patient has. */
export const POD_LIST_MAX = 500;

export async function podsOf(db: Queryable, patientId: number) {
  const res = await db.execute<{
    id: number;
    barcode: string;
    regimen_id: number;
    original_servings: number;
    servings_remaining: number;
  }>(sql`
    SELECT id, barcode, regimen_id, original_servings, servings_remaining FROM pods
    WHERE patient_id = ${patientId} ORDER BY regimen_id, num, id LIMIT ${POD_LIST_MAX}`);
  if (res.rows.length < POD_LIST_MAX) return { rows: res.rows, total: res.rows.length };
  const c = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM pods WHERE patient_id = ${patientId}`,
  );
  return { rows: res.rows, total: c.rows[0]!.n };
}

/** Sums of the given measurement types per local day of the patient. */
export async function dailyMeasurementSums(
  db: Queryable,
  patientId: number,
  from: Date,
  to: Date,
  zone: string,
  types: string[],
) {
  const res = await db.execute<{ date: string; type: string; total: number }>(sql`
    SELECT to_char(measured_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS date, type, sum(value)::float8 AS total
    FROM measurements
    WHERE patient_id = ${patientId} AND type = ANY(${`{${types.join(',')}}`}::text[])
      AND measured_at >= ${from.toISOString()} AND measured_at < ${to.toISOString()}
    GROUP BY 1, 2 ORDER BY 1, 2`);
  return res.rows;
}

/** The newest readings of every type, and the devices that took them (GET user/patients/{id}/all). */
export async function latestMeasurements(db: Queryable, patientId: number, limit: number) {
  const rows = await db.execute<MeasurementRow>(sql`
    SELECT id, type, value, unit, measured_at, device_id FROM measurements
    WHERE patient_id = ${patientId} ORDER BY measured_at DESC, id DESC LIMIT ${limit}`);
  const total =
    rows.rows.length < limit
      ? rows.rows.length
      : (
          await db.execute<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM measurements WHERE patient_id = ${patientId}`,
          )
        ).rows[0]!.n;
  const devices = await db.execute<{ id: number; serial: string; kind: string }>(sql`
    SELECT id, serial, kind FROM devices WHERE patient_id = ${patientId} ORDER BY kind, serial`);
  return { rows: rows.rows, total, devices: devices.rows };
}
