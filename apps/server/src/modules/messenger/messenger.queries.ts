import type { ChatRole, Conversation, MessengerNotification } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { containsPattern } from '../../platform/db/like';
import { isoUtc } from '../../platform/db/time';
import { visibleProgramsQuery } from '../tenancy/tenancy.queries';

/** A conversation addressed without its program (`messenger/conversations/{id}`). */
export const conversationObject = defineObjectKind(
  'conversation',
  (id) => sql`(SELECT program_id FROM conversations WHERE id = ${id})`,
);

/** Who reads: a staff member, or a guest of one conversation (who sees no unconfirmed PHI but their own). */
export type Viewer = { kind: 'staff'; adminId: number } | { kind: 'guest'; inviteId: number };

const staffName = (alias: string) => sql.raw(`${alias}.given_name || ' ' || ${alias}.family_name`);

/** Everything one member sees of their conversations, in the order of 02 §4 (pinned first). */
function conversationsQuery(adminId: number, where: SQL): SQL {
  return sql`
    SELECT c.id, c.id AS conversation_id, c.program_id, c.name, c.name AS "conversationName",
      GREATEST(u.unread, CASE WHEN m.marked_unread THEN 1 ELSE 0 END) AS "unreadCount",
      u.threads_unread AS threads_unread_count,
      u.mentioned AS "mentionedUnreadAdmin",
      EXISTS (
        SELECT 1 FROM messenger_messages x
        WHERE x.conversation_id = c.id AND x.urgent AND x.sender_admin_id IS DISTINCT FROM m.admin_id
          AND NOT EXISTS (SELECT 1 FROM message_reactions r WHERE r.message_id = x.id AND r.kind = 'acknowledge')
      ) AS urgent,
      (SELECT coalesce(json_agg(json_build_object('id', a.id, 'name', ${staffName('a')}, 'title', a.title,
          'chat_role', mm.chat_role) ORDER BY a.family_name, a.given_name, a.id), '[]'::json)
        FROM conversation_members mm JOIN admins a ON a.id = mm.admin_id WHERE mm.conversation_id = c.id) AS users,
      m.is_pinned, m.is_archived, m.chat_role,
      CASE WHEN m.muted_until > now() THEN
        CASE WHEN m.muted_until = 'infinity' THEN 'infinity' ELSE ${isoUtc(sql`m.muted_until`)} END END AS muted_until,
      coalesce(m.muted_until > now(), false) AS muted,
      (SELECT json_build_object('id', l.id, 'body', l.body, 'sender_name', l.sender_name,
          'created_at', ${isoUtc(sql`l.created_at`)})
        FROM messenger_messages l WHERE l.conversation_id = c.id AND l.parent_id IS NULL
        ORDER BY l.id DESC LIMIT 1) AS last_message,
      ${isoUtc(sql`c.created_at`)} AS created_at
    FROM conversation_members m
    JOIN conversations c ON c.id = m.conversation_id
    CROSS JOIN LATERAL (
      SELECT
        count(*) FILTER (WHERE x.parent_id IS NULL AND x.id > m.last_read_id)::int AS unread,
        count(*) FILTER (WHERE x.parent_id IS NOT NULL AND x.id > m.threads_read_id)::int AS threads_unread,
        coalesce(bool_or(m.admin_id = ANY(x.mentions)
          AND x.id > CASE WHEN x.parent_id IS NULL THEN m.last_read_id ELSE m.threads_read_id END), false) AS mentioned
      FROM messenger_messages x
      WHERE x.conversation_id = c.id AND x.id > LEAST(m.last_read_id, m.threads_read_id)
        AND x.sender_admin_id IS DISTINCT FROM m.admin_id
    ) u
    WHERE m.admin_id = ${adminId}
      AND c.program_id IN (SELECT v.id FROM (${visibleProgramsQuery(adminId)}) v)
      AND ${where}`;
}

export type ConversationRow = Conversation;

export async function listConversations(
  db: Queryable,
  adminId: number,
  filter: {
    programId?: number;
    search?: string;
    archived?: boolean;
    ids?: number[];
    mentionedOnly?: boolean;
  },
): Promise<ConversationRow[]> {
  const where: SQL[] = [sql`true`];
  if (filter.programId !== undefined) where.push(sql`c.program_id = ${filter.programId}`);
  if (filter.archived !== undefined) where.push(sql`m.is_archived = ${filter.archived}`);
  if (filter.ids) where.push(sql`c.id = ANY(${idArray(filter.ids)}::bigint[])`);
  if (filter.search) where.push(sql`c.name ILIKE ${containsPattern(filter.search)}`);
  const inner = conversationsQuery(adminId, sql.join(where, sql` AND `));
  const res = await db.execute<ConversationRow>(sql`
    SELECT * FROM (${inner}) q
    ${filter.mentionedOnly ? sql`WHERE q."mentionedUnreadAdmin"` : sql``}
    ORDER BY q.is_pinned DESC, lower(q.name), q."unreadCount" DESC, q.id`);
  return res.rows;
}

