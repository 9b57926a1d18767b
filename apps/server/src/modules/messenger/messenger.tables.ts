import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

/** A staff conversation (02 §3 Conversation). It lives in one program; its members are staff of it. */
export const conversations = pgTable(
  'conversations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_program_idx').on(t.programId)],
);

/**
 * One member's side of a conversation: role, pin, archive, mute, and read positions. Unread counts are
 * counted from the read positions (message ids grow), never kept as counters that could drift.
 */
export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    chatRole: text('chat_role').notNull().default('member'),
    isPinned: boolean('is_pinned').notNull().default(false),
    isArchived: boolean('is_archived').notNull().default(false),
    mutedUntil: timestamp('muted_until', { withTimezone: true }),
    /** The last message (top level) this member has read. */
    lastReadId: bigint('last_read_id', { mode: 'number' }).notNull().default(0),
    /** The last thread reply this member has read. */
    threadsReadId: bigint('threads_read_id', { mode: 'number' }).notNull().default(0),
    markedUnread: boolean('marked_unread').notNull().default(false),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.adminId] }),
    index('conversation_members_admin_idx').on(t.adminId),
    check('conversation_members_role_check', sql`${t.chatRole} IN ('owner', 'member')`),
  ],
);

/** A message (02 §3 Message); `parent_id` makes it a thread reply. A guest's message names its invite. */
export const messengerMessages = pgTable(
  'messenger_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    parentId: bigint('parent_id', { mode: 'number' }).references((): AnyPgColumn => messengerMessages.id, {
      onDelete: 'cascade',
    }),
    senderAdminId: bigint('sender_admin_id', { mode: 'number' }).references(() => admins.id, {
      onDelete: 'set null',
    }),
    guestInviteId: bigint('guest_invite_id', { mode: 'number' }),
    /** The sender's name when the message was sent (guests have no staff record). */
    senderName: text('sender_name').notNull(),
    body: text('body').notNull(),
    urgent: boolean('urgent').notNull().default(false),
    mentions: bigint('mentions', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messenger_messages_conversation_idx').on(t.conversationId, t.id),
    index('messenger_messages_parent_idx').on(t.parentId).where(sql`${t.parentId} IS NOT NULL`),
    index('messenger_messages_urgent_idx').on(t.conversationId).where(sql`${t.urgent}`),
  ],
);

/** Acknowledgements (of urgent messages) and thumbs-up, one per message, person and kind. */
export const messageReactions = pgTable(
  'message_reactions',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messengerMessages.id, { onDelete: 'cascade' }),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.adminId, t.kind] }),
    check('message_reactions_kind_check', sql`${t.kind} IN ('acknowledge', 'thumbs_up')`),
  ],
);

/** A file of a message, stored under a generated key outside any web root (platform/files). */
export const messengerAttachments = pgTable(
  'messenger_attachments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messengerMessages.id, { onDelete: 'cascade' }),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull().unique(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    phi: boolean('phi').notNull().default(false),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messenger_attachments_conversation_idx').on(t.conversationId, t.id),
    index('messenger_attachments_message_idx').on(t.messageId),
  ],
);

/** What tells a staff member they are wanted: a mention, an urgent message, being added. */
export const messengerNotifications = pgTable(
  'messenger_notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' }).references(() => messengerMessages.id, {
      onDelete: 'cascade',
    }),
    fromName: text('from_name').notNull(),
    preview: text('preview').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messenger_notifications_admin_idx').on(t.adminId, t.id),
    check('messenger_notifications_kind_check', sql`${t.kind} IN ('mention', 'urgent', 'added')`),
  ],
);

/**
 * A guest link to one conversation (02 §2 guest channel): sent to a patient (or their caregiver) by SMS or
 * e-mail, signed and expiring; revoking it ends the guest's access at once. `sent_to` is where it went.
 */
export const guestInvites = pgTable(
  'guest_invites',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    guestName: text('guest_name').notNull(),
    channel: text('channel').notNull(),
    sentTo: text('sent_to').notNull(),
    invitedBy: bigint('invited_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: bigint('revoked_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastReadId: bigint('last_read_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('guest_invites_conversation_idx').on(t.conversationId),
    check('guest_invites_channel_check', sql`${t.channel} IN ('sms', 'email')`),
  ],
);
