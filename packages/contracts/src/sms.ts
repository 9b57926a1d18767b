import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, text } from './common';
import { normalisePhone, PATIENT_MESSAGES } from './patient-record';
import { defineRoute } from './route';

/**
 * 01 §3/§7 "SMS and notifications", 02 §7 temp messages: texts to and from patients' phones through one
 * gateway (log transport by default, an HTTP provider by environment), with an outbox, statuses and
 * STOP/START opt-out. ADR 031.
 */
export const SMS_MAX_CHARS = 1600;
export const SMS_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'received', 'blocked'] as const;
/** Headers of the provider's webhooks (inbound texts, delivery reports). */
export const SMS_SIGNATURE_HEADER = 'x-caredeck-signature';
export const SMS_TIMESTAMP_HEADER = 'x-caredeck-timestamp';
export const SMS_STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
export const SMS_START_WORDS = ['START', 'UNSTOP', 'YES'] as const;

export const SMS_MESSAGES = {
  queued: 'Message queued',
  read: 'Marked as read',
  noPhone: 'The patient has no mobile phone number.',
  optedOut:
    'This number has opted out of text messages (it answered STOP). It can opt in again by texting START.',
  empty: 'Write a message.',
  groupQueued: 'Message queued for the cohort',
  groupEmpty: 'No patient of this cohort has a mobile phone number.',
} as const;

const phone = line()
  .trim()
  .max(32)
  .transform((v, ctx) => {
    const normal = normalisePhone(v);
    if (!normal) {
      ctx.addIssue({ code: 'custom', message: PATIENT_MESSAGES.phone });
      return z.NEVER;
    }
    return normal;
  });

export const smsMessage = z.object({
  id: z.number().int(),
  patient_id: z.number().int().nullable(),
  phone: z.string(),
  direction: z.enum(['outbound', 'inbound']),
  body: z.string(),
  kind: z.string(),
  status: z.enum(SMS_STATUSES),
  attempts: z.number().int(),
  is_read: z.boolean(),
  sent_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type SmsMessage = z.infer<typeof smsMessage>;

/** A text sent to a whole cohort: one text per patient with a mobile phone, and how far they got. */
export const groupMessage = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  body: z.string(),
  sent_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  recipients: z.number().int(),
  /** Patients of the cohort without a mobile phone, not texted. */
  skipped: z.number().int(),
  statuses: z.object({
    queued: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
    blocked: z.number().int(),
  }),
});
export type GroupMessage = z.infer<typeof groupMessage>;

/** One unknown number that texted a program: its latest text and how many are unread (02 temp messages). */
export const tempThread = z.object({
  phone: z.string(),
  program_id: z.number().int(),
  last_body: z.string(),
  last_direction: z.enum(['outbound', 'inbound']),
  last_at: z.string(),
  unread: z.number().int(),
  total: z.number().int(),
});
export type TempThread = z.infer<typeof tempThread>;

const tags = ['sms'] as const;
const patientParams = z.object({ programId: idParam, patientId: idParam });
const body = z.object({
  message: text().trim().min(1, SMS_MESSAGES.empty).max(SMS_MAX_CHARS),
  phone_number: phone.optional(),
});

export const smsContract = {
  thread: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:patientId/sms',
    summary: "A patient's texts, both ways, newest first (with the unread count)",
    tags,
    params: patientParams,
    query: pageQuery,
    responses: { 200: paged(smsMessage).extend({ unread: z.number().int(), opted_out: z.boolean() }) },
  }),
  send: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:patientId/sms',
    summary:
      'Text the patient (their phone, or phone_number): queued in the outbox and delivered with retries',
    tags,
    params: patientParams,
    body,
    responses: { 201: z.object({ message: z.string(), data: smsMessage }) },
  }),
  markRead: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:patientId/sms/mark-as-read',
    summary: "Mark the patient's received texts read",
    tags,
    params: patientParams,
    responses: { 200: z.object({ message: z.string(), count: z.number().int() }) },
  }),
  tempMessage: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/temp-user-message',
    summary: 'Text a phone that belongs to no patient (a temp message thread keyed by the phone)',
    tags,
    params: z.object({ programId: idParam }),
    body: body.required({ phone_number: true }),
    responses: { 201: z.object({ message: z.string(), data: smsMessage }) },
  }),
  groupSend: defineRoute({
    method: 'POST',
    path: '/api/v1/groups/:id/messages',
    summary:
      "Text every active patient of a cohort (each text joins the patient's thread; opted-out numbers are not texted)",
    tags,
    params: z.object({ id: idParam }),
    body: body.pick({ message: true }),
    responses: { 201: z.object({ message: z.string(), data: groupMessage }) },
  }),
  groupHistory: defineRoute({
    method: 'GET',
    path: '/api/v1/groups/:id/messages',
    summary: 'Texts sent to a cohort, newest first, with how many were delivered, failed or not sent',
    tags,
    params: z.object({ id: idParam }),
    query: pageQuery,
    responses: { 200: paged(groupMessage) },
  }),
  tempThreads: defineRoute({
    method: 'GET',
    path: '/api/v1/temp_messages',
    summary:
      'Unknown numbers that texted your programs (or one program): the latest text of each, unread ones first',
    tags,
    query: z.object({ program_id: idParam.optional() }),
    responses: { 200: z.object({ data: z.array(tempThread) }) },
  }),
  tempHistory: defineRoute({
    method: 'GET',
    path: '/api/v1/temp_messages_history/:phone',
    summary:
      'Temp messages of one phone (texts to and from a number that belongs to no patient), newest first',
    tags,
    params: z.object({ phone: line().max(40) }),
    query: z.object({ program_id: idParam.optional() }),
    responses: { 200: z.object({ data: z.array(smsMessage) }) },
  }),
  markTempRead: defineRoute({
    method: 'POST',
    path: '/api/v1/alerts/mark-temp-as-read',
    summary: 'Mark temp messages read (msg_ids)',
    tags,
    body: z.object({ msg_ids: z.array(bodyId).min(1).max(500) }),
    responses: { 200: z.object({ message: z.string(), ids: z.array(z.number().int()) }) },
  }),
  inbound: defineRoute({
    method: 'POST',
    path: '/api/v1/webhooks/sms',
    summary:
      "The SMS provider's inbound text (signed: x-caredeck-timestamp and x-caredeck-signature = HMAC-SHA256 of 'timestamp.body')",
    tags,
    body: z.object({
      id: line().min(1).max(100),
      from: line().max(40),
      to: line().max(40).optional(),
      body: text().max(SMS_MAX_CHARS),
    }),
    responses: { 200: z.object({ message: z.string() }) },
  }),
  status: defineRoute({
    method: 'POST',
    path: '/api/v1/webhooks/sms/status',
    summary: "The SMS provider's delivery report (signed like inbound texts)",
    tags,
    body: z.object({ id: line().min(1).max(100), status: z.enum(['delivered', 'failed']) }),
    responses: { 200: z.object({ message: z.string() }) },
  }),
};
