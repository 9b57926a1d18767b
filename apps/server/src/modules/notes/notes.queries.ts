import type { FollowUp, Note, NoteEdit, NoteLogEntry } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';

/** A note's program, for the object access rule (a deleted note is not found). */
export const noteObject = defineObjectKind(
  'note',
  (id) => sql`SELECT program_id FROM notes WHERE id = ${id} AND deleted_at IS NULL`,
);
export const followUpObject = defineObjectKind(
  'follow-up',
  (id) => sql`SELECT f.program_id FROM follow_ups f JOIN notes n ON n.id = f.note_id
    WHERE f.id = ${id} AND n.deleted_at IS NULL`,
);

const person = (alias: string) =>
  sql.raw(
    `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'name', trim(concat_ws(' ', ${alias}.given_name, ${alias}.family_name))) END`,
  );

const FOLLOW_UP = sql`json_build_object(
  'id', f.id, 'note_id', f.note_id, 'patient_id', f.patient_id, 'date', to_char(f.due_date, 'YYYY-MM-DD'),
  'admin', ${person('fa')}, 'completed_at', ${isoUtc(sql`f.completed_at`)}, 'completed_by', ${person('fc')},
  'due', f.completed_at IS NULL AND f.due_date <= current_date)`;

const FOLLOW_UP_JOINS = sql`LEFT JOIN admins fa ON fa.id = f.admin_id LEFT JOIN admins fc ON fc.id = f.completed_by`;

/** One statement for any number of notes: author, files, follow-up, escalation and the count of edits. */
function selectNotes(where: SQL, tail: SQL = sql``) {
  return sql`
    SELECT n.id, n.patient_id, n.program_id, n.kind, n.body, n.internal, n.pinned, ${person('au')} AS author,
      ${isoUtc(sql`n.created_at`)} AS created_at, ${isoUtc(sql`n.updated_at`)} AS updated_at,
      (SELECT count(*)::int FROM note_edits e WHERE e.note_id = n.id) AS edits,
      coalesce((SELECT json_agg(json_build_object('id', nf.id, 'file_name', nf.file_name,
          'content_type', nf.content_type, 'size', nf.size) ORDER BY nf.id)
        FROM note_files nf WHERE nf.note_id = n.id), '[]'::json) AS files,
      (SELECT ${FOLLOW_UP} FROM follow_ups f ${FOLLOW_UP_JOINS} WHERE f.note_id = n.id) AS follow_up,
      CASE WHEN n.escalated_at IS NULL THEN NULL ELSE json_build_object(
        'active', n.escalation_active, 'at', ${isoUtc(sql`n.escalated_at`)}, 'by', ${person('eb')},
        'inactivated_at', ${isoUtc(sql`n.escalation_inactivated_at`)}, 'inactivated_by', ${person('ei')}) END AS escalation,
      count(*) OVER ()::int AS total
    FROM notes n
    LEFT JOIN admins au ON au.id = n.author_id
    LEFT JOIN admins eb ON eb.id = n.escalated_by
    LEFT JOIN admins ei ON ei.id = n.escalation_inactivated_by
    WHERE n.deleted_at IS NULL AND ${where}
    ${tail}`;
}

type NoteRow = Note & { total: number };
const clean = ({ total: _total, ...note }: NoteRow): Note => note;

export async function noteById(db: Queryable, id: number): Promise<Note | null> {
  const res = await db.execute<NoteRow>(selectNotes(sql`n.id = ${id}`));
  return res.rows[0] ? clean(res.rows[0]) : null;
}

