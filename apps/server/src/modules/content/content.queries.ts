import type { ContentCategory, ContentFolder, ContentItem, TextMessageTemplate } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';

export const categoryObject = defineObjectKind(
  'content category',
  (id) => sql`SELECT program_id FROM content_categories WHERE id = ${id}`,
);
export const folderObject = defineObjectKind(
  'content folder',
  (id) => sql`SELECT program_id FROM content_folders WHERE id = ${id}`,
);
export const templateObject = defineObjectKind(
  'text message',
  (id) =>
    sql`SELECT f.program_id FROM text_message_templates t JOIN content_folders f ON f.id = t.folder_id WHERE t.id = ${id}`,
);

const ITEM = sql`json_build_object(
  'id', i.id, 'category_id', i.category_id, 'title', i.title, 'body', i.body, 'url', i.url,
  'created_by', CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END,
  'created_at', ${isoUtc(sql`i.created_at`)})`;

const TEMPLATE = sql`json_build_object(
  'id', t.id, 'folder_id', t.folder_id, 'name', t.name, 'body', t.body, 'question', t.question,
  'updated_at', ${isoUtc(sql`t.updated_at`)})`;

/** A program's categories by name, each with its content, newest first, in one statement. */
export async function categoriesOf(
  db: Queryable,
  programId: number,
  id?: number,
): Promise<ContentCategory[]> {
  const res = await db.execute<ContentCategory>(sql`
    SELECT c.id, c.program_id, c.name,
      coalesce((SELECT json_agg(${ITEM} ORDER BY i.id DESC) FROM content_items i
        LEFT JOIN admins a ON a.id = i.created_by WHERE i.category_id = c.id), '[]'::json) AS contents
    FROM content_categories c
    WHERE c.program_id = ${programId} ${id === undefined ? sql`` : sql`AND c.id = ${id}`}
    ORDER BY lower(c.name), c.id`);
  return res.rows;
}

export async function insertCategory(
  db: Queryable,
  row: { programId: number; name: string; createdBy: number },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO content_categories (program_id, name, created_by)
    VALUES (${row.programId}, ${row.name}, ${row.createdBy}) RETURNING id`);
  return res.rows[0]!.id;
}

/** Renames a category; its program's id (null: no such category). */
export async function renameCategory(db: Queryable, id: number, name: string): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(sql`
    UPDATE content_categories SET name = ${name} WHERE id = ${id} RETURNING program_id`);
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

/** Deletes a category with its content; how many items went with it (null: no such category). */
export async function deleteCategory(
  db: Queryable,
  id: number,
): Promise<{ programId: number; name: string; items: number } | null> {
  const res = await db.execute<{ program_id: number; name: string; items: number }>(sql`
    WITH gone AS (DELETE FROM content_categories WHERE id = ${id} RETURNING id, program_id, name)
    SELECT g.program_id, g.name, (SELECT count(*)::int FROM content_items i WHERE i.category_id = g.id) AS items
    FROM gone g`);
  const row = res.rows[0];
  return row ? { programId: Number(row.program_id), name: row.name, items: row.items } : null;
}

export async function insertContent(
  db: Queryable,
  row: { categoryId: number; title: string; body: string; url: string | null; createdBy: number },
): Promise<ContentItem> {
  const res = await db.execute<{ item: ContentItem }>(sql`
    WITH i AS (
      INSERT INTO content_items (category_id, title, body, url, created_by)
      VALUES (${row.categoryId}, ${row.title}, ${row.body}, ${row.url}, ${row.createdBy}) RETURNING *)
    SELECT ${ITEM} AS item FROM i LEFT JOIN admins a ON a.id = i.created_by`);
  return res.rows[0]!.item;
}

/** The owner's folders in a program, by name, each with its templates by name. */
export async function foldersOf(
  db: Queryable,
  programId: number,
  ownerId: number,
  id?: number,
): Promise<ContentFolder[]> {
  const res = await db.execute<ContentFolder>(sql`
    SELECT f.id, f.program_id, f.name,
      coalesce((SELECT json_agg(${TEMPLATE} ORDER BY lower(t.name), t.id) FROM text_message_templates t
        WHERE t.folder_id = f.id), '[]'::json) AS text_messages
    FROM content_folders f
    WHERE f.program_id = ${programId} AND f.owner_id = ${ownerId} ${id === undefined ? sql`` : sql`AND f.id = ${id}`}
    ORDER BY lower(f.name), f.id`);
  return res.rows;
}

/** A folder's program and owner (the owner check of the folder and template calls). */
export async function folderOwner(
  db: Queryable,
  folderId: number,
): Promise<{ program_id: number; owner_id: number } | null> {
  const res = await db.execute<{ program_id: number; owner_id: number }>(sql`
    SELECT program_id, owner_id FROM content_folders WHERE id = ${folderId}`);
  return res.rows[0] ?? null;
}

export async function templateOwner(
  db: Queryable,
  templateId: number,
): Promise<{ program_id: number; owner_id: number; folder_id: number } | null> {
  const res = await db.execute<{ program_id: number; owner_id: number; folder_id: number }>(sql`
    SELECT f.program_id, f.owner_id, t.folder_id
    FROM text_message_templates t JOIN content_folders f ON f.id = t.folder_id WHERE t.id = ${templateId}`);
  return res.rows[0] ?? null;
}

export async function insertFolder(
  db: Queryable,
  row: { programId: number; ownerId: number; name: string },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO content_folders (program_id, owner_id, name)
    VALUES (${row.programId}, ${row.ownerId}, ${row.name}) RETURNING id`);
  return res.rows[0]!.id;
}

