import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

const adminRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' });
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A note on a patient (02 §3 Note; ADR 034). Deleting one sets `deleted_at`: it leaves the record, its log
 * and edits stay for the audit. An escalation on a note is active until someone inactivates it.
 */
export const notes = pgTable(
  'notes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('note'),
    body: text('body').notNull(),
    internal: boolean('internal').notNull().default(false),
    pinned: boolean('pinned').notNull().default(false),
    authorId: adminRef('author_id'),
    escalatedAt: at('escalated_at'),
    escalatedBy: adminRef('escalated_by'),
    escalationActive: boolean('escalation_active').notNull().default(false),
    escalationInactivatedAt: at('escalation_inactivated_at'),
    escalationInactivatedBy: adminRef('escalation_inactivated_by'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
    deletedBy: adminRef('deleted_by'),
  },
  (t) => [
    // The patient's list: pinned first, newest first, without the deleted ones.
    index('notes_patient_idx').on(t.patientId, t.pinned, t.id).where(sql`${t.deletedAt} IS NULL`),
    // The worklist's "escalated" filter: the few patients with an escalation in force.
    index('notes_escalated_idx').on(t.patientId).where(sql`${t.escalationActive} AND ${t.deletedAt} IS NULL`),
    check('notes_kind_check', sql`${t.kind} IN ('note', 'sms_image')`),
  ],
);

export const noteFiles = pgTable(
  'note_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    noteId: bigint('note_id', { mode: 'number' })
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull().unique(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('note_files_note_idx').on(t.noteId)],
);

/** An earlier version of a note's text, kept when its author changes it. */
export const noteEdits = pgTable(
  'note_edits',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    noteId: bigint('note_id', { mode: 'number' })
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    editedBy: adminRef('edited_by'),
    editedAt: at('edited_at').notNull().defaultNow(),
  },
  (t) => [index('note_edits_note_idx').on(t.noteId, t.id)],
);

/** What happened to a note and its follow-up (never PHI in `detail`: dates, ids, flags). */
export const noteLogs = pgTable(
  'note_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    noteId: bigint('note_id', { mode: 'number' })
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    adminId: adminRef('admin_id'),
    detail: jsonb('detail').notNull().default({}),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [index('note_logs_note_idx').on(t.noteId, t.id)],
);

/** A follow-up of a note: a day and the staff member who does it, until completed (one per note). */
export const followUps = pgTable(
  'follow_ups',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    noteId: bigint('note_id', { mode: 'number' })
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    dueDate: date('due_date').notNull(),
    adminId: adminRef('admin_id'),
    completedAt: at('completed_at'),
    completedBy: adminRef('completed_by'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('follow_ups_note_key').on(t.noteId),
    // Open follow-ups by patient and day (next follow-up, the pending alert, the worklist).
    index('follow_ups_open_idx').on(t.patientId, t.dueDate).where(sql`${t.completedAt} IS NULL`),
    index('follow_ups_program_idx').on(t.programId, t.dueDate),
  ],
);
