import { z } from 'zod';
import { bodyId, idParam, line, queryInt, text } from './common';
import { messengerNotification } from './notifications';
import { defineRoute } from './route';

/**
 * 02 §3/§4/§7 "Messenger": staff conversations inside a program, with threads, mentions, urgent
 * messages that must be acknowledged, thumbs-up, and attachments (PHI ones confirmed by their sender
 * before anyone else sees them). Decisions where the spec is silent: docs/decisions/029-messenger.md.
 */
export const CHAT_ROLES = ['owner', 'member'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** muteValue: minutes to stay muted; 0 unmutes, -1 mutes until unmuted. */
export const MUTE_FOREVER = -1;
export const MUTE_MAX_MINUTES = 60 * 24 * 365;
export const MESSAGE_MAX_CHARS = 10_000;
export const MESSENGER_MAX_FILES = 5;
/** What a file may be, judged from its content (never from its name or the declared type). */
export const MESSENGER_FILE_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'audio/mpeg',
  'audio/mp4',
  'audio/wav',
  'video/mp4',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
  'text/csv',
] as const;

export const MESSENGER_MESSAGES = {
  created: 'Conversation created',
  renamed: 'Conversation renamed',
  usersAdded: 'Users added',
  left: 'You left the conversation',
  removed: 'User removed',
  updated: 'Conversation updated',
  muted: 'Notifications muted',
  unmuted: 'Notifications unmuted',
  read: 'Marked as read',
  unread: 'Marked as unread',
  allRead: 'All conversations marked as read',
  threadsCleared: 'Threads marked as read',
  acknowledged: 'Message acknowledged',
  thumbsUp: 'Thumbs-up saved',
  confirmed: 'Attachments confirmed',
  empty: 'Write a message or attach a file.',
  notStaff: 'Only staff of this program can join the conversation.',
  notOwner: 'Only an owner of the conversation can do this.',
  lastOwner: 'The conversation needs another owner first.',
  onlySelf: 'You can change only your own settings.',
  fileType: 'This type of file cannot be shared.',
  fileTooLarge: 'The file is too large.',
  tooManyFiles: `At most ${MESSENGER_MAX_FILES} files per message.`,
  notThread: 'The message to reply to is not in this conversation.',
  nothingToConfirm: 'No attachments of yours wait for confirmation.',
} as const;

const name = line().trim().min(1, 'Enter a name for the conversation.').max(120);
const userIds = z
  .array(bodyId)
  .max(200)
  .transform((ids) => [...new Set(ids)]);

export const member = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string().nullable(),
  chat_role: z.enum(CHAT_ROLES),
});

export const conversation = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  conversationName: z.string(),
  unreadCount: z.number().int(),
  threads_unread_count: z.number().int(),
  mentionedUnreadAdmin: z.boolean(),
  /** An urgent message from someone else waits for acknowledgement. */
  urgent: z.boolean(),
  users: z.array(member),
  is_pinned: z.boolean(),
  is_archived: z.boolean(),
  chat_role: z.enum(CHAT_ROLES),
  /** Muted until this time; null when not muted (`forever` far in the future is 'infinity'). */
  muted_until: z.string().nullable(),
  muted: z.boolean(),
  last_message: z
    .object({ id: z.number().int(), body: z.string(), sender_name: z.string(), created_at: z.string() })
    .nullable(),
  created_at: z.string(),
});
export type Conversation = z.infer<typeof conversation>;

export const attachment = z.object({
  id: z.number().int(),
  message_id: z.number().int(),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  phi: z.boolean(),
  /** A PHI attachment is seen by others only once its sender confirms it. */
  confirmed: z.boolean(),
  url: z.string(),
  created_at: z.string(),
});
export type Attachment = z.infer<typeof attachment>;

export const messengerMessage = z.object({
  id: z.number().int(),
  message_id: z.number().int(),
  conversation_id: z.number().int(),
  parent_id: z.number().int().nullable(),
  body: z.string(),
  urgent: z.boolean(),
  sender: z.object({ id: z.number().int(), name: z.string(), kind: z.enum(['staff', 'guest']) }),
  mentions: z.array(z.number().int()),
  acknowledged_by: z.array(z.object({ id: z.number().int(), name: z.string(), at: z.string() })),
  thumbs_up: z.array(z.number().int()),
  threads_count: z.number().int(),
  attachments: z.array(attachment),
  /** Attachments of this message that wait for their sender's PHI confirmation (hidden from you). */
  pending_attachments: z.number().int(),
  created_at: z.string(),
});
export type MessengerMessage = z.infer<typeof messengerMessage>;

