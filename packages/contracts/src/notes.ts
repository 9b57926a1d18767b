import { z } from 'zod';
import { bodyId, calendarDay, idParam, line, paged, pageQuery, text } from './common';
import { MESSENGER_FILE_TYPES } from './messenger';
import { defineRoute } from './route';

/**
 * 02 §3/§4/§7 "Notes and follow-ups" (ADR 034): notes on a patient (pinned, internal, with files, edited with
 * a history), follow-ups (a date and the staff member who does it), escalations that can be inactivated,
 * and a log of everything that happened to a note.
 */
export const NOTE_MAX_FILES = 5;
export const NOTE_FILE_TYPES = MESSENGER_FILE_TYPES;
export const NOTE_MAX_CHARS = 10_000;

export const NOTE_MESSAGES = {
  created: 'Note created',
  updated: 'Note updated',
  deleted: 'Note deleted',
  pinned: 'Note pinned',
  unpinned: 'Note unpinned',
  internal: 'Note marked internal',
  shared: 'Note no longer internal',
  escalationOn: 'Note escalated',
  escalationOff: 'Escalation inactivated',
  followUpCompleted: 'Follow-up completed',
  followUpUpdated: 'Follow-up updated',
  imageNoteCreated: 'Image note created',
  notFound: 'Note not found',
  followUpNotFound: 'Follow-up not found',
  empty: 'Write the note or attach a file.',
  onlyAuthor: 'Only the author can change the text of a note.',
  followUpAdmin: 'Choose a staff member of the program for the follow-up.',
  followUpDate: 'Choose the follow-up date.',
  alreadyCompleted: 'This follow-up is already completed.',
  imageRequired: 'Attach the image.',
  imageType: 'The file must be an image (PNG, JPEG, GIF, WebP or HEIC).',
  fileType: 'Attach PDF, image, audio, video, Word, Excel, CSV or text files only.',
  fileTooLarge: 'A file is larger than the limit.',
  tooManyFiles: `Attach at most ${NOTE_MAX_FILES} files.`,
} as const;

export const NOTE_LOG_ACTIONS = [
  'created',
  'edited',
  'deleted',
  'pinned',
  'unpinned',
  'internal',
  'shared',
  'escalated',
  'escalation_inactivated',
  'follow_up_set',
  'follow_up_changed',
  'follow_up_completed',
] as const;

const person = z.object({ id: z.number().int(), name: z.string() });
const isoDate = calendarDay('Use the format YYYY-MM-DD.');

export const followUp = z.object({
  id: z.number().int(),
  note_id: z.number().int(),
  patient_id: z.number().int(),
  date: z.string(),
  admin: person.nullable(),
  completed_at: z.string().nullable(),
  completed_by: person.nullable(),
  /** Due on or before today and not completed. */
  due: z.boolean(),
});
export type FollowUp = z.infer<typeof followUp>;

export const noteFile = z.object({
  id: z.number().int(),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});

export const note = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  program_id: z.number().int(),
  kind: z.enum(['note', 'sms_image']),
  body: z.string(),
  internal: z.boolean(),
  pinned: z.boolean(),
  author: person.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  edits: z.number().int(),
  files: z.array(noteFile),
  follow_up: followUp.nullable(),
  escalation: z
    .object({
      active: z.boolean(),
      at: z.string(),
      by: person.nullable(),
      inactivated_at: z.string().nullable(),
      inactivated_by: person.nullable(),
    })
    .nullable(),
});
export type Note = z.infer<typeof note>;

/** The fields of a new note (a multipart form: these, and up to 5 files; or JSON without files). */
export const newNoteFields = z
  .object({
    body: text().trim().max(NOTE_MAX_CHARS).default(''),
    internal: z.boolean().default(false),
    escalate: z.boolean().default(false),
    follow_up_date: isoDate.optional(),
    follow_up_admin_id: bodyId.optional(),
  })
  .refine((v) => v.follow_up_admin_id === undefined || v.follow_up_date !== undefined, {
    message: NOTE_MESSAGES.followUpDate,
    path: ['follow_up_date'],
  });
export type NewNoteFields = z.input<typeof newNoteFields>;