export async function renameFolder(db: Queryable, id: number, name: string): Promise<void> {
  await db.execute(sql`UPDATE content_folders SET name = ${name} WHERE id = ${id}`);
}

export async function deleteFolder(db: Queryable, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM content_folders WHERE id = ${id}`);
}

type TemplateRow = { name: string; body: string; question: boolean };

export async function insertTemplate(
  db: Queryable,
  folderId: number,
  row: TemplateRow,
): Promise<TextMessageTemplate> {
  const res = await db.execute<{ item: TextMessageTemplate }>(sql`
    WITH t AS (
      INSERT INTO text_message_templates (folder_id, name, body, question)
      VALUES (${folderId}, ${row.name}, ${row.body}, ${row.question}) RETURNING *)
    SELECT ${TEMPLATE} AS item FROM t`);
  return res.rows[0]!.item;
}

export async function updateTemplate(
  db: Queryable,
  id: number,
  row: Omit<TemplateRow, 'question'> & { question?: boolean },
): Promise<TextMessageTemplate> {
  const res = await db.execute<{ item: TextMessageTemplate }>(sql`
    WITH t AS (
      UPDATE text_message_templates SET name = ${row.name}, body = ${row.body},
        question = coalesce(${row.question ?? null}::boolean, question),
        updated_at = now()
      WHERE id = ${id} RETURNING *)
    SELECT ${TEMPLATE} AS item FROM t`);
  return res.rows[0]!.item;
}

export async function deleteTemplate(db: Queryable, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM text_message_templates WHERE id = ${id}`);
}

/** The owner's question templates in a program, by name. */
export async function questionTemplates(
  db: Queryable,
  programId: number,
  ownerId: number,
): Promise<{ id: number; name: string; body: string }[]> {
  const res = await db.execute<{ id: number; name: string; body: string }>(sql`
    SELECT t.id, t.name, t.body FROM text_message_templates t JOIN content_folders f ON f.id = t.folder_id
    WHERE f.program_id = ${programId} AND f.owner_id = ${ownerId} AND t.question
    ORDER BY lower(t.name), t.id`);
  return res.rows;
}
