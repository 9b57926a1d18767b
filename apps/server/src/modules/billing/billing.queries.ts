import type { BillingRow, BillingStatus, TimeEntry } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { containsPattern } from '../../platform/db/like';
import { isoUtc } from '../../platform/db/time';

/** A time entry belongs to its patient's program (DELETE billing/{entryId}). */
export const timeEntryKind = defineObjectKind(
  'billing time entry',
  (id) => sql`(SELECT program_id FROM billing_time_entries WHERE id = ${id})`,
);

export type ReportFilter = {
  programId: number;
  start: string;
  end: string;
  patientId?: number;
  search?: string;
  status?: BillingStatus;
  onlyBillable?: boolean;
};

/** The filtered patients of the report (`p` joined to their billing status `bs`). */
function patientFilter(f: ReportFilter): SQL {
  const pattern = f.search ? containsPattern(f.search) : null;
  return sql`p.program_id = ${f.programId}
        ${f.patientId ? sql`AND p.id = ${f.patientId}` : sql``}
        ${f.status ? sql`AND coalesce(bs.status, 'billable') = ${f.status}` : sql``}
        ${pattern ? sql`AND (p.last_name || ', ' || p.first_name ILIKE ${pattern} OR p.first_name || ' ' || p.last_name ILIKE ${pattern} OR p.mrn ILIKE ${pattern})` : sql``}`;
}
const PATIENTS = sql`patients p LEFT JOIN patient_billing_status bs ON bs.patient_id = p.id`;
const TZ = sql`coalesce(p.time_zone, 'UTC')`;

/**
 * Per patient of the program with any activity over [start, end] (days in the patient's zone): days with
 * readings, RPM and CCM minutes, physicians' RPM minutes, whether an RPM contact was interactive, and the
 * units of each code (ADR 041). The rules live here only. A patient without readings or minutes in the period
 * earns no code and has a row of zeros, so only the active ones are computed (`scored`): at 100,000 patients
 * computing every row and cutting the page after took 0.7-1.5 s; the active ones are those with readings or
 * time entries in the month.
 */
function reportRows(f: ReportFilter): SQL {
  return sql`
    WITH days AS (
      SELECT m.patient_id, count(DISTINCT (m.measured_at AT TIME ZONE ${TZ})::date)::int AS n
      FROM measurements m JOIN (${PATIENTS}) ON p.id = m.patient_id
      WHERE ${patientFilter(f)}
        AND m.measured_at >= (${f.start}::date - 1)::timestamptz AND m.measured_at < (${f.end}::date + 2)::timestamptz
        AND (m.measured_at AT TIME ZONE ${TZ})::date BETWEEN ${f.start}::date AND ${f.end}::date
      GROUP BY m.patient_id
    ), firsts AS (
      SELECT d.patient_id, (SELECT min(m.measured_at) FROM measurements m WHERE m.patient_id = d.patient_id) AS first_at
      FROM days d WHERE d.n >= 16
    ), mins AS (
      SELECT e.patient_id,
        coalesce(sum(e.seconds) FILTER (WHERE e.type = 'rpm'), 0) / 60.0 AS rpm,
        coalesce(bool_or(e.interactive) FILTER (WHERE e.type = 'rpm'), false) AS rpm_interactive,
        coalesce(sum(e.seconds) FILTER (WHERE e.type = 'rpm' AND EXISTS (
          SELECT 1 FROM admin_program_roles r
          WHERE r.admin_id = e.admin_id AND r.program_id = e.program_id AND r.role = 'physician')), 0) / 60.0 AS physician,
        coalesce(sum(e.seconds) FILTER (WHERE e.type = 'ccm'), 0) / 60.0 AS ccm
      FROM billing_time_entries e JOIN (${PATIENTS}) ON p.id = e.patient_id
      WHERE ${patientFilter(f)}
        AND e.billable AND e.started_at >= (${f.start}::date - 1)::timestamptz AND e.started_at < (${f.end}::date + 2)::timestamptz
        AND (e.started_at AT TIME ZONE ${TZ})::date BETWEEN ${f.start}::date AND ${f.end}::date
      GROUP BY e.patient_id
    ), active AS (
      SELECT patient_id FROM days UNION SELECT patient_id FROM mins
    ), rows AS (
      SELECT p.id, p.first_name, p.last_name, p.mrn, coalesce(bs.status, 'billable') AS status,
        coalesce(d.n, 0) AS reading_days,
        round(coalesce(mi.rpm, 0), 1)::float8 AS rpm_minutes,
        coalesce(mi.rpm_interactive, false) AS rpm_interactive,
        round(coalesce(mi.physician, 0), 1)::float8 AS physician_minutes,
        round(coalesce(mi.ccm, 0), 1)::float8 AS ccm_minutes,
        (CASE WHEN fi.first_at IS NOT NULL AND (fi.first_at AT TIME ZONE ${TZ})::date >= ${f.start}::date THEN 1 ELSE 0 END) AS c99453,
        (CASE WHEN coalesce(d.n, 0) >= 16 THEN 1 ELSE 0 END) AS c99454,
        (CASE WHEN coalesce(mi.rpm, 0) >= 20 AND mi.rpm_interactive THEN 1 ELSE 0 END) AS c99457,
        (CASE WHEN coalesce(mi.rpm, 0) >= 40 AND mi.rpm_interactive THEN least(2, floor((mi.rpm - 20) / 20))::int ELSE 0 END) AS c99458,
        (CASE WHEN coalesce(mi.physician, 0) >= 30 THEN 1 ELSE 0 END) AS c99091,
        (CASE WHEN coalesce(mi.ccm, 0) >= 20 THEN 1 ELSE 0 END) AS c99490,
        (CASE WHEN coalesce(mi.ccm, 0) >= 40 THEN least(2, floor((mi.ccm - 20) / 20))::int ELSE 0 END) AS c99439
      FROM active x JOIN (${PATIENTS}) ON p.id = x.patient_id
        LEFT JOIN days d ON d.patient_id = p.id
        LEFT JOIN firsts fi ON fi.patient_id = p.id
        LEFT JOIN mins mi ON mi.patient_id = p.id
    ), scored AS MATERIALIZED (
      SELECT rows.*, (c99453 + c99454 + c99457 + c99458 + c99091 + c99490 + c99439) > 0 AS earns FROM rows
    )`;
}