export const noteLogEntry = z.object({
  id: z.number().int(),
  action: z.enum(NOTE_LOG_ACTIONS),
  admin: person.nullable(),
  at: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type NoteLogEntry = z.infer<typeof noteLogEntry>;

export const noteEdit = z.object({
  id: z.number().int(),
  /** The text before this edit. */
  body: z.string(),
  edited_by: person.nullable(),
  edited_at: z.string(),
});
export type NoteEdit = z.infer<typeof noteEdit>;

const tags = ['notes'] as const;
const idParams = z.object({ id: idParam });
const flagQuery = line()
  .regex(/^(0|1|true|false)$/, 'Use 1 or 0.')
  .transform((v) => v === '1' || v === 'true');
const noteAnswer = z.object({ message: z.string(), data: note });

export const notesContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/notes',
    summary:
      "A patient's notes, pinned first then newest (paged); forCalendar=1 with start_date and end_date: the notes written or followed up in those days",
    tags,
    params: idParams,
    query: pageQuery.extend({
      /** Only the notes whose escalation is active. */
      escalated: flagQuery.optional(),
      forCalendar: flagQuery.optional(),
      start_date: isoDate.optional(),
      end_date: isoDate.optional(),
    }),
    responses: { 200: paged(note) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/users/:id/notes',
    summary:
      'Write a note on a patient (multipart/form-data: body, internal, escalate, follow_up_date, follow_up_admin_id and up to 5 files; or JSON)',
    tags,
    params: idParams,
    responses: { 201: noteAnswer },
  }),
  logs: defineRoute({
    method: 'GET',
    path: '/api/v1/notes/:id/logs',
    summary: 'What happened to a note and its follow-up, oldest first',
    tags,
    params: idParams,
    responses: { 200: z.object({ data: z.array(noteLogEntry) }) },
  }),
  edits: defineRoute({
    method: 'GET',
    path: '/api/v1/notes/:id/edits',
    summary: 'Earlier versions of a note, newest first',
    tags,
    params: idParams,
    responses: { 200: z.object({ data: z.array(noteEdit) }) },
  }),
  internal: defineRoute({
    method: 'POST',
    path: '/api/v1/notes/internal/:id',
    summary: 'Mark a note internal (staff only) or not (internal, default true)',
    tags,
    params: idParams,
    body: z.object({ internal: z.boolean().default(true) }),
    responses: { 200: noteAnswer },
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/notes/:id',
    summary: 'Change the text of a note (its author only); the earlier text is kept',
    tags,
    params: idParams,
    body: z.object({ body: text().trim().min(1, NOTE_MESSAGES.empty).max(NOTE_MAX_CHARS) }),
    responses: { 200: noteAnswer },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/notes/:id',
    summary: 'Delete a note (its author or a program admin); it leaves the record, its log stays',
    tags,
    params: idParams,
    responses: { 200: z.object({ message: z.string() }) },
  }),
  pin: defineRoute({
    method: 'POST',
    path: '/api/v1/notes/:id/pin-status',
    summary: 'Pin or unpin a note (pinned; without it, toggles)',
    tags,
    params: idParams,
    body: z.object({ pinned: z.boolean().optional() }).default({}),
    responses: { 200: noteAnswer },
  }),
  escalations: defineRoute({
    method: 'PUT',
    path: '/api/v1/notes/:id/escalations',
    summary: 'Escalate a note, or inactivate its escalation (active: false)',
    tags,
    params: idParams,
    body: z.object({ active: z.boolean() }),
    responses: { 200: noteAnswer },
  }),
  file: defineRoute({
    method: 'GET',
    path: '/api/v1/notes/:id/files/:fileId',
    summary: "Download a note's file (always as an attachment)",
    tags,
    params: z.object({ id: idParam, fileId: idParam }),
    responses: { 200: z.unknown() },
  }),
  completeFollowUp: defineRoute({
    method: 'POST',
    path: '/api/v1/followup/:id/completed',
    summary: 'Complete a follow-up',
    tags,
    params: idParams,
    responses: { 200: z.object({ message: z.string(), data: followUp }) },
  }),
  updateFollowUp: defineRoute({
    method: 'POST',
    path: '/api/v1/followup/:id/update',
    summary: 'Move a follow-up to another date and/or another staff member',
    tags,
    params: idParams,
    body: z.object({ date: isoDate, adminId: bodyId.nullable().optional() }),
    responses: { 200: z.object({ message: z.string(), data: followUp }) },
  }),
  nextFollowUp: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:userId/get-next-followup',
    summary: "The patient's next open follow-up (the earliest not completed), or null",
    tags,
    params: z.object({ programId: idParam, userId: idParam }),
    responses: { 200: z.object({ data: followUp.nullable() }) },
  }),
  imageNote: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:patientId/sms/create-image-note',
    summary:
      'Keep an image the patient texted (or a photo of it) as a note on the patient (multipart/form-data: file, body)',
    tags,
    params: z.object({ programId: idParam, patientId: idParam }),
    responses: { 201: noteAnswer },
  }),
};
