import { bigint, boolean, date, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

/** A medication the patient actually takes, as reconciled by the care team (02 §7). */
export const medRecItems = pgTable(
  'med_rec_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    strength: text('strength'),
    dose: text('dose'),
    frequency: text('frequency'),
    route: text('route'),
    indication: text('indication'),
    prescriber: text('prescriber'),
    startDate: date('start_date'),
    lastTaken: date('last_taken'),
    source: text('source'),
    notes: text('notes'),
    archived: boolean('archived').notNull().default(false),
    updatedBy: bigint('updated_by', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('med_rec_items_patient_idx').on(t.patientId, t.archived, t.name)],
);

/** How and when the patient's list was last reconciled. */
export const medRecStatus = pgTable('med_rec_status', {
  patientId: bigint('patient_id', { mode: 'number' })
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  method: text('method'),
  reconciledAt: timestamp('reconciled_at', { withTimezone: true }),
  reconciledBy: bigint('reconciled_by', { mode: 'number' }).references(() => admins.id),
});