export const CODE_COLUMNS = ['99453', '99454', '99457', '99458', '99091', '99490', '99439'] as const;

type RawRow = {
  id: number;
  first_name: string;
  last_name: string;
  mrn: string | null;
  status: BillingStatus;
  reading_days: number;
  rpm_minutes: number;
  rpm_interactive: boolean;
  physician_minutes: number;
  ccm_minutes: number;
  earns: boolean;
} & Record<`c${(typeof CODE_COLUMNS)[number]}`, number>;

function toRow(r: RawRow): BillingRow {
  return {
    patient: { id: Number(r.id), first_name: r.first_name, last_name: r.last_name, mrn: r.mrn },
    status: r.status,
    reading_days: r.reading_days,
    rpm_minutes: r.rpm_minutes,
    rpm_interactive: r.rpm_interactive,
    physician_minutes: r.physician_minutes,
    ccm_minutes: r.ccm_minutes,
    codes: CODE_COLUMNS.filter((c) => r[`c${c}`] > 0).map((c) => ({ code: c, units: r[`c${c}`] })),
    billable: r.status === 'billable' && r.earns,
  };
}

export type ReportSummary = {
  patients: number;
  billable_patients: number;
  rpm_minutes: number;
  ccm_minutes: number;
  codes: Record<string, number>;
};

/**
 * One page of the report and the summary of every filtered patient (codes of billable patients only), in one
 * statement. The summary adds up the active patients (the others add nothing); the page is cut from the
 * filtered patients in name order and joined to their computed rows, so a page past the end still has the
 * totals. `page` null: every filtered patient (exports, scheduled reports).
 */
