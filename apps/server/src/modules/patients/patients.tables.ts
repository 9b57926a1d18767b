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
    index('patients_program_name_idx').on(t.programId, t.lastName, t.firstName),
    index('patients_program_created_idx').on(t.programId, t.createdAt),
  ],
);
