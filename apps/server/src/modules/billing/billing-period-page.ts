import type { BillingPeriodsFilterQuery } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';
import { decodePeriodsCursor, filterPredicate, RPM_KINDS, yearRules } from './billing-period-filters';

export type Entry = { id: number; type: string; started_at: string; seconds: number; interactive: boolean };
export type PageRow = {
  id: number;
  first_name: string;
  last_name: string;
  mrn: string | null;
  tz: string;
  day: string;
  supply_start: string | null;
  source: 'device' | 'staff' | null;
  month_start: string;
  month_end: string;
  dates: string[] | null;
  entries: Entry[] | null;
  physician: Entry[] | null;
};

type Source = { ctes: SQL; total: SQL };

/** 99091's time: billable RPM entries of staff holding the physician role in the entry's program (the spec's rule). */
const PHYSICIAN_RPM = sql`e.billable AND e.type = 'rpm' AND EXISTS (SELECT 1 FROM admin_program_roles r
  WHERE r.admin_id = e.admin_id AND r.program_id = e.program_id AND r.role = 'physician')`;
const NAME_ORDER = sql`ORDER BY p.last_name, p.first_name, p.id`;

function patientsOf(programId: number, assigneeId: number | undefined): SQL {
  return sql`p.program_id = ${programId}${assigneeId === undefined ? sql`` : sql` AND p.assigned_admin_id = ${assigneeId}`}`;
}

/**
 * The program's patients that could earn a code in the day's period or month, with the facts the codes depend
 * on (device days of the 30-day period, seconds and the interactive flag of the month per time track). The
 * candidates are the patients with a monitoring device, a staff-set supply start, or billable time within a
 * month of the day: the others earn nothing and are never at risk.
 */
function factsCtes(programId: number, day: string | null, assigneeId: number | undefined): SQL {
  const anchor = sql`coalesce(${day}::date, current_date)`;
  return sql`cand AS (
      SELECT patient_id FROM devices WHERE program_id = ${programId} AND patient_id IS NOT NULL
        AND provisioned_at IS NOT NULL AND kind IN ${RPM_KINDS}
      UNION SELECT patient_id FROM billing_supply_starts WHERE program_id = ${programId}
      UNION SELECT patient_id FROM billing_time_entries WHERE program_id = ${programId} AND billable
        AND started_at >= (${anchor} - 33)::timestamptz AND started_at < (${anchor} + 33)::timestamptz
    ), fb AS MATERIALIZED (
      SELECT p.id, coalesce(p.time_zone, 'UTC') AS tz,
        coalesce(${day}::date, (now() AT TIME ZONE coalesce(p.time_zone, 'UTC'))::date) AS day,
        coalesce(s.supply_start, (SELECT (min(d.provisioned_at) AT TIME ZONE coalesce(p.time_zone, 'UTC'))::date
          FROM devices d WHERE d.patient_id = p.id AND d.provisioned_at IS NOT NULL AND d.kind IN ${RPM_KINDS})) AS supply_start
      FROM cand c JOIN patients p ON p.id = c.patient_id AND ${patientsOf(programId, assigneeId)}
      LEFT JOIN billing_supply_starts s ON s.patient_id = p.id
    ), fs AS MATERIALIZED (
      SELECT fb.*,
        CASE WHEN supply_start <= day THEN supply_start + ((day - supply_start) / 30) * 30 END AS p_start,
        CASE WHEN supply_start <= day THEN (day - supply_start) / 30 END AS p_index,
        date_trunc('month', day)::date AS m_start, (date_trunc('month', day) + interval '1 month - 1 day')::date AS m_end
      FROM fb
    ), facts AS MATERIALIZED (
      SELECT fs.id, fs.p_start, fs.p_index, (fs.p_start + 29 - fs.day + 1)::int AS left_days,
        coalesce((SELECT count(DISTINCT (m.measured_at AT TIME ZONE fs.tz)::date)::int FROM measurements m
          WHERE m.patient_id = fs.id AND m.device_id IS NOT NULL AND fs.p_start IS NOT NULL
            AND m.measured_at >= (fs.p_start - 1)::timestamptz AND m.measured_at < (fs.p_start + 31)::timestamptz
            AND (m.measured_at AT TIME ZONE fs.tz)::date BETWEEN fs.p_start AND fs.p_start + 29), 0) AS n,
        coalesce(t.rpm_secs, 0) AS rpm_secs, coalesce(t.rpm_int, false) AS rpm_int, coalesce(t.ccm_secs, 0) AS ccm_secs,
        coalesce((SELECT sum(e.seconds)::int FROM billing_time_entries e
          WHERE e.patient_id = fs.id AND ${PHYSICIAN_RPM} AND fs.p_start IS NOT NULL
            AND e.started_at >= (fs.p_start - 1)::timestamptz AND e.started_at < (fs.p_start + 31)::timestamptz
            AND (e.started_at AT TIME ZONE fs.tz)::date BETWEEN fs.p_start AND fs.p_start + 29), 0) AS phys_secs
      FROM fs LEFT JOIN LATERAL (
        SELECT sum(e.seconds) FILTER (WHERE e.type = 'rpm')::int AS rpm_secs,
          bool_or(e.interactive) FILTER (WHERE e.type = 'rpm') AS rpm_int,
          sum(e.seconds) FILTER (WHERE e.type = 'ccm')::int AS ccm_secs
        FROM billing_time_entries e
        WHERE e.patient_id = fs.id AND e.billable
          AND e.started_at >= (fs.m_start - 1)::timestamptz AND e.started_at < (fs.m_end + 2)::timestamptz
          AND (e.started_at AT TIME ZONE fs.tz)::date BETWEEN fs.m_start AND fs.m_end) t ON true
    )`;
}