export async function findConversation(db: Queryable, adminId: number, id: number) {
  return (await listConversations(db, adminId, { ids: [id] }))[0] ?? null;
}

export async function membership(db: Queryable, conversationId: number, adminId: number) {
  const res = await db.execute<{ chat_role: ChatRole; program_id: number; name: string }>(sql`
    SELECT m.chat_role, c.program_id, c.name FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
    WHERE m.conversation_id = ${conversationId} AND m.admin_id = ${adminId}`);
  return res.rows[0] ?? null;
}

export async function memberIds(db: Queryable, conversationId: number): Promise<number[]> {
  const res = await db.execute<{ admin_id: number }>(
    sql`SELECT admin_id FROM conversation_members WHERE conversation_id = ${conversationId}`,
  );
  return res.rows.map((r) => Number(r.admin_id));
}

export async function ownerCount(db: Queryable, conversationId: number): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM conversation_members WHERE conversation_id = ${conversationId} AND chat_role = 'owner'`);
  return res.rows[0]?.n ?? 0;
}

/** Those of `ids` who work in the program (a role there, or enterprise admin of its enterprise) and are enabled. */
export async function staffOfProgram(db: Queryable, programId: number, ids: number[]): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT a.id FROM admins a
    WHERE a.id = ANY(${idArray(ids)}::bigint[]) AND a.disabled_at IS NULL AND (
      EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id = ${programId})
      OR EXISTS (SELECT 1 FROM admin_enterprise_roles e JOIN programs g ON g.enterprise_id = e.enterprise_id
        WHERE e.admin_id = a.id AND g.id = ${programId}))`);
  return res.rows.map((r) => Number(r.id));
}

