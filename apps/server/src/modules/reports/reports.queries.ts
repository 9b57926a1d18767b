import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { OUT_OF_RANGE } from '../adherence/kpi.queries';

export type RunRow = {
  id: number;
  report_id: number | null;
  program_id: number;
  kind: 'report' | 'patient_pdf' | 'patients_pdf' | 'patients_csv';
  patient_id: number | null;
  requested_by: number;
  requested_by_name: string;
  period_start: string;
  period_end: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  attempts: number;
  error: string | null;
  file_key: string | null;
  file_name: string | null;
  bytes: number | null;
  rows: number | null;
  delivery: 'none' | 'pending' | 'sent' | 'failed';
  delivery_error: string | null;
  created_at: string;
  finished_at: string | null;
};

export type ReportRow = {
  id: number;
  program_id: number;
  enterprise_id: number | null;
  name: string;
  type: string;
  audience: 'care' | 'pharma';
  format: 'xlsx' | 'csv';
  period: 'last_7_days' | 'last_30_days' | 'last_month' | 'custom';
  start: string | null;
  end: string | null;
  recurrence: 'none' | 'daily' | 'weekly' | 'monthly';
  recurrence_state: 'running' | 'paused' | 'stopped';
  next_run_at: string | null;
  destination_id: number | null;
  destination_name: string | null;
  created_by: number;
  created_by_name: string;
  created_at: string;
  failed_runs: number;
  last_run: RunRow | null;
};

const runColumns = sql`r.id, r.report_id, r.program_id, r.kind, r.patient_id, r.requested_by,
  a.given_name || ' ' || a.family_name AS requested_by_name,
  to_char(r.period_start, 'YYYY-MM-DD') AS period_start, to_char(r.period_end, 'YYYY-MM-DD') AS period_end,
  r.status, r.attempts, r.error, r.file_key, r.file_name, r.bytes, r.rows, r.delivery, r.delivery_error,
  r.created_at, r.finished_at`;

/** Reports of a program with their newest run and failure count, in one statement (no query per row). */
function reportSelect(where: SQL, tail: SQL = sql``): SQL {
  return sql`
    SELECT rep.id, rep.program_id, pr.enterprise_id, rep.name, rep.type, rep.audience, rep.format, rep.period,
      to_char(rep.start_date, 'YYYY-MM-DD') AS start, to_char(rep.end_date, 'YYYY-MM-DD') AS "end",
      rep.recurrence, rep.recurrence_state, rep.next_run_at, rep.destination_id, d.name AS destination_name,
      rep.created_by, c.given_name || ' ' || c.family_name AS created_by_name, rep.created_at,
      (SELECT count(*)::int FROM report_runs f WHERE f.report_id = rep.id
        AND (f.status = 'failed' OR f.delivery = 'failed')) AS failed_runs,
      (SELECT to_jsonb(x) FROM (SELECT ${runColumns} FROM report_runs r JOIN admins a ON a.id = r.requested_by
        WHERE r.report_id = rep.id ORDER BY r.id DESC LIMIT 1) x) AS last_run
    FROM reports rep
    JOIN programs pr ON pr.id = rep.program_id
    JOIN admins c ON c.id = rep.created_by
    LEFT JOIN report_destinations d ON d.id = rep.destination_id AND d.deleted_at IS NULL
    WHERE ${where}
    ${tail}`;
}

