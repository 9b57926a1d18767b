import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

/** Someone who helps patients of a program: family, friend or home-care staff (ADR 020). */
export const caregivers = pgTable(
  'caregivers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    relationship: text('relationship').notNull(),
    phoneNumber: text('phone_number'),
    email: text('email'),
    notes: text('notes'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('caregivers_program_name_idx').on(t.programId, t.lastName, t.firstName),
    check('caregivers_reachable', sql`${t.phoneNumber} IS NOT NULL OR ${t.email} IS NOT NULL`),
  ],
);

export const patientCaregivers = pgTable(
  'patient_caregivers',
  {
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    caregiverId: bigint('caregiver_id', { mode: 'number' })
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.patientId, t.caregiverId] }),
    index('patient_caregivers_caregiver_idx').on(t.caregiverId),
  ],
);