/** A patient's notes in a program: pinned first, then newest; one page and the total. */
export async function notesPage(
  db: Queryable,
  programId: number,
  patientId: number,
  page: { page: number; per_page: number; escalated?: boolean },
): Promise<{ rows: Note[]; total: number }> {
  const res = await db.execute<NoteRow>(
    selectNotes(
      sql`n.patient_id = ${patientId} AND n.program_id = ${programId} ${page.escalated ? sql`AND n.escalation_active` : sql``}`,
      sql`ORDER BY n.pinned DESC, n.id DESC LIMIT ${page.per_page} OFFSET ${(page.page - 1) * page.per_page}`,
    ),
  );
  if (res.rows.length === 0 && page.page > 1) {
    const count = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM notes WHERE patient_id = ${patientId} AND program_id = ${programId} AND deleted_at IS NULL
        ${page.escalated ? sql`AND escalation_active` : sql``}`);
    return { rows: [], total: count.rows[0]?.n ?? 0 };
  }
  return { rows: res.rows.map(clean), total: res.rows[0]?.total ?? 0 };
}

/** Most notes one calendar answer lists; its `total` counts all of them (issue 27). */
export const CALENDAR_NOTES_MAX = 500;

/**
 * The calendar: notes written, or followed up, between two days (in UTC days), oldest first: the first
 * `CALENDAR_NOTES_MAX`, and how many the days hold.
 */
export async function notesInDays(
  db: Queryable,
  programId: number,
  patientId: number,
  start: string,
  end: string,
): Promise<{ rows: Note[]; total: number }> {
  const res = await db.execute<NoteRow>(
    selectNotes(
      sql`n.patient_id = ${patientId} AND n.program_id = ${programId} AND (
        (n.created_at >= ${start}::date AND n.created_at < ${end}::date + 1)
        OR EXISTS (SELECT 1 FROM follow_ups f WHERE f.note_id = n.id AND f.due_date BETWEEN ${start}::date AND ${end}::date))`,
      sql`ORDER BY n.created_at LIMIT ${CALENDAR_NOTES_MAX}`,
    ),
  );
  return { rows: res.rows.map(clean), total: res.rows[0]?.total ?? 0 };
}

export async function insertNote(
  db: Queryable,
  n: {
    programId: number;
    patientId: number;
    kind: 'note' | 'sms_image';
    body: string;
    internal: boolean;
    escalate: boolean;
    authorId: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO notes (program_id, patient_id, kind, body, internal, author_id, escalated_at, escalated_by, escalation_active)
    VALUES (${n.programId}, ${n.patientId}, ${n.kind}, ${n.body}, ${n.internal}, ${n.authorId},
      ${n.escalate ? sql`now()` : sql`NULL`}, ${n.escalate ? n.authorId : null}, ${n.escalate})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function insertNoteFiles(
  db: Queryable,
  noteId: number,
  files: { key: string; fileName: string; contentType: string; size: number }[],
) {
  if (files.length === 0) return;
  await db.execute(sql`
    INSERT INTO note_files (note_id, storage_key, file_name, content_type, size)
    SELECT ${noteId}, f->>'key', f->>'fileName', f->>'contentType', (f->>'size')::bigint
    FROM json_array_elements(${JSON.stringify(files)}::json) AS f`);
}

export async function noteFile(db: Queryable, noteId: number, fileId: number) {
  const res = await db.execute<{
    storage_key: string;
    file_name: string;
    content_type: string;
    size: number;
  }>(
    sql`SELECT storage_key, file_name, content_type, size FROM note_files WHERE id = ${fileId} AND note_id = ${noteId}`,
  );
  return res.rows[0] ?? null;
}

export async function logNote(
  db: Queryable,
  noteId: number,
  action: NoteLogEntry['action'],
  adminId: number | null,
  detail: Record<string, unknown> = {},
) {
  await db.execute(sql`
    INSERT INTO note_logs (note_id, action, admin_id, detail) VALUES (${noteId}, ${action}, ${adminId}, ${JSON.stringify(detail)}::jsonb)`);
}

export async function noteLog(db: Queryable, noteId: number): Promise<NoteLogEntry[]> {
  const res = await db.execute<NoteLogEntry>(sql`
    SELECT l.id, l.action, ${person('a')} AS admin, ${isoUtc(sql`l.at`)} AS at, l.detail
    FROM note_logs l LEFT JOIN admins a ON a.id = l.admin_id WHERE l.note_id = ${noteId} ORDER BY l.id`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function noteEdits(db: Queryable, noteId: number): Promise<NoteEdit[]> {
  const res = await db.execute<NoteEdit>(sql`
    SELECT e.id, e.body, ${person('a')} AS edited_by, ${isoUtc(sql`e.edited_at`)} AS edited_at
    FROM note_edits e LEFT JOIN admins a ON a.id = e.edited_by WHERE e.note_id = ${noteId} ORDER BY e.id DESC`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The author and text of a live note (for the edit and delete rules). */
export async function noteOwner(db: Queryable, noteId: number) {
  const res = await db.execute<{
    author_id: number | null;
    body: string;
    pinned: boolean;
    internal: boolean;
  }>(
    sql`SELECT author_id, body, pinned, internal FROM notes WHERE id = ${noteId} AND deleted_at IS NULL FOR UPDATE`,
  );
  return res.rows[0] ?? null;
}

export async function editNote(
  db: Queryable,
  noteId: number,
  before: string,
  after: string,
  adminId: number,
) {
  await db.execute(sql`
    WITH kept AS (INSERT INTO note_edits (note_id, body, edited_by) VALUES (${noteId}, ${before}, ${adminId}))
    UPDATE notes SET body = ${after}, updated_at = now() WHERE id = ${noteId}`);
}

export async function setNoteFlags(
  db: Queryable,
  noteId: number,
  flags: { pinned?: boolean; internal?: boolean },
) {
  await db.execute(sql`
    UPDATE notes SET
      pinned = coalesce(${flags.pinned ?? null}::boolean, pinned),
      internal = coalesce(${flags.internal ?? null}::boolean, internal),
      updated_at = now()
    WHERE id = ${noteId}`);
}

export async function setEscalation(db: Queryable, noteId: number, active: boolean, adminId: number) {
  await db.execute(
    active
      ? sql`UPDATE notes SET escalated_at = now(), escalated_by = ${adminId}, escalation_active = true,
          escalation_inactivated_at = NULL, escalation_inactivated_by = NULL, updated_at = now() WHERE id = ${noteId}`
      : sql`UPDATE notes SET escalation_active = false, escalation_inactivated_at = now(),
          escalation_inactivated_by = ${adminId}, updated_at = now() WHERE id = ${noteId} AND escalation_active`,
  );
}

export async function softDeleteNote(db: Queryable, noteId: number, adminId: number) {
  await db.execute(sql`UPDATE notes SET deleted_at = now(), deleted_by = ${adminId} WHERE id = ${noteId}`);
}

export async function insertFollowUp(
  db: Queryable,
  f: { noteId: number; programId: number; patientId: number; date: string; adminId: number | null },
) {
  await db.execute(sql`
    INSERT INTO follow_ups (note_id, program_id, patient_id, due_date, admin_id)
    VALUES (${f.noteId}, ${f.programId}, ${f.patientId}, ${f.date}::date, ${f.adminId})`);
}

export async function followUpById(db: Queryable, id: number): Promise<FollowUp | null> {
  const res = await db.execute<{ f: FollowUp }>(sql`
    SELECT ${FOLLOW_UP} AS f FROM follow_ups f ${FOLLOW_UP_JOINS} WHERE f.id = ${id}`);
  return res.rows[0]?.f ?? null;
}

/** A follow-up row locked for a change, with its note's program. */
export async function followUpForChange(db: Queryable, id: number) {
  const res = await db.execute<{
    note_id: number;
    program_id: number;
    due_date: string;
    admin_id: number | null;
    completed: boolean;
  }>(sql`
    SELECT note_id, program_id, to_char(due_date, 'YYYY-MM-DD') AS due_date, admin_id, completed_at IS NOT NULL AS completed
    FROM follow_ups WHERE id = ${id} FOR UPDATE`);
  return res.rows[0] ?? null;
}

export async function completeFollowUp(db: Queryable, id: number, adminId: number) {
  await db.execute(
    sql`UPDATE follow_ups SET completed_at = now(), completed_by = ${adminId} WHERE id = ${id}`,
  );
}

export async function moveFollowUp(db: Queryable, id: number, date: string, adminId: number | null) {
  await db.execute(
    sql`UPDATE follow_ups SET due_date = ${date}::date, admin_id = ${adminId} WHERE id = ${id}`,
  );
}

/** The patient's earliest open follow-up in the program (of a live note). */
export async function nextFollowUp(
  db: Queryable,
  programId: number,
  patientId: number,
): Promise<FollowUp | null> {
  const res = await db.execute<{ f: FollowUp }>(sql`
    SELECT ${FOLLOW_UP} AS f FROM follow_ups f ${FOLLOW_UP_JOINS}
    JOIN notes n ON n.id = f.note_id AND n.deleted_at IS NULL
    WHERE f.patient_id = ${patientId} AND f.program_id = ${programId} AND f.completed_at IS NULL
    ORDER BY f.due_date, f.id LIMIT 1`);
  return res.rows[0]?.f ?? null;
}

/** Whether a staff member has a role in the program (the follow-up's assignee). */
export async function isStaffOf(db: Queryable, programId: number, adminId: number): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM admin_program_roles WHERE admin_id = ${adminId} AND program_id = ${programId}
    UNION ALL
    SELECT 1 FROM admin_enterprise_roles e JOIN programs p ON p.enterprise_id = e.enterprise_id
    WHERE e.admin_id = ${adminId} AND p.id = ${programId}
    LIMIT 1`);
  return (res.rowCount ?? 0) > 0;
}

/** A patient of the program (a live one): for the program-path calls. */
export async function patientInProgram(
  db: Queryable,
  programId: number,
  patientId: number,
): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM patients WHERE id = ${patientId} AND program_id = ${programId}`,
  );
  return (res.rowCount ?? 0) > 0;
}