export async function insertConversation(
  db: Queryable,
  c: { programId: number; name: string; createdBy: number },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO conversations (program_id, name, created_by) VALUES (${c.programId}, ${c.name}, ${c.createdBy}) RETURNING id`);
  return Number(res.rows[0]!.id);
}

/** Adds members (new ones start with everything before them read); returns those actually added. */
export async function addMembers(
  db: Queryable,
  conversationId: number,
  ids: number[],
  role: ChatRole,
): Promise<number[]> {
  const res = await db.execute<{ admin_id: number }>(sql`
    INSERT INTO conversation_members (conversation_id, admin_id, chat_role, last_read_id, threads_read_id)
    SELECT ${conversationId}, id, ${role},
      coalesce((SELECT max(id) FROM messenger_messages WHERE conversation_id = ${conversationId}), 0),
      coalesce((SELECT max(id) FROM messenger_messages WHERE conversation_id = ${conversationId}), 0)
    FROM unnest(${idArray(ids)}::bigint[]) AS id
    ON CONFLICT DO NOTHING RETURNING admin_id`);
  return res.rows.map((r) => Number(r.admin_id));
}

export async function removeMember(db: Queryable, conversationId: number, adminId: number): Promise<boolean> {
  const res = await db.execute(sql`
    DELETE FROM conversation_members WHERE conversation_id = ${conversationId} AND admin_id = ${adminId}`);
  return (res.rowCount ?? 0) > 0;
}

export async function renameConversation(db: Queryable, id: number, name: string) {
  await db.execute(sql`UPDATE conversations SET name = ${name} WHERE id = ${id}`);
}

export async function updateMember(
  db: Queryable,
  conversationId: number,
  adminId: number,
  set: {
    isPinned?: boolean;
    isArchived?: boolean;
    chatRole?: ChatRole;
    mutedUntil?: Date | 'infinity' | null;
  },
) {
  const parts: SQL[] = [];
  if (set.isPinned !== undefined) parts.push(sql`is_pinned = ${set.isPinned}`);
  if (set.isArchived !== undefined) parts.push(sql`is_archived = ${set.isArchived}`);
  if (set.chatRole !== undefined) parts.push(sql`chat_role = ${set.chatRole}`);
  if (set.mutedUntil !== undefined)
    parts.push(
      sql`muted_until = ${set.mutedUntil === null ? null : set.mutedUntil === 'infinity' ? 'infinity' : set.mutedUntil.toISOString()}::timestamptz`,
    );
  if (parts.length === 0) return;
  await db.execute(sql`
    UPDATE conversation_members SET ${sql.join(parts, sql`, `)}
    WHERE conversation_id = ${conversationId} AND admin_id = ${adminId}`);
}

/** Marks read: every message of the conversations (all of the member's when `conversationId` is null). */
export async function markRead(
  db: Queryable,
  adminId: number,
  conversationId: number | null,
  what: { topLevel: boolean; threads: boolean },
) {
  const sets: SQL[] = [];
  const newest = sql`coalesce((SELECT max(x.id) FROM messenger_messages x WHERE x.conversation_id = m.conversation_id), 0)`;
  if (what.topLevel)
    sets.push(sql`last_read_id = GREATEST(m.last_read_id, ${newest}), marked_unread = false`);
  if (what.threads) sets.push(sql`threads_read_id = GREATEST(m.threads_read_id, ${newest})`);
  await db.execute(sql`
    UPDATE conversation_members m SET ${sql.join(sets, sql`, `)}
    WHERE m.admin_id = ${adminId} ${conversationId === null ? sql`` : sql`AND m.conversation_id = ${conversationId}`}`);
  await db.execute(sql`
    UPDATE messenger_notifications SET read_at = now()
    WHERE admin_id = ${adminId} AND read_at IS NULL
      ${conversationId === null ? sql`` : sql`AND conversation_id = ${conversationId}`}`);
}

export async function markUnread(db: Queryable, adminId: number, conversationId: number) {
  await db.execute(sql`
    UPDATE conversation_members SET marked_unread = true WHERE conversation_id = ${conversationId} AND admin_id = ${adminId}`);
}

const visibleAttachment = (viewer: Viewer, alias: string) => {
  const t = sql.raw(alias);
  const own =
    viewer.kind === 'staff'
      ? sql`x2.sender_admin_id = ${viewer.adminId}`
      : sql`x2.guest_invite_id = ${viewer.inviteId}`;
  return sql`(NOT ${t}.phi OR ${t}.confirmed_at IS NOT NULL
    OR EXISTS (SELECT 1 FROM messenger_messages x2 WHERE x2.id = ${t}.message_id AND ${own}))`;
};

/** Messages as one viewer sees them (unconfirmed PHI attachments only to their sender). */
function messagesQuery(viewer: Viewer, where: SQL, order: SQL, limit: number, offset = 0): SQL {
  return sql`
    SELECT x.id, x.id AS message_id, x.conversation_id, x.parent_id, x.body, x.urgent,
      json_build_object('id', coalesce(x.sender_admin_id, x.guest_invite_id, 0), 'name', x.sender_name,
        'kind', CASE WHEN x.guest_invite_id IS NULL THEN 'staff' ELSE 'guest' END) AS sender,
      x.mentions,
      (SELECT coalesce(json_agg(json_build_object('id', a.id, 'name', ${staffName('a')}, 'at', ${isoUtc(sql`r.created_at`)})
          ORDER BY r.created_at), '[]'::json)
        FROM message_reactions r JOIN admins a ON a.id = r.admin_id
        WHERE r.message_id = x.id AND r.kind = 'acknowledge') AS acknowledged_by,
      array(SELECT r.admin_id FROM message_reactions r WHERE r.message_id = x.id AND r.kind = 'thumbs_up'
        ORDER BY r.created_at) AS thumbs_up,
      (SELECT count(*)::int FROM messenger_messages t WHERE t.parent_id = x.id) AS threads_count,
      (SELECT coalesce(json_agg(json_build_object('id', f.id, 'message_id', f.message_id, 'file_name', f.file_name,
          'content_type', f.content_type, 'size', f.size, 'phi', f.phi, 'confirmed', f.confirmed_at IS NOT NULL,
          'created_at', ${isoUtc(sql`f.created_at`)}) ORDER BY f.id), '[]'::json)
        FROM messenger_attachments f WHERE f.message_id = x.id AND ${visibleAttachment(viewer, 'f')}) AS attachments,
      (SELECT count(*)::int FROM messenger_attachments f WHERE f.message_id = x.id AND NOT ${visibleAttachment(viewer, 'f')})
        AS pending_attachments,
      ${isoUtc(sql`x.created_at`)} AS created_at
    FROM messenger_messages x
    WHERE ${where}
    ORDER BY ${order}
    LIMIT ${limit} OFFSET ${offset}`;
}

export type AttachmentRow = {
  id: number;
  message_id: number;
  file_name: string;
  content_type: string;
  size: number;
  phi: boolean;
  confirmed: boolean;
  created_at: string;
};
export type MessageRow = {
  id: number;
  message_id: number;
  conversation_id: number;
  parent_id: number | null;
  body: string;
  urgent: boolean;
  sender: { id: number; name: string; kind: 'staff' | 'guest' };
  mentions: number[];
  acknowledged_by: { id: number; name: string; at: string }[];
  thumbs_up: number[];
  threads_count: number;
  attachments: AttachmentRow[];
  pending_attachments: number;
  created_at: string;
};

function normalise(row: MessageRow): MessageRow {
  return {
    ...row,
    id: Number(row.id),
    message_id: Number(row.message_id),
    conversation_id: Number(row.conversation_id),
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    mentions: row.mentions.map(Number),
    thumbs_up: row.thumbs_up.map(Number),
  };
}

/** The newest top-level messages (before `beforeId`), returned oldest first; one more tells whether there are older. */
export async function pageOfMessages(
  db: Queryable,
  viewer: Viewer,
  conversationId: number,
  opts: { beforeId?: number; limit: number },
): Promise<{ messages: MessageRow[]; hasMore: boolean }> {
  const where = sql`x.conversation_id = ${conversationId} AND x.parent_id IS NULL
    ${opts.beforeId ? sql`AND x.id < ${opts.beforeId}` : sql``}`;
  const res = await db.execute<MessageRow>(messagesQuery(viewer, where, sql`x.id DESC`, opts.limit + 1));
  const rows = res.rows.map(normalise);
  return { messages: rows.slice(0, opts.limit).reverse(), hasMore: rows.length > opts.limit };
}

export async function messagesByIds(db: Queryable, viewer: Viewer, ids: number[]): Promise<MessageRow[]> {
  const res = await db.execute<MessageRow>(
    messagesQuery(viewer, sql`x.id = ANY(${idArray(ids)}::bigint[])`, sql`x.id`, ids.length),
  );
  return res.rows.map(normalise);
}

export async function threadReplies(db: Queryable, viewer: Viewer, parentId: number): Promise<MessageRow[]> {
  const res = await db.execute<MessageRow>(
    messagesQuery(viewer, sql`x.parent_id = ${parentId}`, sql`x.id`, 1000),
  );
  return res.rows.map(normalise);
}

export async function searchMessages(
  db: Queryable,
  viewer: Viewer,
  conversationId: number,
  text: string,
  page: number,
  perPage: number,
): Promise<{ messages: MessageRow[]; hasMore: boolean }> {
  const where = sql`x.conversation_id = ${conversationId} AND x.body ILIKE ${containsPattern(text)}`;
  const res = await db.execute<MessageRow>(
    messagesQuery(viewer, where, sql`x.id DESC`, perPage + 1, (page - 1) * perPage),
  );
  const rows = res.rows.map(normalise);
  return { messages: rows.slice(0, perPage), hasMore: rows.length > perPage };
}

/** The message's conversation and thread root, when it is in that conversation. */
export async function messageIn(db: Queryable, conversationId: number, messageId: number) {
  const res = await db.execute<{ id: number; parent_id: number | null; sender_admin_id: number | null }>(sql`
    SELECT id, parent_id, sender_admin_id FROM messenger_messages WHERE id = ${messageId} AND conversation_id = ${conversationId}`);
  const row = res.rows[0];
  return row
    ? {
        id: Number(row.id),
        parentId: row.parent_id === null ? null : Number(row.parent_id),
        senderAdminId: row.sender_admin_id === null ? null : Number(row.sender_admin_id),
      }
    : null;
}

export async function insertMessage(
  db: Queryable,
  m: {
    conversationId: number;
    parentId: number | null;
    senderAdminId: number | null;
    guestInviteId: number | null;
    senderName: string;
    body: string;
    urgent: boolean;
    mentions: number[];
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO messenger_messages (conversation_id, parent_id, sender_admin_id, guest_invite_id, sender_name, body, urgent, mentions)
    VALUES (${m.conversationId}, ${m.parentId}, ${m.senderAdminId}, ${m.guestInviteId}, ${m.senderName}, ${m.body},
      ${m.urgent}, ${idArray(m.mentions)}::bigint[])
    RETURNING id`);
  const id = Number(res.rows[0]!.id);
  // The sender has read everything up to their own message.
  if (m.senderAdminId !== null)
    await db.execute(sql`
      UPDATE conversation_members SET
        ${m.parentId === null ? sql`last_read_id = GREATEST(last_read_id, ${id}), marked_unread = false` : sql`threads_read_id = GREATEST(threads_read_id, ${id})`}
      WHERE conversation_id = ${m.conversationId} AND admin_id = ${m.senderAdminId}`);
  return id;
}

