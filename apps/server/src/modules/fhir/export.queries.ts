import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import type { ReaderScope } from './resources/resource';

/** Who owns an export: the staff member or the client that asked for it (the only one who sees it). */
export type ExportOwner = { adminId: number; clientId: null } | { adminId: null; clientId: number };

export type ExportOutput = { type: string; key: string; count: number };

export type ExportJob = {
  id: string;
  admin_id: number | null;
  client_id: number | null;
  program_id: number | null;
  group_id: number | null;
  types: string[];
  since: Date | null;
  request: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  output: ExportOutput[];
  written: number;
  error: string | null;
  transaction_time: Date | null;
  expires_at: Date;
};

const JOB_COLUMNS =
  sql.raw(`id, admin_id, client_id, program_id, group_id, types, since, request, status, output,
  written::int AS written, error, transaction_time, expires_at`);

/** An export id as the URLs carry it; anything else names no export (404 without asking the database). */
export const EXPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function ownedBy(owner: ExportOwner): SQL {
  return owner.adminId !== null ? sql`admin_id = ${owner.adminId}` : sql`client_id = ${owner.clientId}`;
}

/** The cohort (a CareDeck group) of a Group export, if the reader may see its program. */
export async function findCohort(db: Queryable, scope: ReaderScope, groupId: number) {
  const res = await db.execute<{ id: number; program_id: number }>(sql`
    SELECT g.id, g.program_id FROM groups g WHERE g.id = ${groupId} AND g.program_id IN ${scope.programs}`);
  return res.rows[0] ?? null;
}

/**
 * Queues an export, unless its owner has one queued or running (the partial unique indexes decide, so two
 * kick-offs at once cannot both pass): null then.
 */
export async function insertExport(
  db: Queryable,
  e: ExportOwner & {
    programId: number | null;
    groupId: number | null;
    types: string[];
    since: Date | null;
    request: string;
    ttlHours: number;
  },
): Promise<string | null> {
  const res = await db.execute<{ id: string }>(sql`
    INSERT INTO fhir_bulk_exports (admin_id, client_id, program_id, group_id, types, since, request, expires_at)
    VALUES (${e.adminId}, ${e.clientId}, ${e.programId}, ${e.groupId}, ${`{${e.types.join(',')}}`}::text[],
      ${e.since?.toISOString() ?? null}::timestamptz, ${e.request}, now() + make_interval(hours => ${e.ttlHours}))
    ON CONFLICT DO NOTHING
    RETURNING id`);
  return res.rows[0]?.id ?? null;
}

/** The owner's export, or null (another owner's export is absent, as one that does not exist). */
export async function findExport(db: Queryable, owner: ExportOwner, id: string): Promise<ExportJob | null> {
  if (!EXPORT_ID.test(id)) return null;
  const res = await db.execute<ExportJob>(sql`
    SELECT ${JOB_COLUMNS} FROM fhir_bulk_exports
    WHERE id = ${id} AND ${ownedBy(owner)} AND expires_at > now()`);
  return res.rows[0] ?? null;
}

/** Deletes the owner's export and says which files it had written (null: none such). */
export async function deleteExport(db: Queryable, owner: ExportOwner, id: string): Promise<ExportJob | null> {
  if (!EXPORT_ID.test(id)) return null;
  const res = await db.execute<ExportJob>(sql`
    DELETE FROM fhir_bulk_exports WHERE id = ${id} AND ${ownedBy(owner)} AND expires_at > now()
    RETURNING ${JOB_COLUMNS}`);
  return res.rows[0] ?? null;
}

/** A job running this long without a beat lost its process: another run takes it over from the start. */
const STALE = sql`interval '5 minutes'`;

/** Takes the oldest queued export (or a stale running one) for this process: SKIP LOCKED, one at a time. */
export async function claimExport(db: Queryable): Promise<ExportJob | null> {
  const res = await db.execute<ExportJob>(sql`
    UPDATE fhir_bulk_exports SET status = 'running', heartbeat_at = now(), transaction_time = now(), written = 0
    WHERE id = (
      SELECT id FROM fhir_bulk_exports
      WHERE (status = 'queued' OR (status = 'running' AND heartbeat_at < now() - ${STALE})) AND expires_at > now()
      ORDER BY created_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING ${JOB_COLUMNS}`);
  return res.rows[0] ?? null;
}

/** Records progress; false when the export was cancelled (deleted) meanwhile. */
export async function beat(db: Queryable, id: string, written: number): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE fhir_bulk_exports SET written = ${written}, heartbeat_at = now()
    WHERE id = ${id} AND status = 'running'`);
  return (res.rowCount ?? 0) > 0;
}

/** Marks the export completed with its files; false when it was cancelled meanwhile. */
export async function completeExport(
  db: Queryable,
  id: string,
  output: ExportOutput[],
  ttlHours: number,
): Promise<boolean> {
  const written = output.reduce((n, o) => n + o.count, 0);
  const res = await db.execute(sql`
    UPDATE fhir_bulk_exports SET status = 'completed', output = ${JSON.stringify(output)}::jsonb,
      written = ${written}, finished_at = now(), expires_at = now() + make_interval(hours => ${ttlHours})
    WHERE id = ${id} AND status = 'running'`);
  return (res.rowCount ?? 0) > 0;
}

/** Marks the export failed, with a message that holds no PHI. */
export async function failExport(db: Queryable, id: string, message: string): Promise<void> {
  await db.execute(sql`
    UPDATE fhir_bulk_exports SET status = 'failed', error = ${message}, output = '[]'::jsonb, finished_at = now()
    WHERE id = ${id} AND status = 'running'`);
}

/** Deletes expired exports, returning them so that their files go too. */
export async function deleteExpiredExports(db: Queryable, limit = 100): Promise<ExportJob[]> {
  const res = await db.execute<ExportJob>(sql`
    DELETE FROM fhir_bulk_exports WHERE id IN (
      SELECT id FROM fhir_bulk_exports WHERE expires_at <= now() ORDER BY expires_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING ${JOB_COLUMNS}`);
  return res.rows;
}

/**
 * The next patients of an export after `after`, by id: the cohort's members (Group export) or every patient
 * the reader may see (Patient export). Keyset pages on the patients' and group members' primary keys.
 */
export async function nextPatientIds(
  db: Queryable,
  scope: ReaderScope,
  groupId: number | null,
  after: number,
  limit: number,
): Promise<number[]> {
  const res =
    groupId === null
      ? await db.execute<{ id: number }>(sql`
          SELECT p.id FROM patients p
          WHERE p.program_id IN ${scope.programs} AND p.id > ${after}
          ORDER BY p.id LIMIT ${limit}`)
      : await db.execute<{ id: number }>(sql`
          SELECT gp.patient_id AS id FROM group_patients gp
          JOIN patients p ON p.id = gp.patient_id AND p.program_id IN ${scope.programs}
          WHERE gp.group_id = ${groupId} AND gp.patient_id > ${after}
          ORDER BY gp.patient_id LIMIT ${limit}`);
  return res.rows.map((r) => Number(r.id));
}
