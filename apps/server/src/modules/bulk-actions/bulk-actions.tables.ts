import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';

/** A change proposed for many patients of a program (ADR 042): waits for approval, then runs once or more. */
export const bulkActions = pgTable(
  'bulk_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    jobId: uuid('job_id').notNull().unique().defaultRandom(),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    /** `{ "value": … }`: a status, a cohort id, a staff id or null. */
    params: jsonb('params').notNull(),
    note: text('note'),
    state: text('state').notNull().default('assigned'),
    createdBy: bigint('created_by', { mode: 'number' })
      .notNull()
      .references(() => admins.id),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  },
  (t) => [
    check('bulk_actions_state_check', sql`${t.state} IN ('assigned', 'approved', 'cancelled')`),
    check(
      'bulk_actions_action_check',
      sql`${t.action} IN ('patient_status', 'billing_status', 'add_to_cohort', 'assign_admin')`,
    ),
    index('bulk_actions_program_idx').on(t.programId, t.createdAt),
  ],
);

/** Each patient of a job and what happened to them the last time it ran. */
export const bulkActionPatients = pgTable(
  'bulk_action_patients',
  {
    bulkActionId: bigint('bulk_action_id', { mode: 'number' })
      .notNull()
      .references(() => bulkActions.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    outcome: text('outcome').notNull().default('pending'),
    error: text('error'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.bulkActionId, t.patientId] }),
    check('bulk_action_patients_outcome_check', sql`${t.outcome} IN ('pending', 'done', 'failed')`),
  ],
);