export async function insertAttachments(
  db: Queryable,
  messageId: number,
  conversationId: number,
  files: { key: string; fileName: string; contentType: string; size: number }[],
  phi: boolean,
) {
  if (files.length === 0) return;
  await db.execute(sql`
    INSERT INTO messenger_attachments (message_id, conversation_id, storage_key, file_name, content_type, size, phi)
    SELECT ${messageId}, ${conversationId}, f->>'key', f->>'fileName', f->>'contentType', (f->>'size')::bigint, ${phi}
    FROM jsonb_array_elements(${JSON.stringify(files)}::jsonb) AS f`);
}

/** Confirms the sender's own waiting PHI attachments (of one message, or some, or all in the conversation). */
export async function confirmAttachments(
  db: Queryable,
  conversationId: number,
  adminId: number,
  which: { messageId?: number; attachmentIds?: number[] },
): Promise<number[]> {
  const res = await db.execute<{ message_id: number }>(sql`
    UPDATE messenger_attachments f SET confirmed_at = now()
    FROM messenger_messages x
    WHERE x.id = f.message_id AND x.sender_admin_id = ${adminId} AND f.conversation_id = ${conversationId}
      AND f.phi AND f.confirmed_at IS NULL
      ${which.messageId ? sql`AND f.message_id = ${which.messageId}` : sql``}
      ${which.attachmentIds ? sql`AND f.id = ANY(${idArray(which.attachmentIds)}::bigint[])` : sql``}
    RETURNING f.message_id`);
  return [...new Set(res.rows.map((r) => Number(r.message_id)))];
}