export async function listReports(
  db: Queryable,
  f: {
    programId: number;
    audiences: readonly string[];
    userId?: number;
    type?: string;
    enterpriseId?: number;
    page: number;
    perPage: number;
  },
): Promise<{ rows: ReportRow[]; total: number }> {
  const where = sql.join(
    [
      sql`rep.program_id = ${f.programId}`,
      sql`rep.audience = ANY(${`{${f.audiences.join(',')}}`}::text[])`,
      ...(f.userId ? [sql`rep.created_by = ${f.userId}`] : []),
      ...(f.type ? [sql`rep.type = ${f.type}`] : []),
      ...(f.enterpriseId ? [sql`pr.enterprise_id = ${f.enterpriseId}`] : []),
    ],
    sql` AND `,
  );
  const [rows, total] = await Promise.all([
    db.execute<ReportRow>(
      reportSelect(where, sql`ORDER BY rep.id DESC LIMIT ${f.perPage} OFFSET ${(f.page - 1) * f.perPage}`),
    ),
    db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM reports rep JOIN programs pr ON pr.id = rep.program_id WHERE ${where}`),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

export async function findReport(db: Queryable, id: number): Promise<ReportRow | null> {
  const res = await db.execute<ReportRow>(reportSelect(sql`rep.id = ${id}`));
  return res.rows[0] ?? null;
}

export async function runsOfReport(db: Queryable, reportId: number, limit: number, failed?: string) {
  const filter =
    failed === 'generation'
      ? sql`AND r.status = 'failed'`
      : failed === 'delivery'
        ? sql`AND r.delivery = 'failed'`
        : failed === 'any'
          ? sql`AND (r.status = 'failed' OR r.delivery = 'failed')`
          : sql``;
  const res = await db.execute<RunRow>(sql`
    SELECT ${runColumns} FROM report_runs r JOIN admins a ON a.id = r.requested_by
    WHERE r.report_id = ${reportId} ${filter} ORDER BY r.id DESC LIMIT ${limit}`);
  return res.rows;
}

export async function findRun(db: Queryable, id: number): Promise<RunRow | null> {
  const res = await db.execute<RunRow>(sql`
    SELECT ${runColumns} FROM report_runs r JOIN admins a ON a.id = r.requested_by WHERE r.id = ${id}`);
  return res.rows[0] ?? null;
}

export async function insertReport(
  db: Queryable,
  r: {
    programId: number;
    name: string;
    type: string;
    audience: string;
    format: string;
    period: string;
    start: string | null;
    end: string | null;
    recurrence: string;
    nextRunAt: Date | null;
    destinationId: number | null;
    createdBy: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO reports (program_id, name, type, audience, format, period, start_date, end_date, recurrence,
      next_run_at, destination_id, created_by)
    VALUES (${r.programId}, ${r.name}, ${r.type}, ${r.audience}, ${r.format}, ${r.period}, ${r.start}, ${r.end},
      ${r.recurrence}, ${r.nextRunAt?.toISOString() ?? null}, ${r.destinationId}, ${r.createdBy})
    RETURNING id`);
  return res.rows[0]!.id;
}

export async function insertRun(
  db: Queryable,
  r: {
    reportId: number | null;
    programId: number;
    kind: RunRow['kind'];
    patientId: number | null;
    requestedBy: number;
    start: string;
    end: string;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO report_runs (report_id, program_id, kind, patient_id, requested_by, period_start, period_end)
    VALUES (${r.reportId}, ${r.programId}, ${r.kind}, ${r.patientId}, ${r.requestedBy}, ${r.start}, ${r.end})
    RETURNING id`);
  return res.rows[0]!.id;
}

export async function setRecurrenceState(db: Queryable, id: number, state: 'running' | 'paused' | 'stopped') {
  await db.execute(sql`
    UPDATE reports SET recurrence_state = ${state},
      next_run_at = CASE WHEN ${state} = 'stopped' THEN NULL ELSE next_run_at END
    WHERE id = ${id}`);
}

/**
 * Recurring reports that are due get a queued run, and their next run moves on by whole steps past now,
 * in one statement (a server that was down for three days makes one run, not three). Returns the runs made.
 */
export async function queueDueRecurrences(db: Queryable, now: Date): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    WITH due AS (
      SELECT id, program_id, created_by, recurrence, next_run_at FROM reports
      WHERE recurrence <> 'none' AND recurrence_state = 'running' AND next_run_at <= ${now.toISOString()}
      FOR UPDATE SKIP LOCKED
    ), moved AS (
      UPDATE reports rep SET next_run_at = rep.next_run_at + step.i * (
          floor(extract(epoch FROM (${now.toISOString()}::timestamptz - rep.next_run_at))
            / extract(epoch FROM step.i))::int + 1)
      FROM due, LATERAL (SELECT CASE due.recurrence WHEN 'daily' THEN interval '1 day'
        WHEN 'weekly' THEN interval '7 days' ELSE interval '1 month' END AS i) step
      WHERE rep.id = due.id
      RETURNING rep.id
    )
    INSERT INTO report_runs (report_id, program_id, kind, requested_by, period_start, period_end)
    SELECT due.id, due.program_id, 'report', due.created_by, CURRENT_DATE, CURRENT_DATE FROM due
    JOIN moved ON moved.id = due.id
    RETURNING id`);
  return res.rows.length;
}

/** Claims the oldest queued run (SKIP LOCKED: several runners never take the same one). */
export async function claimQueuedRun(db: Queryable): Promise<RunRow | null> {
  const res = await db.execute<{ id: number }>(sql`
    UPDATE report_runs SET status = 'running', started_at = now(), attempts = attempts + 1
    WHERE id = (SELECT id FROM report_runs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id`);
  const id = res.rows[0]?.id;
  return id ? findRun(db, id) : null;
}

export async function setRunPeriod(db: Queryable, id: number, start: string, end: string) {
  await db.execute(sql`UPDATE report_runs SET period_start = ${start}, period_end = ${end} WHERE id = ${id}`);
}

/** Marks a run done unless it was cancelled meanwhile; false when cancelled (the file must go). */
export async function finishRun(
  db: Queryable,
  id: number,
  f: { key: string; name: string; bytes: number; rows: number; deliver: boolean },
): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE report_runs SET status = 'done', finished_at = now(), error = NULL, file_key = ${f.key},
      file_name = ${f.name}, bytes = ${f.bytes}, rows = ${f.rows},
      delivery = ${f.deliver ? 'pending' : 'none'}
    WHERE id = ${id} AND status = 'running'`);
  return (res.rowCount ?? 0) > 0;
}

export async function failRun(db: Queryable, id: number, error: string) {
  await db.execute(sql`
    UPDATE report_runs SET status = 'failed', finished_at = now(), error = ${error}
    WHERE id = ${id} AND status = 'running'`);
}

export async function cancelRun(db: Queryable, id: number): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE report_runs SET status = 'cancelled', finished_at = now()
    WHERE id = ${id} AND status IN ('queued', 'running')`);
  return (res.rowCount ?? 0) > 0;
}

