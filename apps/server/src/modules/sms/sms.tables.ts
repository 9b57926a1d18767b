import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { groups } from '../groups/groups.tables';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

/** A text sent to every patient of a cohort (02 /group/{groupId}/escalation-messages; ADR 036). */
export const groupMessages = pgTable(
  'group_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** Patients of the cohort without a mobile phone: not texted. */
    skipped: integer('skipped').notNull().default(0),
    sentBy: bigint('sent_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('group_messages_group_idx').on(t.groupId, t.id)],
);

/**
 * One text message to or from a phone (01 §3 SMS; 02 temp messages). Outbound ones are the outbox:
 * queued → sent → delivered, or failed after retries; never lost on restart (the row is the queue).
 * Inbound ones from a known patient's phone join that patient's thread; from an unknown number they are
 * temp messages keyed by the phone (`patient_id` null).
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' }).references(() => programs.id, {
      onDelete: 'cascade',
    }),
    patientId: bigint('patient_id', { mode: 'number' }).references(() => patients.id, {
      onDelete: 'cascade',
    }),
    phone: text('phone').notNull(),
    direction: text('direction').notNull(),
    body: text('body').notNull(),
    /** What the message is: a staff message, a guest invitation, an opt-out confirmation … */
    kind: text('kind').notNull().default('message'),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    providerId: text('provider_id'),
    sentBy: bigint('sent_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The message to a whole cohort this text is part of (one text per patient of the cohort). */
    groupMessageId: bigint('group_message_id', { mode: 'number' }).references(() => groupMessages.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    index('sms_messages_patient_idx').on(t.patientId, t.id),
    index('sms_messages_queue_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index('sms_messages_temp_idx').on(t.programId, t.phone, t.id).where(sql`${t.patientId} IS NULL`),
    index('sms_messages_provider_idx').on(t.providerId),
    index('sms_messages_group_idx').on(t.groupMessageId).where(sql`${t.groupMessageId} IS NOT NULL`),
    check('sms_messages_direction_check', sql`${t.direction} IN ('outbound', 'inbound')`),
    check(
      'sms_messages_status_check',
      sql`${t.status} IN ('queued', 'sent', 'delivered', 'failed', 'received', 'blocked')`,
    ),
  ],
);

/** Phones that answered STOP: nothing more is sent to them until they answer START. */
export const smsOptOuts = pgTable('sms_opt_outs', {
  phone: text('phone').primaryKey(),
  optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull().defaultNow(),
});