export async function billingReport(
  db: Queryable,
  f: ReportFilter,
  page: { page: number; perPage: number } | null,
): Promise<{ rows: BillingRow[]; total: number; summary: ReportSummary }> {
  const billable = sql`status = 'billable'`;
  const cut = page ? sql`LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}` : sql``;
  const zeros = CODE_COLUMNS.map((c) => sql`coalesce(s.${sql.raw(`c${c}`)}, 0) AS ${sql.raw(`c${c}`)}`);
  const res = await db.execute<
    Omit<RawRow, 'id'> & { id: number | null } & {
      total: number;
      billable_patients: number;
      sum_rpm: number;
      sum_ccm: number;
    } & Record<`s${(typeof CODE_COLUMNS)[number]}`, number>
  >(sql`
    ${reportRows(f)}, summary AS (
      SELECT (count(*) FILTER (WHERE ${billable} AND earns))::int AS billable_patients,
        coalesce(sum(rpm_minutes), 0)::float8 AS sum_rpm, coalesce(sum(ccm_minutes), 0)::float8 AS sum_ccm,
        ${sql.join(
          CODE_COLUMNS.map(
            (c) =>
              sql`(coalesce(sum(${sql.raw(`c${c}`)}) FILTER (WHERE ${billable}), 0))::int AS ${sql.raw(`s${c}`)}`,
          ),
          sql`, `,
        )}
      FROM scored ${f.onlyBillable ? sql`WHERE earns` : sql``}
    ), counted AS (
      SELECT ${
        f.onlyBillable
          ? sql`(SELECT count(*) FROM scored WHERE earns)`
          : sql`(SELECT count(*) FROM ${PATIENTS} WHERE ${patientFilter(f)})`
      }::int AS total
    ), page AS (
      ${
        f.onlyBillable
          ? sql`SELECT * FROM scored WHERE earns ORDER BY last_name, first_name, id ${cut}`
          : sql`SELECT p.id, p.first_name, p.last_name, p.mrn, coalesce(bs.status, 'billable') AS status,
              coalesce(s.reading_days, 0) AS reading_days, coalesce(s.rpm_minutes, 0)::float8 AS rpm_minutes,
              coalesce(s.rpm_interactive, false) AS rpm_interactive,
              coalesce(s.physician_minutes, 0)::float8 AS physician_minutes,
              coalesce(s.ccm_minutes, 0)::float8 AS ccm_minutes, ${sql.join(zeros, sql`, `)},
              coalesce(s.earns, false) AS earns
            FROM ${PATIENTS} LEFT JOIN scored s ON s.id = p.id
            WHERE ${patientFilter(f)}
            ORDER BY p.last_name, p.first_name, p.id ${cut}`
      }
    )
    SELECT summary.*, counted.total, page.*
    FROM summary CROSS JOIN counted LEFT JOIN page ON true
    ORDER BY page.last_name, page.first_name, page.id`);
  const first = res.rows[0];
  const summary: ReportSummary = {
    patients: first?.total ?? 0,
    billable_patients: first?.billable_patients ?? 0,
    rpm_minutes: Math.round((first?.sum_rpm ?? 0) * 10) / 10,
    ccm_minutes: Math.round((first?.sum_ccm ?? 0) * 10) / 10,
    codes: Object.fromEntries(CODE_COLUMNS.map((c) => [c, first?.[`s${c}`] ?? 0])),
  };
  const rows = res.rows.filter((r): r is typeof r & { id: number } => r.id !== null);
  return { rows: rows.map(toRow), total: first?.total ?? 0, summary };
}