export async function isCancelled(db: Queryable, id: number): Promise<boolean> {
  const res = await db.execute<{ status: string }>(sql`SELECT status FROM report_runs WHERE id = ${id}`);
  return res.rows[0]?.status === 'cancelled';
}

/** An upload 'sending' for longer than this was cut off (a crash, a lost connection): it is taken up again. */
export const DELIVERY_STALE_MINUTES = 10;

/**
 * A run whose file waits for delivery to an SFTP destination, with where to: claimed as 'sending' (SKIP
 * LOCKED); marked 'sent' only once the upload finished. Uploads write `.part` then rename, so sending again
 * after a cut-off upload is safe.
 */
export async function claimPendingDelivery(db: Queryable) {
  const res = await db.execute<{
    id: number;
    file_key: string;
    file_name: string;
    destination_id: number | null;
    host: string | null;
    port: number | null;
    username: string | null;
    sealed_password: string | null;
    directory: string | null;
    host_key: string | null;
  }>(sql`
    UPDATE report_runs r SET delivery = 'sending', delivery_started_at = now()
    FROM (SELECT r2.id FROM report_runs r2
      WHERE r2.delivery = 'pending'
        OR (r2.delivery = 'sending' AND r2.delivery_started_at < now() - make_interval(mins => ${DELIVERY_STALE_MINUTES}))
      ORDER BY r2.id LIMIT 1
      FOR UPDATE SKIP LOCKED) pick, reports rep
    LEFT JOIN report_destinations d ON d.id = rep.destination_id AND d.deleted_at IS NULL
    WHERE r.id = pick.id AND rep.id = r.report_id
    RETURNING r.id, r.file_key, r.file_name, d.id AS destination_id, d.host, d.port, d.username,
      d.sealed_password, d.directory, d.host_key`);
  return res.rows[0] ?? null;
}