export async function attachmentsOf(
  db: Queryable,
  viewer: Viewer,
  conversationId: number,
): Promise<AttachmentRow[]> {
  const res = await db.execute<AttachmentRow>(sql`
    SELECT f.id, f.message_id, f.file_name, f.content_type, f.size::int AS size, f.phi,
      f.confirmed_at IS NOT NULL AS confirmed, ${isoUtc(sql`f.created_at`)} AS created_at
    FROM messenger_attachments f
    WHERE f.conversation_id = ${conversationId} AND ${visibleAttachment(viewer, 'f')}
    ORDER BY f.id DESC LIMIT 500`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id), message_id: Number(r.message_id) }));
}

export async function attachmentFor(db: Queryable, viewer: Viewer, conversationId: number, fileId: number) {
  const res = await db.execute<{ storage_key: string; file_name: string; content_type: string }>(sql`
    SELECT f.storage_key, f.file_name, f.content_type FROM messenger_attachments f
    WHERE f.id = ${fileId} AND f.conversation_id = ${conversationId} AND ${visibleAttachment(viewer, 'f')}`);
  return res.rows[0] ?? null;
}

/** Toggles a reaction; returns whether it is now set. */
export async function setReaction(
  db: Queryable,
  messageId: number,
  adminId: number,
  kind: 'acknowledge' | 'thumbs_up',
  value: boolean,
) {
  if (value)
    await db.execute(sql`
      INSERT INTO message_reactions (message_id, admin_id, kind) VALUES (${messageId}, ${adminId}, ${kind})
      ON CONFLICT DO NOTHING`);
  else
    await db.execute(sql`
      DELETE FROM message_reactions WHERE message_id = ${messageId} AND admin_id = ${adminId} AND kind = ${kind}`);
}

export async function hasReaction(db: Queryable, messageId: number, adminId: number, kind: string) {
  const res = await db.execute(sql`
    SELECT 1 FROM message_reactions WHERE message_id = ${messageId} AND admin_id = ${adminId} AND kind = ${kind}`);
  return (res.rowCount ?? 0) > 0;
}

