import { z } from 'zod';
import { idParam, line } from './common';
import { attachment } from './messenger';
import { defineRoute } from './route';

/**
 * 02 §2/§6/§7 "Guest channel": an outside person (a patient's caregiver, an outside clinician) joins one
 * staff conversation through a signed, expiring, revocable link. ADR 030.
 */
export const GUEST_LINK_HOURS = 72;
export const GUEST_CHANNELS = ['sms', 'email'] as const;
export type GuestChannel = (typeof GUEST_CHANNELS)[number];

export const GUEST_MESSAGES = {
  sent: 'Invitation sent',
  revoked: 'Guest access revoked',
  invalidLink: 'This link is invalid or has expired. Ask the care team for a new one.',
  noContact: 'The patient has no phone number or e-mail address to send the invitation to.',
  noPhone: 'The patient has no mobile phone number.',
  noEmail: 'The patient has no e-mail address.',
  notMember: 'Only members of the conversation can invite a guest to it.',
} as const;

export const guestInvite = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  guest_name: z.string(),
  channel: z.enum(GUEST_CHANNELS),
  /** Where the link went, partly hidden (`•••• 0199`, `m•••@example.com`). */
  sent_to: z.string(),
  invited_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type GuestInvite = z.infer<typeof guestInvite>;

export const guestMessage = z.object({
  id: z.number().int(),
  body: z.string(),
  sender: z.object({ name: z.string(), kind: z.enum(['staff', 'guest']), you: z.boolean() }),
  attachments: z.array(attachment),
  created_at: z.string(),
});
export type GuestMessage = z.infer<typeof guestMessage>;

const tags = ['guest channel'] as const;
const conversationParams = z.object({ id: idParam });

export const guestContract = {
  invite: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:receiverId/notifications/send-messenger-invite',
    summary:
      'Send the patient (the receiver) a guest link to one conversation, by SMS or e-mail (default: SMS when the patient has a phone)',
    tags,
    params: z.object({ programId: idParam, receiverId: idParam }),
    query: z.object({ conversation_id: idParam, channel: z.enum(GUEST_CHANNELS).optional() }),
    responses: { 200: z.object({ message: z.string(), data: guestInvite }) },
  }),
  invites: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger/conversations/:id/guests',
    summary: 'The guest links of a conversation (members)',
    tags,
    params: conversationParams,
    responses: { 200: z.object({ data: z.array(guestInvite) }) },
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/api/v1/messenger/conversations/:id/guests/:inviteId',
    summary: 'Revoke a guest link at once (members)',
    tags,
    params: z.object({ id: idParam, inviteId: idParam }),
    responses: { 200: z.object({ message: z.string(), data: guestInvite }) },
  }),
  verify: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger-external/link-verify',
    summary:
      'Verify a guest link: answers the guest token and the sender, receiver and conversation ids the guest messenger opens with (rate-limited)',
    tags,
    query: z.object({ token: line().min(1).max(2000) }),
    responses: {
      200: z.object({
        token: z.string(),
        sender: z.number().int(),
        receiver: z.number().int(),
        conversation: z.number().int(),
        conversation_name: z.string(),
        guest_name: z.string(),
        expires_at: z.string(),
      }),
    },
  }),
  conversation: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger-external/messenger/conversations/:id',
    summary: "The guest's conversation: its name and its messages (not the staff's threads), oldest first",
    tags,
    params: conversationParams,
    responses: {
      200: z.object({
        data: z.object({
          id: z.number().int(),
          name: z.string(),
          guest_name: z.string(),
          unread: z.number().int(),
        }),
        messages: z.array(guestMessage),
      }),
    },
  }),
  post: defineRoute({
    method: 'POST',
    path: '/api/v1/messenger-external/messenger/conversations/:id/messages',
    summary: 'Post as the guest (multipart/form-data: body and up to 5 files; or JSON with body)',
    tags,
    params: conversationParams,
    responses: { 201: z.object({ data: guestMessage }) },
  }),
  read: defineRoute({
    method: 'PUT',
    path: '/api/v1/messenger-external/messenger/conversations/:id/messages/read',
    summary: 'Mark the conversation read for the guest',
    tags,
    params: conversationParams,
    responses: { 200: z.object({ message: z.string() }) },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/api/v1/messenger-external/messenger/conversations/:id/files/:fileId',
    summary: 'Download a file of the conversation as the guest (always as an attachment)',
    tags,
    params: z.object({ id: idParam, fileId: idParam }),
    responses: { 200: null },
    file: { contentType: 'application/octet-stream' },
  }),
};
