import {
  type AuditAction,
  type ChatRole,
  MESSENGER_MESSAGES as M,
  MUTE_FOREVER,
  messengerContract,
  type NewMessageFields,
  routeUrl,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import type { FileStorage } from '../../platform/files/storage';
import type { UploadedFile } from '../../platform/files/upload';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import {
  acknowledgeThread,
  addMembers,
  attachmentFor,
  attachmentsOf,
  confirmAttachments,
  findConversation,
  hasReaction,
  insertAttachments,
  insertConversation,
  insertMessage,
  insertNotifications,
  listConversations,
  type MessageRow,
  markRead,
  markUnread,
  memberIds,
  membership,
  mentionable,
  messageIn,
  messagesByIds,
  notificationsOf,
  ownerCount,
  pageOfMessages,
  removeMember,
  renameConversation,
  searchMessages,
  setReaction,
  staffNameOf,
  staffOfProgram,
  threadReplies,
  unreadTotals,
  updateMember,
  type Viewer,
} from './messenger.queries';

/** Live events of the messenger (ids only: each client reloads what it may see). */
export const MESSENGER_EVENTS = {
  message: 'messenger.message',
  conversation: 'messenger.conversation',
  notification: 'messenger.notification',
} as const;

const PREVIEW_CHARS = 140;
const preview = (body: string, files: number) =>
  body ? body.replace(/\s+/g, ' ').slice(0, PREVIEW_CHARS) : files > 0 ? '📎' : '';

/** The URL a viewer downloads an attachment from (staff and guests have their own paths). */
export type FileUrl = (conversationId: number, fileId: number) => string;
export const staffFileUrl: FileUrl = (id, fileId) => routeUrl(messengerContract.download, { id, fileId });

export function withUrls(rows: MessageRow[], url: FileUrl) {
  return rows.map((m) => ({
    ...m,
    attachments: m.attachments.map((a) => ({ ...a, url: url(m.conversation_id, a.id) })),
  }));
}

type Sender =
  | { kind: 'staff'; adminId: number; name: string }
  | { kind: 'guest'; inviteId: number; name: string };
const senderId = (s: Sender) => (s.kind === 'staff' ? s.adminId : null);

export type PostInput = {
  conversationId: number;
  conversationName: string;
  fields: NewMessageFields;
  files: UploadedFile[];
};

export function createMessengerService(deps: { db: Database; realtime: Realtime; storage: FileStorage }) {
  const { db, realtime, storage } = deps;

  async function requireMember(q: Queryable, conversationId: number, adminId: number) {
    const m = await membership(q, conversationId, adminId);
    if (!m) throw AppError.notFound();
    return m;
  }

  async function conversationFor(q: Queryable, adminId: number, id: number) {
    const c = await findConversation(q, adminId, id);
    if (!c) throw AppError.notFound();
    return c;
  }

  async function oneMessage(q: Queryable, viewer: Viewer, id: number) {
    const [row] = withUrls(await messagesByIds(q, viewer, [id]), staffFileUrl);
    if (!row) throw AppError.notFound();
    return row;
  }

  function tell(adminIds: number[], event: string, payload: unknown) {
    for (const id of adminIds) realtime.toUser(id, event, payload);
  }

  const staff = (actor: StaffActor): Viewer => ({ kind: 'staff', adminId: actor.adminId });
  const trail = (
    actor: StaffActor,
    programId: number,
    action: AuditAction,
    subjectId: number,
    details?: Record<string, unknown>,
  ) => ({
    actorAdminId: actor.adminId,
    programId,
    action,
    subjectType: 'conversation',
    subjectId,
    ...(details ? { details } : {}),
    ip: actor.ip,
  });

  /**
   * Posts a message (staff or guest) in one transaction with its attachments and notifications; tells
   * every member and the conversation's guests afterwards. Files were stored before: on failure they go.
   */
  async function post(sender: Sender, input: PostInput, auditEntry: Parameters<typeof audit>[1]) {
    const { fields, files, conversationId } = input;
    try {
      if (!fields.body && files.length === 0) throw AppError.validation({ body: [M.empty] });
      const result = await db.transaction(async (tx) => {
        let parentId: number | null = null;
        if (fields.parent_id) {
          const parent = await messageIn(tx, conversationId, fields.parent_id);
          if (!parent) throw AppError.validation({ parent_id: [M.notThread] });
          parentId = parent.parentId ?? parent.id;
        }
        const members = await memberIds(tx, conversationId);
        const mentions = fields.mentions.filter((id) => members.includes(id) && id !== senderId(sender));
        const id = await insertMessage(tx, {
          conversationId,
          parentId,
          senderAdminId: senderId(sender),
          guestInviteId: sender.kind === 'guest' ? sender.inviteId : null,
          senderName: sender.name,
          body: fields.body,
          urgent: fields.urgent,
          mentions,
        });
        await insertAttachments(tx, id, conversationId, files, fields.phi);
        const text = preview(fields.body, files.length);
        await insertNotifications(tx, {
          adminIds: mentions,
          kind: 'mention',
          conversationId,
          messageId: id,
          fromName: sender.name,
          preview: text,
        });
        if (fields.urgent)
          await insertNotifications(tx, {
            adminIds: members.filter((m) => m !== senderId(sender) && !mentions.includes(m)),
            kind: 'urgent',
            conversationId,
            messageId: id,
            fromName: sender.name,
            preview: text,
          });
        await audit(tx, {
          ...auditEntry,
          details: { message_id: id, files: files.length, urgent: fields.urgent },
        });
        return { id, parentId, members, mentions, text };
      });
      const event = { conversation_id: conversationId, message_id: result.id, parent_id: result.parentId };
      tell(result.members, MESSENGER_EVENTS.message, event);
      realtime.toGuests(conversationId, MESSENGER_EVENTS.message, event);
      const note = {
        conversation_id: conversationId,
        conversation_name: input.conversationName,
        message_id: result.id,
        from_name: sender.name,
        preview: result.text,
      };
      tell(result.mentions, MESSENGER_EVENTS.notification, { ...note, kind: 'mention' });
      if (fields.urgent) {
        const others = result.members.filter((m) => m !== senderId(sender) && !result.mentions.includes(m));
        tell(others, MESSENGER_EVENTS.notification, { ...note, kind: 'urgent' });
      }
      return result.id;
    } catch (err) {
      await Promise.all(files.map((f) => storage.remove(f.key)));
      throw err;
    }
  }

  return {
    post,

    async list(actor: StaffActor, q: { program_id?: number; search?: string; archived: '0' | '1' }) {
      return {
        data: await listConversations(db, actor.adminId, {
          programId: q.program_id,
          search: q.search || undefined,
          archived: q.archived === '1',
        }),
      };
    },

    async unreadMentions(actor: StaffActor) {
      const data = await listConversations(db, actor.adminId, { mentionedOnly: true });
      return { data, count: data.length };
    },

    async create(actor: StaffActor, input: { program_id: number; name: string; users: number[] }) {
      const programId = input.program_id;
      const others = input.users.filter((id) => id !== actor.adminId);
      const created = await db.transaction(async (tx) => {
        const [me] = await staffOfProgram(tx, programId, [actor.adminId]);
        // A program the actor does not work in is one they cannot see: 422 on the field, not a hint it exists.
        if (!me) throw AppError.validation({ program_id: ['Choose a program you work in.'] });
        const allowed = await staffOfProgram(tx, programId, others);
        if (allowed.length !== others.length) throw AppError.validation({ users: [M.notStaff] });
        const id = await insertConversation(tx, { programId, name: input.name, createdBy: actor.adminId });
        await addMembers(tx, id, [actor.adminId], 'owner');
        await addMembers(tx, id, others, 'member');
        await insertNotifications(tx, {
          adminIds: others,
          kind: 'added',
          conversationId: id,
          messageId: null,
          fromName: await staffNameOf(tx, actor.adminId),
          preview: input.name,
        });
        await audit(
          tx,
          trail(actor, programId, 'messenger.conversation.create', id, { users: others.length + 1 }),
        );
        return id;
      });
      tell(others, MESSENGER_EVENTS.conversation, { conversation_id: created });
      tell(others, MESSENGER_EVENTS.notification, {
        kind: 'added',
        conversation_id: created,
        conversation_name: input.name,
        message_id: null,
        from_name: await staffNameOf(db, actor.adminId),
        preview: input.name,
      });
      return { message: M.created, data: await conversationFor(db, actor.adminId, created) };
    },

    /** Opening a conversation clears the opener's unread count and mention flags (02 §4). */
    async get(actor: StaffActor, id: number, q: { before_id?: number; limit: number }) {
      await requireMember(db, id, actor.adminId);
      if (!q.before_id) await markRead(db, actor.adminId, id, { topLevel: true, threads: false });
      const [data, page] = await Promise.all([
        conversationFor(db, actor.adminId, id),
        pageOfMessages(db, staff(actor), id, { beforeId: q.before_id, limit: q.limit }),
      ]);
      return { data, messages: withUrls(page.messages, staffFileUrl), has_more: page.hasMore };
    },

    async rename(actor: StaffActor, id: number, name: string) {
      const m = await requireMember(db, id, actor.adminId);
      if (m.chat_role !== 'owner') throw AppError.forbidden(M.notOwner);
      await db.transaction(async (tx) => {
        await renameConversation(tx, id, name);
        await audit(tx, trail(actor, m.program_id, 'messenger.conversation.rename', id));
      });
      tell(await memberIds(db, id), MESSENGER_EVENTS.conversation, { conversation_id: id });
      return { message: M.renamed, data: await conversationFor(db, actor.adminId, id) };
    },

    async confirmPhi(
      actor: StaffActor,
      id: number,
      which: { message_id?: number; attachment_ids?: number[] },
    ) {
      const m = await requireMember(db, id, actor.adminId);
      const messages = await db.transaction(async (tx) => {
        const confirmed = await confirmAttachments(tx, id, actor.adminId, {
          messageId: which.message_id,
          attachmentIds: which.attachment_ids,
        });
        if (confirmed.length > 0)
          await audit(
            tx,
            trail(actor, m.program_id, 'messenger.attachment.confirm_phi', id, { messages: confirmed }),
          );
        return confirmed;
      });
      if (messages.length === 0) throw AppError.validation({ message_id: [M.nothingToConfirm] });
      const members = await memberIds(db, id);
      for (const messageId of messages) {
        tell(members, MESSENGER_EVENTS.message, {
          conversation_id: id,
          message_id: messageId,
          parent_id: null,
        });
        realtime.toGuests(id, MESSENGER_EVENTS.message, {
          conversation_id: id,
          message_id: messageId,
          parent_id: null,
        });
      }
      return { message: M.confirmed, confirmed: messages.length };
    },

    async search(actor: StaffActor, id: number, q: { query: string; page: number }) {
      await requireMember(db, id, actor.adminId);
      const res = await searchMessages(db, staff(actor), id, q.query, q.page, 25);
      return { data: withUrls(res.messages, staffFileUrl), current_page: q.page, has_more: res.hasMore };
    },

    async files(actor: StaffActor, id: number) {
      await requireMember(db, id, actor.adminId);
      const rows = await attachmentsOf(db, staff(actor), id);
      return { data: rows.map((a) => ({ ...a, url: staffFileUrl(id, a.id) })) };
    },

    async download(actor: StaffActor, id: number, fileId: number) {
      const m = await requireMember(db, id, actor.adminId);
      const file = await attachmentFor(db, staff(actor), id, fileId);
      if (!file) throw AppError.notFound();
      await audit(db, trail(actor, m.program_id, 'messenger.attachment.download', id, { file_id: fileId }));
      return {
        ...(await storage.open(file.storage_key)),
        fileName: file.file_name,
        contentType: file.content_type,
      };
    },

    async addUsers(actor: StaffActor, id: number, users: number[]) {
      const m = await requireMember(db, id, actor.adminId);
      const added = await db.transaction(async (tx) => {
        const allowed = await staffOfProgram(tx, m.program_id, users);
        if (allowed.length !== users.length) throw AppError.validation({ users: [M.notStaff] });
        const fresh = await addMembers(tx, id, users, 'member');
        await insertNotifications(tx, {
          adminIds: fresh,
          kind: 'added',
          conversationId: id,
          messageId: null,
          fromName: await staffNameOf(tx, actor.adminId),
          preview: m.name,
        });
        await audit(tx, trail(actor, m.program_id, 'messenger.conversation.add_users', id, { users: fresh }));
        return fresh;
      });
      tell(await memberIds(db, id), MESSENGER_EVENTS.conversation, { conversation_id: id });
      tell(added, MESSENGER_EVENTS.notification, {
        kind: 'added',
        conversation_id: id,
        conversation_name: m.name,
        message_id: null,
        from_name: await staffNameOf(db, actor.adminId),
        preview: m.name,
      });
      return { message: M.usersAdded, data: await conversationFor(db, actor.adminId, id) };
    },

    async removeUser(actor: StaffActor, id: number, userId: number, leaving: boolean) {
      const m = await requireMember(db, id, actor.adminId);
      const self = userId === actor.adminId;
      if (leaving && !self) throw AppError.forbidden(M.onlySelf);
      if (!self && m.chat_role !== 'owner') throw AppError.forbidden(M.notOwner);
      const before = await memberIds(db, id);
      await db.transaction(async (tx) => {
        const target = await membership(tx, id, userId);
        if (!target) throw AppError.notFound();
        if (target.chat_role === 'owner' && before.length > 1 && (await ownerCount(tx, id)) === 1)
          throw AppError.conflict(M.lastOwner);
        await removeMember(tx, id, userId);
        await audit(
          tx,
          trail(
            actor,
            m.program_id,
            self ? 'messenger.conversation.leave' : 'messenger.conversation.remove_user',
            id,
            {
              user_id: userId,
            },
          ),
        );
      });
      tell(before, MESSENGER_EVENTS.conversation, { conversation_id: id });
      return { message: self ? M.left : M.removed };
    },

    async updateUser(
      actor: StaffActor,
      id: number,
      userId: number,
      set: { is_pinned?: boolean; is_archived?: boolean; chat_role?: ChatRole },
    ) {
      const m = await requireMember(db, id, actor.adminId);
      const self = userId === actor.adminId;
      if (!self && (set.is_pinned !== undefined || set.is_archived !== undefined))
        throw AppError.forbidden(M.onlySelf);
      if (set.chat_role !== undefined && m.chat_role !== 'owner') throw AppError.forbidden(M.notOwner);
      await db.transaction(async (tx) => {
        const target = await membership(tx, id, userId);
        if (!target) throw AppError.notFound();
        if (set.chat_role === 'member' && target.chat_role === 'owner' && (await ownerCount(tx, id)) === 1)
          throw AppError.conflict(M.lastOwner);
        await updateMember(tx, id, userId, {
          isPinned: set.is_pinned,
          isArchived: set.is_archived,
          chatRole: set.chat_role,
        });
        await audit(
          tx,
          trail(actor, m.program_id, 'messenger.conversation.update_user', id, { user_id: userId, ...set }),
        );
      });
      if (set.chat_role !== undefined) tell([userId], MESSENGER_EVENTS.conversation, { conversation_id: id });
      return { message: M.updated, data: await conversationFor(db, actor.adminId, id) };
    },

    async mute(actor: StaffActor, id: number, userId: number, minutes: number) {
      const m = await requireMember(db, id, actor.adminId);
      if (userId !== actor.adminId) throw AppError.forbidden(M.onlySelf);
      const until =
        minutes === 0
          ? null
          : minutes === MUTE_FOREVER
            ? ('infinity' as const)
            : new Date(Date.now() + minutes * 60_000);
      await db.transaction(async (tx) => {
        await updateMember(tx, id, userId, { mutedUntil: until });
        await audit(tx, trail(actor, m.program_id, 'messenger.conversation.mute', id, { minutes }));
      });
      return { message: until ? M.muted : M.unmuted, data: await conversationFor(db, actor.adminId, id) };
    },

    async postAsStaff(actor: StaffActor, input: Omit<PostInput, 'conversationName'>) {
      const m = await requireMember(db, input.conversationId, actor.adminId).catch(async (err) => {
        await Promise.all(input.files.map((f) => storage.remove(f.key)));
        throw err;
      });
      const name = await staffNameOf(db, actor.adminId);
      const id = await post(
        { kind: 'staff', adminId: actor.adminId, name },
        { ...input, conversationName: m.name },
        trail(actor, m.program_id, 'messenger.message.post', input.conversationId),
      );
      return { data: await oneMessage(db, staff(actor), id) };
    },

    async read(actor: StaffActor, id: number) {
      await requireMember(db, id, actor.adminId);
      await markRead(db, actor.adminId, id, { topLevel: true, threads: false });
      return { message: M.read, data: await conversationFor(db, actor.adminId, id) };
    },

    async unread(actor: StaffActor, id: number) {
      await requireMember(db, id, actor.adminId);
      await markUnread(db, actor.adminId, id);
      return { message: M.unread, data: await conversationFor(db, actor.adminId, id) };
    },

    async thread(actor: StaffActor, id: number, messageId: number) {
      await requireMember(db, id, actor.adminId);
      const root = await messageIn(db, id, messageId);
      if (!root) throw AppError.notFound();
      const rootId = root.parentId ?? root.id;
      const [data, replies] = await Promise.all([
        oneMessage(db, staff(actor), rootId),
        threadReplies(db, staff(actor), rootId),
      ]);
      return { data, replies: withUrls(replies, staffFileUrl) };
    },

    async clearThreads(actor: StaffActor, id: number, messageId: number) {
      await requireMember(db, id, actor.adminId);
      if (!(await messageIn(db, id, messageId))) throw AppError.notFound();
      await markRead(db, actor.adminId, id, { topLevel: false, threads: true });
      return { message: M.threadsCleared, data: await conversationFor(db, actor.adminId, id) };
    },

    /** Acknowledging clears the thread's urgent flag for everyone and the acknowledger's unread (02 §4). */
    async acknowledge(actor: StaffActor, conversationId: number, userId: number, parentId: number) {
      const m = await requireMember(db, conversationId, actor.adminId);
      if (userId !== actor.adminId) throw AppError.forbidden(M.onlySelf);
      const msg = await messageIn(db, conversationId, parentId);
      if (!msg) throw AppError.validation({ parent_id: [M.notThread] });
      const rootId = msg.parentId ?? msg.id;
      await db.transaction(async (tx) => {
        await acknowledgeThread(tx, rootId, actor.adminId);
        await markRead(tx, actor.adminId, conversationId, { topLevel: true, threads: true });
        await audit(
          tx,
          trail(actor, m.program_id, 'messenger.message.acknowledge', conversationId, { message_id: rootId }),
        );
      });
      tell(await memberIds(db, conversationId), MESSENGER_EVENTS.message, {
        conversation_id: conversationId,
        message_id: rootId,
        parent_id: null,
      });
      return { message: M.acknowledged, data: await oneMessage(db, staff(actor), rootId) };
    },

    async thumbsUp(
      actor: StaffActor,
      conversationId: number,
      userId: number,
      parentId: number,
      value?: boolean,
    ) {
      const m = await requireMember(db, conversationId, actor.adminId);
      if (userId !== actor.adminId) throw AppError.forbidden(M.onlySelf);
      const msg = await messageIn(db, conversationId, parentId);
      if (!msg) throw AppError.validation({ parent_id: [M.notThread] });
      await db.transaction(async (tx) => {
        const next = value ?? !(await hasReaction(tx, parentId, actor.adminId, 'thumbs_up'));
        await setReaction(tx, parentId, actor.adminId, 'thumbs_up', next);
        await audit(
          tx,
          trail(actor, m.program_id, 'messenger.message.thumbs_up', conversationId, {
            message_id: parentId,
            value: next,
          }),
        );
      });
      tell(await memberIds(db, conversationId), MESSENGER_EVENTS.message, {
        conversation_id: conversationId,
        message_id: parentId,
        parent_id: msg.parentId,
      });
      return { message: M.thumbsUp, data: await oneMessage(db, staff(actor), parentId) };
    },

    async notifications(actor: StaffActor, unreadOnly: boolean) {
      return notificationsOf(db, actor.adminId, unreadOnly);
    },

    async count(actor: StaffActor) {
      return unreadTotals(db, actor.adminId);
    },

    async readAll(actor: StaffActor) {
      await markRead(db, actor.adminId, null, { topLevel: true, threads: true });
      return { message: M.allRead };
    },

    async mentionable(
      actor: StaffActor,
      q: { conversation_id?: number; program_id?: number; search?: string },
    ) {
      if (q.conversation_id) {
        await requireMember(db, q.conversation_id, actor.adminId);
        return { data: await mentionable(db, { conversationId: q.conversation_id }, q.search) };
      }
      if (q.program_id && (await staffOfProgram(db, q.program_id, [actor.adminId])).length === 1)
        return { data: await mentionable(db, { programId: q.program_id }, q.search) };
      if (q.program_id) throw AppError.notFound();
      throw AppError.validation({ conversation_id: ['Name a conversation or a program.'] });
    },
  };
}

export type MessengerService = ReturnType<typeof createMessengerService>;