/** Keyset paging: the patients after the cursor in name order (the row comparison the name index serves). */
function keysetAfter(cursor: string | undefined): SQL {
  if (!cursor) return sql`true`;
  const c = decodePeriodsCursor(cursor);
  return sql`(p.last_name, p.first_name, p.id) > (${c.last_name}::text, ${c.first_name}::text, ${c.id}::bigint)`;
}

/**
 * Where the page of patients comes from: the program (or one assignee's patients) by name, or, with a code or
 * status filter, the candidates whose facts match (`not_earning`: the program's patients without a match).
 */
function pageSource(programId: number, f: BillingPeriodsFilterQuery, limit: SQL): Source {
  const cols = sql`p.id, p.first_name, p.last_name, p.mrn, coalesce(p.time_zone, 'UTC') AS tz`;
  const scope = patientsOf(programId, f.assignee_id);
  const after = keysetAfter(f.cursor);
  if (!f.code && !f.status) {
    return {
      ctes: sql`pg AS (SELECT ${cols} FROM patients p WHERE ${scope} AND ${after} ${NAME_ORDER} ${limit})`,
      total: sql`(SELECT count(*)::int FROM patients p WHERE ${scope})`,
    };
  }
  const matched = sql`${factsCtes(programId, f.date ?? null, f.assignee_id)},
    matched AS MATERIALIZED (SELECT f.id FROM facts f WHERE ${filterPredicate(yearRules(f.date), f)})`;
  if (f.status === 'not_earning') {
    const none = f.code ? sql`false` : sql`true`;
    return {
      ctes: sql`${matched}, pg AS (SELECT ${cols} FROM patients p WHERE ${scope} AND ${none} AND ${after}
        AND NOT EXISTS (SELECT 1 FROM matched m WHERE m.id = p.id) ${NAME_ORDER} ${limit})`,
      total: f.code
        ? sql`0`
        : sql`((SELECT count(*)::int FROM patients p WHERE ${scope}) - (SELECT count(*)::int FROM matched))`,
    };
  }
  return {
    ctes: sql`${matched}, pg AS (SELECT ${cols} FROM matched m JOIN patients p ON p.id = m.id WHERE ${after}
      ${NAME_ORDER} ${limit})`,
    total: sql`(SELECT count(*)::int FROM matched)`,
  };
}

/** Given patients of the program (a batch of `matchingIds`), by name. */
function idsSource(programId: number, ids: readonly number[]): Source {
  return {
    ctes: sql`pg AS (SELECT p.id, p.first_name, p.last_name, p.mrn, coalesce(p.time_zone, 'UTC') AS tz
      FROM patients p WHERE p.program_id = ${programId} AND p.id = ANY(${`{${ids.join(',')}}`}::bigint[]) ${NAME_ORDER})`,
    total: sql`${ids.length}::int`,
  };
}

/**
 * Every patient matching the filters, in name order: one pass over the candidates' facts, so an export walks
 * the matches in batches (`periodPage` with `ids`) instead of computing the facts again for each batch.
 */
export async function matchingIds(db: Queryable, programId: number, q: BillingPeriodsFilterQuery) {
  const src = pageSource(programId, { ...q, cursor: undefined }, sql``);
  const res = await db.execute<{ id: number }>(
    sql`WITH ${src.ctes} SELECT pg.id FROM pg ORDER BY pg.last_name, pg.first_name, pg.id`,
  );
  return res.rows.map((r) => Number(r.id));
}

