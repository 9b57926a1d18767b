import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

/** A cohort: a named set of patients of one program. */
export const groups = pgTable(
  'groups',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    queryTo: text('query_to'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('groups_program_name_unique').on(t.programId, sql`lower(${t.name})`)],
);

export const groupPatients = pgTable(
  'group_patients',
  {
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    addedBy: bigint('added_by', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.patientId] }),
    index('group_patients_patient_idx').on(t.patientId),
  ],
);