/** Fields of a new message (multipart form fields, or a JSON body when no file is sent). */
export const newMessageFields = z.object({
  body: text().trim().max(MESSAGE_MAX_CHARS).default(''),
  parent_id: bodyId.nullable().optional(),
  urgent: z.boolean().default(false),
  mentions: z.array(bodyId).max(200).default([]),
  /** The files of this message hold PHI: others see them after the sender confirms. */
  phi: z.boolean().default(false),
});
export type NewMessageFields = z.infer<typeof newMessageFields>;

const tags = ['messenger'] as const;
const idParams = z.object({ id: idParam });
const userParams = z.object({ id: idParam, userId: idParam });
const messageParams = z.object({ id: idParam, messageId: idParam });
const reactionParams = z.object({ conversationId: idParam, userId: idParam });
const done = z.object({ message: z.string() });

export const messengerContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations',
    summary:
      'Your conversations: pinned first, then by name, then unread count descending; archived ones only with archived=1',
    tags,
    query: z.object({
      program_id: idParam.optional(),
      search: line().trim().max(100).optional(),
      archived: z.enum(['0', '1']).default('0'),
    }),
    responses: { 200: z.object({ data: z.array(conversation) }) },
  }),
  unreadMentions: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations/unread-mentions',
    summary: 'Conversations where someone mentioned you in a message you have not read',
    tags,
    responses: { 200: z.object({ data: z.array(conversation), count: z.number().int() }) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/messenger/conversations',
    summary: 'Start a conversation in a program with some of its staff (you become its owner)',
    tags,
    body: z.object({ program_id: bodyId, name, users: userIds }),
    responses: { 201: z.object({ message: z.string(), data: conversation }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations/:id',
    summary:
      'One conversation with its latest messages (older ones with before_id); opening it clears your unread count and mention flags',
    tags,
    params: idParams,
    query: z.object({ before_id: idParam.optional(), limit: queryInt(1, 100).default(50) }),
    responses: {
      200: z.object({ data: conversation, messages: z.array(messengerMessage), has_more: z.boolean() }),
    },
  }),
  rename: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger/conversations/:id',
    summary: 'Rename a conversation (owners)',
    tags,
    params: idParams,
    body: z.object({ name }),
    responses: { 200: z.object({ message: z.string(), data: conversation }) },
  }),
  confirmPhi: defineRoute({
    method: 'POST',
    path: '/api/v1/messenger/conversations/:id',
    summary: 'Confirm your PHI attachments (all waiting ones, or those of message_id) so the others see them',
    tags,
    params: idParams,
    body: z.object({ message_id: bodyId.optional(), attachment_ids: z.array(bodyId).max(50).optional() }),
    responses: { 200: z.object({ message: z.string(), confirmed: z.number().int() }) },
  }),
  search: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations/:id/search',
    summary: 'Messages of a conversation containing the text, newest first',
    tags,
    params: idParams,
    query: z.object({
      query: line().trim().min(1, 'Enter something to search for.').max(100),
      page: queryInt(1, 1_000_000).default(1),
    }),
    responses: {
      200: z.object({
        data: z.array(messengerMessage),
        current_page: z.number().int(),
        has_more: z.boolean(),
      }),
    },
  }),
  files: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations/:id/files',
    summary: 'Files shared in a conversation that you may see, newest first',
    tags,
    params: idParams,
    responses: { 200: z.object({ data: z.array(attachment) }) },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations/:id/files/:fileId',
    summary: 'Download one file (members only; always as an attachment)',
    tags,
    params: z.object({ id: idParam, fileId: idParam }),
    responses: { 200: null },
    file: { contentType: 'application/octet-stream' },
  }),
  addUsers: defineRoute({
    method: 'POST',
    path: '/api/v1/messenger/conversations/:id/users',
    summary: "Add staff of the conversation's program",
    tags,
    params: idParams,
    body: z.object({ users: userIds.refine((ids) => ids.length > 0, 'Choose at least one person.') }),
    responses: { 200: z.object({ message: z.string(), data: conversation }) },
  }),
  removeUser: defineRoute({
    method: 'DELETE',
    path: '/api/v1/messenger/conversations/:id/users/:userId',
    summary: 'Leave (isLeaving=1, your own id) or remove someone (owners)',
    tags,
    params: userParams,
    query: z.object({ isLeaving: z.enum(['0', '1', 'true', 'false']).default('0') }),
    responses: { 200: done },
  }),
  updateUser: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger/conversations/:id/users/:userId',
    summary: "Pin or archive for yourself; an owner sets another member's chat_role",
    tags,
    params: userParams,
    body: z.object({
      is_pinned: z.boolean().optional(),
      is_archived: z.boolean().optional(),
      chat_role: z.enum(CHAT_ROLES).optional(),
    }),
    responses: { 200: z.object({ message: z.string(), data: conversation }) },
  }),
  mute: defineRoute({
    method: 'POST',
    path: '/api/v1/messenger/conversations/:id/mute/:userId',
    summary: 'Mute the conversation for yourself: muteValue minutes, -1 until unmuted, 0 to unmute',
    tags,
    params: userParams,
    body: z.object({ muteValue: z.number().int().min(MUTE_FOREVER).max(MUTE_MAX_MINUTES) }),
    responses: { 200: z.object({ message: z.string(), data: conversation }) },
  }),
  post: defineRoute({
    method: 'POST',
    path: '/api/v1/messenger/conversations/:id/messages',
    summary:
      'Post a message (multipart/form-data: body, parent_id, urgent, mentions, phi and up to 5 files; or JSON without files)',
    tags,
    params: idParams,
    responses: { 201: z.object({ data: messengerMessage }) },
  }),
  read: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger/conversations/:id/messages/read',
    summary: 'Mark a conversation read',
    tags,
    params: idParams,
    responses: { 200: z.object({ message: z.string(), data: conversation }) },
  }),
  unread: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger/conversations/:id/messages/unread',
    summary: 'Mark a conversation unread (it counts at least one unread message until opened)',
    tags,
    params: idParams,
    responses: { 200: z.object({ message: z.string(), data: conversation }) },
  }),
  thread: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations/:id/messages/:messageId/threads',
    summary: 'A message and its thread replies, oldest first',
    tags,
    params: messageParams,
    responses: { 200: z.object({ data: messengerMessage, replies: z.array(messengerMessage) }) },
  }),
  clearThreads: defineRoute({
    method: 'POST',
    path: '/api/v1/messenger/conversations/:id/messages/:messageId/threads/clear',
    summary: "Mark the conversation's thread replies read",
    tags,
    params: messageParams,
    responses: { 200: z.object({ message: z.string(), data: conversation }) },
  }),
  acknowledge: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger/conversations/messages/:conversationId/acknowledge/:userId',
    summary:
      "Acknowledge the urgent message parent_id and its thread's urgent replies (as yourself); clears their urgent flag and your unread",
    tags,
    params: reactionParams,
    body: z.object({ parent_id: bodyId }),
    responses: { 200: z.object({ message: z.string(), data: messengerMessage }) },
  }),
  thumbsUp: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger/conversations/messages/:conversationId/thumbs_up/:userId',
    summary: 'Give (or take back) a thumbs-up on message parent_id',
    tags,
    params: reactionParams,
    body: z.object({ parent_id: bodyId, value: z.boolean().optional() }),
    responses: { 200: z.object({ message: z.string(), data: messengerMessage }) },
  }),
  notifications: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/notifications',
    summary: 'Your messenger notifications (mentions, urgent messages, being added), newest first',
    tags,
    query: z.object({ unread: z.enum(['0', '1']).default('0') }),
    responses: { 200: z.object({ data: z.array(messengerNotification), unread: z.number().int() }) },
  }),
  count: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/messages-count',
    summary: 'Your unread messages across conversations (muted ones excluded), mentions and urgent ones',
    tags,
    responses: {
      200: z.object({
        count: z.number().int(),
        conversations: z.number().int(),
        mentions: z.number().int(),
        urgent: z.number().int(),
      }),
    },
  }),
  readAll: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger/conversations/read',
    summary: 'Mark every conversation read',
    tags,
    responses: { 200: done },
  }),
  mentionable: defineRoute({
    method: 'GET',
    path: '/api/v1/admins/mentions',
    summary:
      "Staff you can mention or add: the conversation's members (conversation_id) or the staff of a program (program_id)",
    tags,
    query: z.object({
      conversation_id: idParam.optional(),
      program_id: idParam.optional(),
      search: line().trim().max(100).optional(),
    }),
    responses: {
      200: z.object({
        data: z.array(z.object({ id: z.number().int(), name: z.string(), title: z.string().nullable() })),
      }),
    },
  }),
};