export async function setDelivery(db: Queryable, id: number, ok: boolean, error: string | null) {
  await db.execute(sql`
    UPDATE report_runs SET delivery = ${ok ? 'sent' : 'failed'}, delivery_error = ${error} WHERE id = ${id}`);
}

export async function retryRuns(db: Queryable, reportId: number, type?: 'generation' | 'delivery') {
  const res = await db.execute<{ n: number }>(sql`
    WITH gen AS (
      UPDATE report_runs SET status = 'queued', error = NULL, finished_at = NULL
      WHERE report_id = ${reportId} AND status = 'failed' AND ${type !== 'delivery'}
      RETURNING id
    ), del AS (
      UPDATE report_runs SET delivery = 'pending', delivery_error = NULL
      WHERE report_id = ${reportId} AND delivery = 'failed' AND status = 'done' AND ${type !== 'generation'}
      RETURNING id
    )
    SELECT ((SELECT count(*) FROM gen) + (SELECT count(*) FROM del))::int AS n`);
  return res.rows[0]?.n ?? 0;
}

export async function patientReports(
  db: Queryable,
  programId: number,
  patientId: number | null,
  kinds: readonly RunRow['kind'][],
) {
  const res = await db.execute<RunRow>(sql`
    SELECT ${runColumns} FROM report_runs r JOIN admins a ON a.id = r.requested_by
    WHERE r.program_id = ${programId} AND r.kind = ANY(${`{${kinds.join(',')}}`}::text[])
      AND ${patientId === null ? sql`r.patient_id IS NULL` : sql`r.patient_id = ${patientId}`}
    ORDER BY r.id DESC LIMIT 50`);
  return res.rows;
}

export async function latestCsvOf(db: Queryable, programId: number, adminId: number, activeOnly: boolean) {
  const res = await db.execute<RunRow>(sql`
    SELECT ${runColumns} FROM report_runs r JOIN admins a ON a.id = r.requested_by
    WHERE r.program_id = ${programId} AND r.kind = 'patients_csv' AND r.requested_by = ${adminId}
      ${activeOnly ? sql`AND r.status IN ('queued', 'running')` : sql``}
    ORDER BY r.id DESC LIMIT 1`);
  return res.rows[0] ?? null;
}

export async function patientInProgram(db: Queryable, programId: number, patientId: number) {
  const res = await db.execute<{ id: number }>(sql`
    SELECT id FROM patients WHERE id = ${patientId} AND program_id = ${programId}`);
  return res.rows.length > 0;
}

// ---- destinations ----

export async function listDestinations(db: Queryable, enterpriseId: number) {
  const res = await db.execute<{
    id: number;
    enterprise_id: number;
    name: string;
    host: string;
    port: number;
    username: string;
    directory: string;
    host_key: string | null;
    created_at: string;
  }>(sql`
    SELECT id, enterprise_id, name, host, port, username, directory, host_key, created_at FROM report_destinations
    WHERE enterprise_id = ${enterpriseId} AND deleted_at IS NULL ORDER BY name, id`);
  return res.rows;
}

export async function findDestination(db: Queryable, enterpriseId: number, id: number) {
  const res = await db.execute<{
    id: number;
    name: string;
    host: string;
    port: number;
    username: string;
    sealed_password: string;
    directory: string;
    host_key: string | null;
  }>(sql`
    SELECT id, name, host, port, username, sealed_password, directory, host_key FROM report_destinations
    WHERE id = ${id} AND enterprise_id = ${enterpriseId} AND deleted_at IS NULL`);
  return res.rows[0] ?? null;
}

