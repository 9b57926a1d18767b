import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { programs } from '../tenancy/tenancy.tables';

export const patients = pgTable(
  'patients',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    dob: date('dob'),
    sex: text('sex').notNull().default('unknown'),
    race: text('race'),
    ethnicity: text('ethnicity'),
    state: text('state'),
    city: text('city'),
    status: text('status').notNull().default('active'),
    active: boolean('active').notNull().default(true),
    assignedAdminId: bigint('assigned_admin_id', { mode: 'number' }).references(() => admins.id),
    followUpAt: timestamp('follow_up_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('patients_sex_check', sql`${t.sex} IN ('female', 'male', 'other', 'unknown')`),
    check('patients_status_check', sql`${t.status} IN ('active', 'inactive', 'pending', 'discharged')`),
    // List orders end with id so that an index scan yields the page without sorting the program.
    index('patients_program_name_idx').on(t.programId, t.lastName, t.firstName, t.id),
    index('patients_program_first_name_idx').on(t.programId, t.firstName, t.lastName, t.id),
    index('patients_program_created_idx').on(t.programId, t.createdAt, t.id),
    index('patients_program_dob_idx').on(t.programId, t.dob, t.id),
    index('patients_program_status_idx').on(t.programId, t.status, t.lastName, t.id),
    // Substring name search (ILIKE '%smi%') through trigrams.
    index('patients_first_name_trgm_idx').using('gin', sql`${t.firstName} gin_trgm_ops`),
    index('patients_last_name_trgm_idx').using('gin', sql`${t.lastName} gin_trgm_ops`),
  ],
);

/** Patients per program, kept by triggers on `patients` (migration 0002) so list totals need no count scan. */
export const programPatientCounts = pgTable('program_patient_counts', {
  programId: bigint('program_id', { mode: 'number' })
    .primaryKey()
    .references(() => programs.id, { onDelete: 'cascade' }),
  patients: bigint('patients', { mode: 'number' }).notNull().default(0),
});