export async function insertTimeEntry(
  db: Queryable,
  e: {
    programId: number;
    patientId: number;
    adminId: number;
    type: string;
    activity: string;
    interactive: boolean;
    billable: boolean;
    startedAt: string;
    endedAt: string;
    note: string | null;
    source: string;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO billing_time_entries (program_id, patient_id, admin_id, type, activity, interactive, billable, started_at,
      ended_at, seconds, note, source)
    VALUES (${e.programId}, ${e.patientId}, ${e.adminId}, ${e.type}, ${e.activity}, ${e.interactive}, ${e.billable},
      ${e.startedAt}::timestamptz,
      ${e.endedAt}::timestamptz, round(extract(epoch FROM ${e.endedAt}::timestamptz - ${e.startedAt}::timestamptz))::int,
      ${e.note}, ${e.source})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

/** The author's entry (any patient) that overlaps [start, end), if any. */
export async function overlappingEntry(
  db: Queryable,
  adminId: number,
  start: string,
  end: string,
): Promise<{ id: number; started_at: string; ended_at: string } | null> {
  const res = await db.execute<{ id: number; started_at: string; ended_at: string }>(sql`
    SELECT id, ${isoUtc(sql`started_at`)} AS started_at, ${isoUtc(sql`ended_at`)} AS ended_at
    FROM billing_time_entries
    WHERE admin_id = ${adminId} AND started_at < ${end}::timestamptz AND ended_at > ${start}::timestamptz
    ORDER BY started_at LIMIT 1`);
  return res.rows[0] ?? null;
}

const ENTRY_COLUMNS = sql`
  e.id, e.patient_id, e.type, e.activity, e.interactive, e.billable, ${isoUtc(sql`e.started_at`)} AS started_at,
  ${isoUtc(sql`e.ended_at`)} AS ended_at, e.seconds, e.note, e.source,
  json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) AS admin, ${isoUtc(sql`e.created_at`)} AS created_at`;

export async function timeEntryById(
  db: Queryable,
  id: number,
): Promise<(TimeEntry & { admin_id: number }) | null> {
  const res = await db.execute<TimeEntry & { admin_id: number }>(sql`
    SELECT ${ENTRY_COLUMNS}, e.admin_id FROM billing_time_entries e JOIN admins a ON a.id = e.admin_id WHERE e.id = ${id}`);
  const row = res.rows[0];
  return row
    ? { ...row, id: Number(row.id), patient_id: Number(row.patient_id), admin_id: Number(row.admin_id) }
    : null;
}

/** A patient's entries in [start, end] (their zone), newest first, paged. */
export async function patientEntries(
  db: Queryable,
  q: { patientId: number; start: string; end: string; type?: string; page: number; perPage: number },
): Promise<{ rows: TimeEntry[]; total: number }> {
  const res = await db.execute<TimeEntry & { total: number }>(sql`
    SELECT ${ENTRY_COLUMNS}, count(*) OVER ()::int AS total
    FROM billing_time_entries e JOIN admins a ON a.id = e.admin_id JOIN patients p ON p.id = e.patient_id
    WHERE e.patient_id = ${q.patientId}
      AND (e.started_at AT TIME ZONE coalesce(p.time_zone, 'UTC'))::date BETWEEN ${q.start}::date AND ${q.end}::date
      ${q.type ? sql`AND e.type = ${q.type}` : sql``}
    ORDER BY e.started_at DESC, e.id DESC
    LIMIT ${q.perPage} OFFSET ${(q.page - 1) * q.perPage}`);
  return {
    rows: res.rows.map(({ total: _t, ...r }) => ({
      ...r,
      id: Number(r.id),
      patient_id: Number(r.patient_id),
    })),
    total: res.rows[0]?.total ?? 0,
  };
}

/** Minutes per staff member on the patient in the period. */
export async function minutesByAdmin(
  db: Queryable,
  q: { patientId: number; start: string; end: string; type?: string },
) {
  const res = await db.execute<{
    id: number;
    name: string;
    minutes: number;
    interactive_minutes: number;
  }>(sql`
    SELECT a.id, a.given_name || ' ' || a.family_name AS name,
      round(coalesce(sum(e.seconds) FILTER (WHERE e.billable), 0) / 60.0, 1)::float8 AS minutes,
      round(coalesce(sum(e.seconds) FILTER (WHERE e.billable AND e.interactive), 0) / 60.0, 1)::float8 AS interactive_minutes
    FROM billing_time_entries e JOIN admins a ON a.id = e.admin_id JOIN patients p ON p.id = e.patient_id
    WHERE e.patient_id = ${q.patientId}
      AND (e.started_at AT TIME ZONE coalesce(p.time_zone, 'UTC'))::date BETWEEN ${q.start}::date AND ${q.end}::date
      ${q.type ? sql`AND e.type = ${q.type}` : sql``}
    GROUP BY a.id ORDER BY minutes DESC, a.id`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function deleteTimeEntry(db: Queryable, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM billing_time_entries WHERE id = ${id}`);
}

export async function upsertBillingStatus(
  db: Queryable,
  s: { patientId: number; programId: number; status: BillingStatus; reason: string | null; adminId: number },
): Promise<void> {
  await db.execute(sql`
    INSERT INTO patient_billing_status (patient_id, program_id, status, reason, updated_by)
    VALUES (${s.patientId}, ${s.programId}, ${s.status}, ${s.reason}, ${s.adminId})
    ON CONFLICT (patient_id) DO UPDATE SET status = excluded.status, reason = excluded.reason,
      updated_by = excluded.updated_by, updated_at = now(), program_id = excluded.program_id`);
}

export async function billingStatusOf(db: Queryable, patientId: number): Promise<BillingStatus> {
  const res = await db.execute<{ status: BillingStatus }>(
    sql`SELECT status FROM patient_billing_status WHERE patient_id = ${patientId}`,
  );
  return res.rows[0]?.status ?? 'billable';
}

export async function statusCounts(db: Queryable, programId: number) {
  const res = await db.execute<{ status: BillingStatus; patients: number }>(sql`
    SELECT coalesce(bs.status, 'billable') AS status, count(*)::int AS patients
    FROM patients p LEFT JOIN patient_billing_status bs ON bs.patient_id = p.id
    WHERE p.program_id = ${programId} GROUP BY 1`);
  return res.rows;
}

/** The same status for many patients of the program (bulk actions); returns how many rows were written. */
export async function upsertBillingStatuses(
  db: Queryable,
  s: { patientIds: number[]; programId: number; status: BillingStatus; adminId: number },
): Promise<number> {
  const res = await db.execute(sql`
    INSERT INTO patient_billing_status (patient_id, program_id, status, reason, updated_by)
    SELECT x, ${s.programId}, ${s.status}, NULL, ${s.adminId} FROM unnest(${idArray(s.patientIds)}::bigint[]) AS x
    ON CONFLICT (patient_id) DO UPDATE SET status = excluded.status, program_id = excluded.program_id,
      reason = NULL, updated_by = excluded.updated_by, updated_at = now()`);
  return res.rowCount ?? 0;
}