export async function insertDestination(
  db: Queryable,
  d: {
    enterpriseId: number;
    name: string;
    host: string;
    port: number;
    username: string;
    sealedPassword: string;
    directory: string;
    hostKey: string | null;
    createdBy: number;
  },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO report_destinations (enterprise_id, name, host, port, username, sealed_password, directory, host_key,
      created_by)
    VALUES (${d.enterpriseId}, ${d.name}, ${d.host}, ${d.port}, ${d.username}, ${d.sealedPassword}, ${d.directory},
      ${d.hostKey}, ${d.createdBy})
    RETURNING id`);
  return res.rows[0]!.id;
}

/** Sets (or clears) the host key the destination's server must present; false when no such destination. */
export async function setDestinationHostKey(
  db: Queryable,
  enterpriseId: number,
  id: number,
  hostKey: string | null,
) {
  const res = await db.execute(sql`
    UPDATE report_destinations SET host_key = ${hostKey}
    WHERE id = ${id} AND enterprise_id = ${enterpriseId} AND deleted_at IS NULL RETURNING id`);
  return res.rows.length > 0;
}

/** Trust on first use: the key a first connection saw, kept unless one was pinned meanwhile. */
export async function pinHostKey(db: Queryable, id: number, hostKey: string) {
  await db.execute(
    sql`UPDATE report_destinations SET host_key = ${hostKey} WHERE id = ${id} AND host_key IS NULL`,
  );
}

export async function removeDestination(db: Queryable, enterpriseId: number, id: number) {
  const res = await db.execute<{ id: number }>(sql`
    UPDATE report_destinations SET deleted_at = now()
    WHERE id = ${id} AND enterprise_id = ${enterpriseId} AND deleted_at IS NULL RETURNING id`);
  if (res.rows.length === 0) return false;
  await db.execute(sql`UPDATE reports SET destination_id = NULL WHERE destination_id = ${id}`);
  return true;
}

// ---- report content ----

export async function alertsSummary(db: Queryable, programId: number, from: Date, to: Date) {
  const res = await db.execute<{
    mrn: string | null;
    last_name: string;
    first_name: string;
    opened: number;
    resolved: number;
    open_now: number;
    escalated: number;
    top_type: string | null;
  }>(sql`
    SELECT p.mrn, p.last_name, p.first_name, count(*)::int AS opened,
      count(*) FILTER (WHERE a.resolved_at IS NOT NULL AND a.resolved_at < ${to.toISOString()})::int AS resolved,
      count(*) FILTER (WHERE a.status <> 'resolved')::int AS open_now,
      count(*) FILTER (WHERE a.escalated_at IS NOT NULL)::int AS escalated,
      mode() WITHIN GROUP (ORDER BY a.type) AS top_type
    FROM alerts a JOIN patients p ON p.id = a.patient_id
    WHERE a.program_id = ${programId} AND a.first_at >= ${from.toISOString()} AND a.first_at < ${to.toISOString()}
    GROUP BY p.id ORDER BY p.last_name, p.first_name, p.id`);
  return res.rows;
}

/** Readings per patient and type over the period: of a program, or of one patient. */
export async function readingsSummary(
  db: Queryable,
  scope: { programId: number } | { patientId: number },
  from: Date,
  to: Date,
) {
  const res = await db.execute<{
    mrn: string | null;
    last_name: string;
    first_name: string;
    type: string;
    readings: number;
    out_of_range: number;
    minimum: number;
    maximum: number;
    average: number;
    last_at: string;
  }>(sql`
    SELECT p.mrn, p.last_name, p.first_name, m.type, count(*)::int AS readings,
      count(*) FILTER (WHERE ${OUT_OF_RANGE})::int AS out_of_range,
      min(m.value)::float8 AS minimum, max(m.value)::float8 AS maximum, round(avg(m.value)::numeric, 1)::float8 AS average,
      max(m.measured_at) AS last_at
    FROM measurements m JOIN patients p ON p.id = m.patient_id
    WHERE ${'programId' in scope ? sql`m.program_id = ${scope.programId}` : sql`m.patient_id = ${scope.patientId}`}
      AND m.measured_at >= ${from.toISOString()} AND m.measured_at < ${to.toISOString()}
    GROUP BY p.id, m.type ORDER BY p.last_name, p.first_name, p.id, m.type`);
  return res.rows;
}

/** Per medication: regimens active at the end of the period, started and ended inside it, patients. */
export async function regimensByDrug(db: Queryable, programId: number, from: Date, to: Date) {
  const res = await db.execute<{
    medication: string;
    patients: number;
    active: number;
    started: number;
    ended: number;
  }>(sql`
    SELECT r.name AS medication, count(DISTINCT r.patient_id)::int AS patients,
      count(*) FILTER (WHERE r.scheduled_at < ${to.toISOString()}
        AND coalesce(least(r.end_at, r.completed_at), 'infinity') >= ${to.toISOString()})::int AS active,
      count(*) FILTER (WHERE r.scheduled_at >= ${from.toISOString()} AND r.scheduled_at < ${to.toISOString()})::int AS started,
      count(*) FILTER (WHERE least(r.end_at, r.completed_at) >= ${from.toISOString()}
        AND least(r.end_at, r.completed_at) < ${to.toISOString()})::int AS ended
    FROM regimens r JOIN patients p ON p.id = r.patient_id
    WHERE p.program_id = ${programId} AND r.scheduled_at < ${to.toISOString()}
    GROUP BY r.name ORDER BY r.name`);
  return res.rows;
}

/** What a patient's PDF report opens with. */
export async function patientHeader(db: Queryable, patientId: number) {
  const res = await db.execute<{
    id: number;
    first_name: string;
    last_name: string;
    mrn: string | null;
    dob: string | null;
    sex: string;
    status: string;
    time_zone: string | null;
    program: string;
    physician: string | null;
  }>(sql`
    SELECT p.id, p.first_name, p.last_name, p.mrn, to_char(p.dob, 'YYYY-MM-DD') AS dob, p.sex, p.status,
      p.time_zone, pr.name AS program, ph.given_name || ' ' || ph.family_name AS physician
    FROM patients p JOIN programs pr ON pr.id = p.program_id LEFT JOIN admins ph ON ph.id = p.physician_id
    WHERE p.id = ${patientId}`);
  return res.rows[0] ?? null;
}

export async function openAlertsOf(db: Queryable, patientId: number) {
  const res = await db.execute<{ type: string; summary: string; last_at: string }>(sql`
    SELECT type, summary, last_at FROM alerts WHERE patient_id = ${patientId} AND status <> 'resolved'
      AND NOT hidden ORDER BY last_at DESC LIMIT 20`);
  return res.rows;
}

export async function patientNames(db: Queryable, ids: number[]) {
  if (ids.length === 0) return new Map<number, { name: string; mrn: string | null }>();
  const res = await db.execute<{ id: number; name: string; mrn: string | null }>(sql`
    SELECT id, last_name || ', ' || first_name AS name, mrn FROM patients
    WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
  return new Map(res.rows.map((r) => [r.id, { name: r.name, mrn: r.mrn }]));
}