/** Acknowledges every urgent message of a thread (its root and replies) sent by someone else. */
export async function acknowledgeThread(db: Queryable, rootId: number, adminId: number) {
  await db.execute(sql`
    INSERT INTO message_reactions (message_id, admin_id, kind)
    SELECT x.id, ${adminId}, 'acknowledge' FROM messenger_messages x
    WHERE (x.id = ${rootId} OR x.parent_id = ${rootId}) AND x.urgent AND x.sender_admin_id IS DISTINCT FROM ${adminId}
    ON CONFLICT DO NOTHING`);
}

export async function insertNotifications(
  db: Queryable,
  rows: {
    adminIds: number[];
    kind: 'mention' | 'urgent' | 'added';
    conversationId: number;
    messageId: number | null;
    fromName: string;
    preview: string;
  },
) {
  if (rows.adminIds.length === 0) return;
  await db.execute(sql`
    INSERT INTO messenger_notifications (admin_id, kind, conversation_id, message_id, from_name, preview)
    SELECT id, ${rows.kind}, ${rows.conversationId}, ${rows.messageId}, ${rows.fromName}, ${rows.preview}
    FROM unnest(${idArray(rows.adminIds)}::bigint[]) AS id`);
}

export async function notificationsOf(
  db: Queryable,
  adminId: number,
  unreadOnly: boolean,
  programId?: number,
) {
  const inProgram = programId === undefined ? sql`` : sql`AND c.program_id = ${programId}`;
  const res = await db.execute<MessengerNotification>(sql`
    SELECT n.id, n.kind, n.conversation_id, c.name AS conversation_name, n.message_id, n.from_name, n.preview,
      n.read_at IS NOT NULL AS read, ${isoUtc(sql`n.created_at`)} AS created_at
    FROM messenger_notifications n JOIN conversations c ON c.id = n.conversation_id
    WHERE n.admin_id = ${adminId} ${unreadOnly ? sql`AND n.read_at IS NULL` : sql``} ${inProgram}
      AND EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = n.conversation_id AND m.admin_id = n.admin_id)
    ORDER BY n.id DESC LIMIT 100`);
  const unread = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM messenger_notifications n JOIN conversations c ON c.id = n.conversation_id
    WHERE n.admin_id = ${adminId} AND n.read_at IS NULL ${inProgram}
      AND EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = n.conversation_id AND m.admin_id = n.admin_id)`);
  return {
    data: res.rows.map((r) => ({
      ...r,
      id: Number(r.id),
      conversation_id: Number(r.conversation_id),
      message_id: r.message_id === null ? null : Number(r.message_id),
    })),
    unread: unread.rows[0]?.n ?? 0,
  };
}

/** Staff the actor may mention or add: members of a conversation, or staff of a program. */
export async function mentionable(
  db: Queryable,
  scope: { conversationId: number } | { programId: number },
  search: string | undefined,
) {
  const inScope =
    'conversationId' in scope
      ? sql`EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = ${scope.conversationId} AND m.admin_id = a.id)`
      : sql`(EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id = ${scope.programId})
          OR EXISTS (SELECT 1 FROM admin_enterprise_roles e JOIN programs g ON g.enterprise_id = e.enterprise_id
            WHERE e.admin_id = a.id AND g.id = ${scope.programId}))`;
  const res = await db.execute<{ id: number; name: string; title: string | null }>(sql`
    SELECT a.id, ${staffName('a')} AS name, a.title FROM admins a
    WHERE a.disabled_at IS NULL AND ${inScope}
      ${search ? sql`AND (${staffName('a')}) ILIKE ${containsPattern(search)}` : sql``}
    ORDER BY a.family_name, a.given_name, a.id LIMIT 50`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function unreadTotals(db: Queryable, adminId: number) {
  const res = await db.execute<{
    count: number;
    conversations: number;
    mentions: number;
    urgent: number;
  }>(sql`
    SELECT coalesce(sum(q."unreadCount") FILTER (WHERE NOT q.muted), 0)::int AS count,
      count(*) FILTER (WHERE q."unreadCount" > 0 AND NOT q.muted)::int AS conversations,
      count(*) FILTER (WHERE q."mentionedUnreadAdmin")::int AS mentions,
      count(*) FILTER (WHERE q.urgent)::int AS urgent
    FROM (${conversationsQuery(adminId, sql`true`)}) q`);
  return res.rows[0] ?? { count: 0, conversations: 0, mentions: 0, urgent: 0 };
}

export async function staffNameOf(db: Queryable, adminId: number): Promise<string> {
  const res = await db.execute<{ name: string }>(
    sql`SELECT ${staffName('a')} AS name FROM admins a WHERE a.id = ${adminId}`,
  );
  return res.rows[0]?.name ?? '';
}
