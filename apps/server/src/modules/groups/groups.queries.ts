import type { GroupDetail, GroupMember, GroupSummary } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

/** A cohort, named by `groups/{id}` paths without its program. */
export const groupObject = defineObjectKind(
  'group',
  (id) => sql`SELECT program_id FROM groups WHERE id = ${id}`,
);

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SUMMARY = sql`
  g.id, g.program_id, g.name, g.description, g.query_to AS "queryTo",
  (SELECT count(*)::int FROM group_patients gp WHERE gp.group_id = g.id) AS users_count,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS created_by,
  ${ts(sql`g.created_at`)} AS created_at, ${ts(sql`g.updated_at`)} AS updated_at`;

export async function listGroups(
  db: Queryable,
  programId: number,
  q: { page: number; per_page: number; name?: string; keyword?: string },
): Promise<{ rows: GroupSummary[]; total: number }> {
  const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const filters: SQL[] = [sql`g.program_id = ${programId}`];
  if (q.name) filters.push(sql`g.name ILIKE ${like(q.name)}`);
  if (q.keyword)
    filters.push(sql`(g.name ILIKE ${like(q.keyword)} OR g.description ILIKE ${like(q.keyword)})`);
  const where = sql.join(filters, sql` AND `);
  const [rows, total] = await Promise.all([
    db.execute<GroupSummary>(sql`
      SELECT ${SUMMARY} FROM groups g LEFT JOIN admins a ON a.id = g.created_by
      WHERE ${where} ORDER BY lower(g.name), g.id
      LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM groups g WHERE ${where}`),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

export async function groupSummaryById(db: Queryable, groupId: number): Promise<GroupSummary | null> {
  const res = await db.execute<GroupSummary>(sql`
    SELECT ${SUMMARY} FROM groups g LEFT JOIN admins a ON a.id = g.created_by WHERE g.id = ${groupId}`);
  return res.rows[0] ?? null;
}

export async function groupMembers(db: Queryable, groupId: number): Promise<GroupMember[]> {
  const res = await db.execute<GroupMember>(sql`
    SELECT p.id, concat_ws(' ', p.first_name, p.middle_name, p.last_name) AS name, p.first_name, p.last_name,
      p.mrn, p.dob, p.status, ${ts(sql`gp.created_at`)} AS added_at
    FROM group_patients gp JOIN patients p ON p.id = gp.patient_id
    WHERE gp.group_id = ${groupId}
    ORDER BY p.last_name, p.first_name, p.id`);
  return res.rows;
}

export async function groupDetail(db: Queryable, groupId: number): Promise<GroupDetail | null> {
  const [summary, users] = await Promise.all([groupSummaryById(db, groupId), groupMembers(db, groupId)]);
  return summary ? { ...summary, users } : null;
}

export async function groupNameTaken(
  db: Queryable,
  programId: number,
  name: string,
  exceptId: number | null,
) {
  const res = await db.execute(sql`
    SELECT 1 FROM groups WHERE program_id = ${programId} AND lower(name) = lower(${name})
      AND (${exceptId}::bigint IS NULL OR id <> ${exceptId})`);
  return (res.rowCount ?? 0) > 0;
}

export async function insertGroup(
  db: Queryable,
  g: {
    programId: number;
    name: string;
    description: string | null;
    queryTo: string | null;
    createdBy: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO groups (program_id, name, description, query_to, created_by)
    VALUES (${g.programId}, ${g.name}, ${g.description}, ${g.queryTo}, ${g.createdBy}) RETURNING id`);
  return res.rows[0]!.id;
}

export async function updateGroup(
  db: Queryable,
  groupId: number,
  changes: { name?: string; description?: string | null; queryTo?: string | null },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (changes.name !== undefined) sets.push(sql`name = ${changes.name}`);
  if (changes.description !== undefined) sets.push(sql`description = ${changes.description}`);
  if (changes.queryTo !== undefined) sets.push(sql`query_to = ${changes.queryTo}`);
  await db.execute(sql`UPDATE groups SET ${sql.join(sets, sql`, `)} WHERE id = ${groupId}`);
}

export async function deleteGroup(db: Queryable, groupId: number): Promise<void> {
  await db.execute(sql`DELETE FROM groups WHERE id = ${groupId}`);
}

/** The ids among these that are patients of the program. */
export async function patientsOfProgram(
  db: Queryable,
  programId: number,
  patientIds: number[],
): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT id FROM patients WHERE program_id = ${programId} AND id = ANY(${idArray(patientIds)}::bigint[])`);
  return res.rows.map((r) => r.id);
}

export async function addMembers(
  db: Queryable,
  groupId: number,
  patientIds: number[],
  adminId: number,
): Promise<number> {
  const res = await db.execute(sql`
    INSERT INTO group_patients (group_id, patient_id, added_by)
    SELECT ${groupId}, x, ${adminId} FROM unnest(${idArray(patientIds)}::bigint[]) AS x
    ON CONFLICT DO NOTHING`);
  if ((res.rowCount ?? 0) > 0)
    await db.execute(sql`UPDATE groups SET updated_at = now() WHERE id = ${groupId}`);
  return res.rowCount ?? 0;
}

export async function removeMember(db: Queryable, groupId: number, patientId: number): Promise<boolean> {
  const res = await db.execute(
    sql`DELETE FROM group_patients WHERE group_id = ${groupId} AND patient_id = ${patientId}`,
  );
  if ((res.rowCount ?? 0) > 0)
    await db.execute(sql`UPDATE groups SET updated_at = now() WHERE id = ${groupId}`);
  return (res.rowCount ?? 0) > 0;
}

export async function groupInProgram(db: Queryable, groupId: number, programId: number): Promise<boolean> {
  const res = await db.execute(sql`SELECT 1 FROM groups WHERE id = ${groupId} AND program_id = ${programId}`);
  return (res.rowCount ?? 0) > 0;
}

/** The cohorts of a patient, within the programs given. */
export async function groupsOfPatient(
  db: Queryable,
  patientId: number,
  programIds: number[],
): Promise<GroupSummary[]> {
  const res = await db.execute<GroupSummary>(sql`
    SELECT ${SUMMARY} FROM group_patients m JOIN groups g ON g.id = m.group_id LEFT JOIN admins a ON a.id = g.created_by
    WHERE m.patient_id = ${patientId} AND g.program_id = ANY(${idArray(programIds)}::bigint[])
    ORDER BY lower(g.name), g.id`);
  return res.rows;
}
