import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, text, time, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { smsMessages } from '../sms/sms.tables';
import { programs } from '../tenancy/tenancy.tables';

/** A notification sent to a patient (01 §3 Notification): its channel and how far it got. */
export const patientNotifications = pgTable(
  'patient_notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The text carrying an SMS notification: its state is the notification's. */
    smsMessageId: bigint('sms_message_id', { mode: 'number' }).references(() => smsMessages.id, {
      onDelete: 'set null',
    }),
    status: text('status').notNull(),
    sentBy: bigint('sent_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('patient_notifications_patient_idx').on(t.patientId, t.id),
    check('patient_notifications_type_check', sql`${t.type} IN ('sms', 'email', 'push')`),
  ],
);

/** The library of audio reminders (shipped). */
export const audios = pgTable('audios', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  language: text('language').notNull(),
  durationSeconds: integer('duration_seconds').notNull(),
});

/** An audio reminder assigned to a patient: played from `start_date` at `at_time`, `times` days running. */
export const audioAssignments = pgTable(
  'audio_assignments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    audioId: bigint('audio_id', { mode: 'number' })
      .notNull()
      .references(() => audios.id),
    startDate: date('start_date').notNull(),
    atTime: time('at_time').notNull(),
    times: integer('times').notNull(),
    assignedBy: bigint('assigned_by', { mode: 'number' }).references(() => admins.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audio_assignments_patient_idx').on(t.patientId)],
);

/**
 * A recurring reminder to a patient (01 §7 `POST {P}/users/{id}/schedules`; ADR 032): a notification sent on
 * some weekdays at the patient's wall-clock time, from a day until a day or until stopped. `next_at` is the
 * next instant it fires (null: done); the scheduler sends the due ones and moves `next_at` on.
 */
export const notificationSchedules = pgTable(
  'notification_schedules',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    atTime: time('at_time').notNull(),
    days: integer('days').array().notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
    nextAt: timestamp('next_at', { withTimezone: true }),
    sent: integer('sent').notNull().default(0),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    stoppedBy: bigint('stopped_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notification_schedules_due_idx').on(t.nextAt).where(sql`${t.nextAt} IS NOT NULL`),
    index('notification_schedules_patient_idx').on(t.patientId, t.id),
    check('notification_schedules_type_check', sql`${t.type} IN ('sms', 'email', 'push')`),
  ],
);
