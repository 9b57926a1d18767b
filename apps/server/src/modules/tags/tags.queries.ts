import type { Protocol, Tag, TagFolder } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';

export const tagObject = defineObjectKind('tag', (id) => sql`SELECT program_id FROM tags WHERE id = ${id}`);
export const tagFolderObject = defineObjectKind(
  'tag folder',
  (id) => sql`SELECT program_id FROM tag_folders WHERE id = ${id}`,
);
export const protocolObject = defineObjectKind(
  'protocol',
  (id) => sql`SELECT program_id FROM protocols WHERE id = ${id}`,
);

const ids = (list: readonly number[]) => sql`${`{${list.join(',')}}`}::bigint[]`;
const TAG = sql`t.id, t.program_id, t.folder_id, t.name, t.color,
  (SELECT count(*)::int FROM patient_tags pt WHERE pt.tag_id = t.id) AS patients`;

const numeric = <T extends { id: number; program_id: number; folder_id?: number | null }>(r: T): T => ({
  ...r,
  id: Number(r.id),
  program_id: Number(r.program_id),
  ...(r.folder_id === undefined ? {} : { folder_id: r.folder_id === null ? null : Number(r.folder_id) }),
});

export async function tagsOf(
  db: Queryable,
  programId: number,
  f: { folderId?: number; id?: number } = {},
): Promise<Tag[]> {
  const res = await db.execute<Tag>(sql`
    SELECT ${TAG} FROM tags t WHERE t.program_id = ${programId}
      ${f.folderId === undefined ? sql`` : sql`AND t.folder_id = ${f.folderId}`}
      ${f.id === undefined ? sql`` : sql`AND t.id = ${f.id}`}
    ORDER BY lower(t.name), t.id`);
  return res.rows.map(numeric);
}

export async function insertTag(
  db: Queryable,
  r: { programId: number; name: string; folderId: number | null; color: string | null; createdBy: number },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO tags (program_id, name, folder_id, color, created_by)
    VALUES (${r.programId}, ${r.name}, ${r.folderId}, ${r.color}, ${r.createdBy}) RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function updateTag(
  db: Queryable,
  id: number,
  set: { name?: string; folderId?: number | null; color?: string | null },
) {
  const parts: SQL[] = [];
  if (set.name !== undefined) parts.push(sql`name = ${set.name}`);
  if (set.folderId !== undefined) parts.push(sql`folder_id = ${set.folderId}`);
  if (set.color !== undefined) parts.push(sql`color = ${set.color}`);
  if (parts.length > 0) await db.execute(sql`UPDATE tags SET ${sql.join(parts, sql`, `)} WHERE id = ${id}`);
}

export async function foldersOf(db: Queryable, programId: number, id?: number): Promise<TagFolder[]> {
  const res = await db.execute<TagFolder>(sql`
    SELECT f.id, f.program_id, f.name, (SELECT count(*)::int FROM tags t WHERE t.folder_id = f.id) AS tags
    FROM tag_folders f WHERE f.program_id = ${programId} ${id === undefined ? sql`` : sql`AND f.id = ${id}`}
    ORDER BY lower(f.name), f.id`);
  return res.rows.map(numeric);
}

export async function folderProgram(db: Queryable, folderId: number): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(
    sql`SELECT program_id FROM tag_folders WHERE id = ${folderId}`,
  );
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function insertFolder(db: Queryable, programId: number, name: string) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO tag_folders (program_id, name) VALUES (${programId}, ${name}) RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function renameFolder(db: Queryable, id: number, name: string) {
  await db.execute(sql`UPDATE tag_folders SET name = ${name} WHERE id = ${id}`);
}

export async function deleteFolder(db: Queryable, id: number) {
  await db.execute(sql`DELETE FROM tag_folders WHERE id = ${id}`);
}

export async function tagsOfPatient(db: Queryable, patientId: number): Promise<Tag[]> {
  const res = await db.execute<Tag>(sql`
    SELECT ${TAG} FROM patient_tags p JOIN tags t ON t.id = p.tag_id WHERE p.patient_id = ${patientId}
    ORDER BY lower(t.name), t.id`);
  return res.rows.map(numeric);
}

/** How many of the ids are tags of the program. */
export async function countTagsOfProgram(db: Queryable, programId: number, tagIds: readonly number[]) {
  const res = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM tags WHERE program_id = ${programId} AND id = ANY(${ids(tagIds)})`);
  return res.rows[0]!.n;
}

export async function setPatientTags(
  db: Queryable,
  patientId: number,
  tagIds: readonly number[],
  adminId: number,
) {
  await db.execute(
    sql`DELETE FROM patient_tags WHERE patient_id = ${patientId} AND NOT (tag_id = ANY(${ids(tagIds)}))`,
  );
  if (tagIds.length > 0)
    await db.execute(sql`
      INSERT INTO patient_tags (patient_id, tag_id, added_by) SELECT ${patientId}, unnest(${ids(tagIds)}), ${adminId}
      ON CONFLICT DO NOTHING`);
}

// ---------------------------------------------------------------- protocols

const PROTOCOL = sql`p.id, p.program_id, p.name, p.description, p.steps, p.active, p.version,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS updated_by,
  ${isoUtc(sql`p.updated_at`)} AS updated_at`;

export async function protocolsOf(db: Queryable, programId: number, id?: number): Promise<Protocol[]> {
  const res = await db.execute<Protocol>(sql`
    SELECT ${PROTOCOL} FROM protocols p LEFT JOIN admins a ON a.id = p.updated_by
    WHERE p.program_id = ${programId} ${id === undefined ? sql`` : sql`AND p.id = ${id}`}
    ORDER BY lower(p.name), p.id`);
  return res.rows.map(numeric);
}

export async function insertProtocol(
  db: Queryable,
  r: {
    programId: number;
    name: string;
    description: string;
    steps: unknown;
    active: boolean;
    adminId: number;
  },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO protocols (program_id, name, description, steps, active, updated_by)
    VALUES (${r.programId}, ${r.name}, ${r.description}, ${JSON.stringify(r.steps)}::jsonb, ${r.active}, ${r.adminId})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

/** Keeps the current text as a version, then writes the new one (version + 1). */
export async function updateProtocol(
  db: Queryable,
  id: number,
  r: { name: string; description?: string; steps?: unknown; active?: boolean; adminId: number },
) {
  await db.execute(sql`
    INSERT INTO protocol_versions (protocol_id, version, body, saved_by)
    SELECT id, version, jsonb_build_object('name', name, 'description', description, 'steps', steps, 'active', active),
      updated_by FROM protocols WHERE id = ${id}`);
  await db.execute(sql`
    UPDATE protocols SET name = ${r.name}, description = coalesce(${r.description ?? null}::text, description),
      steps = coalesce(${r.steps === undefined ? null : JSON.stringify(r.steps)}::jsonb, steps),
      active = coalesce(${r.active ?? null}::boolean, active), version = version + 1, updated_by = ${r.adminId}, updated_at = now()
    WHERE id = ${id}`);
}
