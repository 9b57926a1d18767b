import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';

/** Time a staff member spent on a patient (ADR 041): from the console's timer or entered afterwards. */
export const billingTimeEntries = pgTable(
  'billing_time_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id),
    type: text('type').notNull(),
    activity: text('activity').notNull(),
    interactive: boolean('interactive').notNull().default(false),
    /** Recorded but not counted towards codes when false (02 §7: POST billing carries a billable status). */
    billable: boolean('billable').notNull().default(true),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    seconds: integer('seconds').notNull(),
    note: text('note'),
    source: text('source').notNull().default('manual'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('billing_time_entries_type_check', sql`${t.type} IN ('rpm', 'ccm')`),
    check('billing_time_entries_seconds_check', sql`${t.seconds} > 0 AND ${t.seconds} <= 28800`),
    check('billing_time_entries_source_check', sql`${t.source} IN ('timer', 'manual')`),
    index('billing_time_entries_patient_idx').on(t.patientId, t.startedAt),
    index('billing_time_entries_program_idx').on(t.programId, t.startedAt),
  ],
);

/** A patient's billing status (billable unless set otherwise); one row per patient once set. */
export const patientBillingStatus = pgTable(
  'patient_billing_status',
  {
    patientId: bigint('patient_id', { mode: 'number' })
      .primaryKey()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    updatedBy: bigint('updated_by', { mode: 'number' }).references(() => admins.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('patient_billing_status_check', sql`${t.status} IN ('billable', 'not_billable', 'on_hold')`),
    index('patient_billing_status_program_idx').on(t.programId, t.status),
  ],
);

/**
 * A patient's device-supply start (the 99453 date, ADR 072) when staff set it by hand; without a row it is the
 * local date the patient's first device was provisioned. Every change carries a reason and is audited.
 */
export const billingSupplyStarts = pgTable(
  'billing_supply_starts',
  {
    patientId: bigint('patient_id', { mode: 'number' })
      .primaryKey()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    supplyStart: date('supply_start').notNull(),
    reason: text('reason').notNull(),
    updatedBy: bigint('updated_by', { mode: 'number' }).references(() => admins.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_supply_starts_program_idx').on(t.programId)],
);