export async function destinationEnterprise(db: Queryable, destinationId: number): Promise<number> {
  const res = await db.execute<{ enterprise_id: number }>(sql`
    SELECT enterprise_id FROM report_destinations WHERE id = ${destinationId}`);
  return res.rows[0]!.enterprise_id;
}

export async function programOf(db: Queryable, programId: number): Promise<number | null> {
  const res = await db.execute<{ enterprise_id: number | null }>(sql`
    SELECT enterprise_id FROM programs WHERE id = ${programId}`);
  return res.rows[0]?.enterprise_id ?? null;
}

/** Per patient of the program: readings over the period and alerts open now (one statement). */
export async function patientCounts(db: Queryable, programId: number, from: Date, to: Date) {
  const res = await db.execute<{ id: number; readings: number; open_alerts: number }>(sql`
    SELECT p.id,
      (SELECT count(*)::int FROM measurements m WHERE m.patient_id = p.id
        AND m.measured_at >= ${from.toISOString()} AND m.measured_at < ${to.toISOString()}) AS readings,
      (SELECT count(*)::int FROM alerts a WHERE a.patient_id = p.id AND a.status <> 'resolved' AND NOT a.hidden)
        AS open_alerts
    FROM patients p WHERE p.program_id = ${programId}`);
  return new Map(res.rows.map((r) => [r.id, { readings: r.readings, open_alerts: r.open_alerts }]));
}
