import type { BulkActionJob, BulkActionState, BulkActionType } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';

const JOB_COLUMNS = sql`
  b.id, b.job_id, b.program_id, b.action, b.params -> 'value' AS value, b.note, b.state,
  json_build_object('id', c.id, 'name', c.given_name || ' ' || c.family_name) AS created_by,
  CASE WHEN d.id IS NULL THEN NULL ELSE json_build_object('id', d.id, 'name', d.given_name || ' ' || d.family_name) END AS decided_by,
  ${isoUtc(sql`b.created_at`)} AS created_at, ${isoUtc(sql`b.decided_at`)} AS decided_at,
  ${isoUtc(sql`b.last_run_at`)} AS last_run_at,
  (SELECT json_build_object('total', count(*), 'done', count(*) FILTER (WHERE outcome = 'done'),
     'failed', count(*) FILTER (WHERE outcome = 'failed'), 'pending', count(*) FILTER (WHERE outcome = 'pending'))
   FROM bulk_action_patients x WHERE x.bulk_action_id = b.id) AS counts`;

const FROM = sql`FROM bulk_actions b JOIN admins c ON c.id = b.created_by LEFT JOIN admins d ON d.id = b.decided_by`;

const toJob = (r: BulkActionJob): BulkActionJob => ({
  ...r,
  id: Number(r.id),
  program_id: Number(r.program_id),
});

export async function listJobs(
  db: Queryable,
  q: { programId: number; state?: BulkActionState; jobId?: string; page: number; perPage: number },
): Promise<{ rows: BulkActionJob[]; total: number }> {
  const res = await db.execute<BulkActionJob & { total: number }>(sql`
    SELECT ${JOB_COLUMNS}, count(*) OVER ()::int AS total ${FROM}
    WHERE b.program_id = ${q.programId}
      ${q.state ? sql`AND b.state = ${q.state}` : sql``}
      ${q.jobId ? sql`AND b.job_id = ${q.jobId}::uuid` : sql``}
    ORDER BY b.created_at DESC, b.id DESC
    LIMIT ${q.perPage} OFFSET ${(q.page - 1) * q.perPage}`);
  return { rows: res.rows.map(({ total: _t, ...r }) => toJob(r)), total: res.rows[0]?.total ?? 0 };
}

export async function jobByUuid(
  db: Queryable,
  jobId: string,
  forUpdate = false,
): Promise<BulkActionJob | null> {
  const res = await db.execute<BulkActionJob>(sql`
    SELECT ${JOB_COLUMNS} ${FROM} WHERE b.job_id = ${jobId}::uuid ${forUpdate ? sql`FOR UPDATE OF b` : sql``}`);
  return res.rows[0] ? toJob(res.rows[0]) : null;
}

/** The program of a job, for the access check (null when there is no such job). */
export async function programOfJob(db: Queryable, jobId: string): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(
    sql`SELECT program_id FROM bulk_actions WHERE job_id = ${jobId}::uuid`,
  );
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function insertJob(
  db: Queryable,
  j: {
    programId: number;
    action: BulkActionType;
    value: unknown;
    note: string | null;
    adminId: number;
    patientIds: number[];
  },
): Promise<string> {
  const res = await db.execute<{ id: number; job_id: string }>(sql`
    INSERT INTO bulk_actions (program_id, action, params, note, created_by)
    VALUES (${j.programId}, ${j.action}, ${JSON.stringify({ value: j.value })}::jsonb, ${j.note}, ${j.adminId})
    RETURNING id, job_id`);
  const { id, job_id } = res.rows[0]!;
  await db.execute(sql`
    INSERT INTO bulk_action_patients (bulk_action_id, patient_id)
    SELECT ${id}, x FROM unnest(${idArray(j.patientIds)}::bigint[]) AS x`);
  return job_id;
}

export async function decideJob(
  db: Queryable,
  id: number,
  state: BulkActionState,
  adminId: number,
): Promise<void> {
  await db.execute(sql`
    UPDATE bulk_actions SET state = ${state}, decided_by = ${adminId}, decided_at = now() WHERE id = ${id}`);
}

/** The job's patients to run: all of them, or only those it failed on. */
export async function jobPatientIds(db: Queryable, id: number, onlyFailed: boolean): Promise<number[]> {
  const res = await db.execute<{ patient_id: number }>(sql`
    SELECT patient_id FROM bulk_action_patients
    WHERE bulk_action_id = ${id} ${onlyFailed ? sql`AND outcome = 'failed'` : sql``} ORDER BY patient_id`);
  return res.rows.map((r) => Number(r.patient_id));
}

/** Of `patientIds`, those still in the program. */
export async function patientsInProgram(
  db: Queryable,
  programId: number,
  patientIds: number[],
): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT id FROM patients WHERE id = ANY(${idArray(patientIds)}::bigint[]) AND program_id = ${programId}`);
  return res.rows.map((r) => Number(r.id));
}

export async function cohortInProgram(db: Queryable, groupId: number, programId: number): Promise<boolean> {
  const res = await db.execute(sql`SELECT 1 FROM groups WHERE id = ${groupId} AND program_id = ${programId}`);
  return (res.rowCount ?? 0) > 0;
}

export async function staffInProgram(db: Queryable, adminId: number, programId: number): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM admin_program_roles r JOIN admins a ON a.id = r.admin_id
    WHERE r.admin_id = ${adminId} AND r.program_id = ${programId} AND a.disabled_at IS NULL LIMIT 1`);
  return (res.rowCount ?? 0) > 0;
}

/** Records each patient's outcome of this run: done for `done`, failed with `error` for the rest of `ran`. */
export async function recordOutcomes(
  db: Queryable,
  id: number,
  ran: number[],
  done: number[],
  errorOf: string,
): Promise<void> {
  await db.execute(sql`
    UPDATE bulk_action_patients SET processed_at = now(),
      outcome = CASE WHEN patient_id = ANY(${idArray(done)}::bigint[]) THEN 'done' ELSE 'failed' END,
      error = CASE WHEN patient_id = ANY(${idArray(done)}::bigint[]) THEN NULL ELSE ${errorOf} END
    WHERE bulk_action_id = ${id} AND patient_id = ANY(${idArray(ran)}::bigint[])`);
  await db.execute(sql`UPDATE bulk_actions SET last_run_at = now() WHERE id = ${id}`);
}

export async function jobPatients(db: Queryable, id: number) {
  const res = await db.execute<{
    id: number;
    name: string;
    outcome: 'pending' | 'done' | 'failed';
    error: string | null;
    processed_at: string | null;
  }>(sql`
    SELECT p.id, p.last_name || ', ' || p.first_name AS name, x.outcome, x.error, ${isoUtc(sql`x.processed_at`)} AS processed_at
    FROM bulk_action_patients x JOIN patients p ON p.id = x.patient_id
    WHERE x.bulk_action_id = ${id}
    ORDER BY (x.outcome = 'failed') DESC, p.last_name, p.first_name, p.id`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}