/**
 * One page of the program's patients (cut at the database by the name index, or among the patients whose facts
 * match the filters), then for those patients only: the device days (distinct local dates of device-transmitted
 * readings, `device_id` set) of the 30-day period holding the day, and the month's billable time entries. The
 * supply start is the staff-set date, else the local date the first device of the patient was provisioned
 * (ADR 072, ADR 080).
 */
export async function periodPage(
  db: Queryable,
  programId: number,
  q: BillingPeriodsFilterQuery,
  ids?: readonly number[],
) {
  const day = q.date ?? null;
  const offset = q.cursor ? 0 : (q.page - 1) * q.per_page;
  const src = ids
    ? idsSource(programId, ids)
    : pageSource(programId, q, sql`LIMIT ${q.per_page} OFFSET ${offset}`);
  const res = await db.execute<PageRow & { total: number }>(sql`
    WITH ${src.ctes}, base AS MATERIALIZED (
      SELECT pg.*, coalesce(${day}::date, (now() AT TIME ZONE pg.tz)::date) AS day,
        coalesce(s.supply_start, (SELECT (min(d.provisioned_at) AT TIME ZONE pg.tz)::date
          FROM devices d WHERE d.patient_id = pg.id AND d.provisioned_at IS NOT NULL AND d.kind IN ${RPM_KINDS})) AS supply_start,
        CASE WHEN s.patient_id IS NOT NULL THEN 'staff'
          WHEN EXISTS (SELECT 1 FROM devices d WHERE d.patient_id = pg.id AND d.provisioned_at IS NOT NULL
            AND d.kind IN ${RPM_KINDS}) THEN 'device'
        END AS source
      FROM pg LEFT JOIN billing_supply_starts s ON s.patient_id = pg.id
    ), spans AS MATERIALIZED (
      SELECT base.*,
        CASE WHEN supply_start <= day THEN supply_start + ((day - supply_start) / 30) * 30 END AS p_start,
        date_trunc('month', day)::date AS month_start,
        (date_trunc('month', day) + interval '1 month - 1 day')::date AS month_end
      FROM base
    )
    SELECT s.id, s.first_name, s.last_name, s.mrn, s.tz, s.day::text AS day, s.supply_start::text AS supply_start,
      s.source, s.month_start::text AS month_start, s.month_end::text AS month_end,
      (SELECT array_agg(DISTINCT (m.measured_at AT TIME ZONE s.tz)::date::text)
        FROM measurements m
        WHERE m.patient_id = s.id AND m.device_id IS NOT NULL AND s.p_start IS NOT NULL
          AND m.measured_at >= (s.p_start - 1)::timestamptz AND m.measured_at < (s.p_start + 31)::timestamptz
          AND (m.measured_at AT TIME ZONE s.tz)::date BETWEEN s.p_start AND s.p_start + 29) AS dates,
      (SELECT json_agg(json_build_object('id', e.id, 'type', e.type, 'started_at', ${isoUtc(sql`e.started_at`)},
          'seconds', e.seconds, 'interactive', e.interactive) ORDER BY e.started_at, e.id)
        FROM billing_time_entries e
        WHERE e.patient_id = s.id AND e.billable
          AND e.started_at >= (s.month_start - 1)::timestamptz AND e.started_at < (s.month_end + 2)::timestamptz
          AND (e.started_at AT TIME ZONE s.tz)::date BETWEEN s.month_start AND s.month_end) AS entries,
      (SELECT json_agg(json_build_object('id', e.id, 'type', e.type, 'started_at', ${isoUtc(sql`e.started_at`)},
          'seconds', e.seconds, 'interactive', e.interactive) ORDER BY e.started_at, e.id)
        FROM billing_time_entries e
        WHERE e.patient_id = s.id AND ${PHYSICIAN_RPM} AND s.p_start IS NOT NULL
          AND e.started_at >= (s.p_start - 1)::timestamptz AND e.started_at < (s.p_start + 31)::timestamptz
          AND (e.started_at AT TIME ZONE s.tz)::date BETWEEN s.p_start AND s.p_start + 29) AS physician,
      ${src.total} AS total
    FROM spans s ORDER BY s.last_name, s.first_name, s.id`);
  const total = res.rows[0]?.total ?? (await countOf(db, programId, q));
  return { rows: res.rows, total };
}

/** The total when the page is past the end (no row carried it). */
async function countOf(db: Queryable, programId: number, q: BillingPeriodsFilterQuery): Promise<number> {
  const src = pageSource(programId, { ...q, cursor: undefined }, sql`LIMIT 0`);
  const r = await db.execute<{ n: number }>(sql`WITH ${src.ctes} SELECT ${src.total} AS n`);
  return Number(r.rows[0]?.n ?? 0);
}
