import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { patients } from '../patients/patients.tables';

/**
 * The daily adherence rollup (ADR 046; docs/adherence.md "The KPI's daily rollup"): what the engine decided,
 * per patient and local date, so the KPI adds rows up instead of classifying every patient per request.
 * Written only by the rollup job; the triggers of migration 0042 log what makes rows stale.
 */

/** Per patient: every local date up to `through` is rolled up (in the zone, program and allowance here). */
export const adherenceRollupState = pgTable(
  'adherence_rollup_state',
  {
    patientId: bigint('patient_id', { mode: 'number' })
      .primaryKey()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    through: date('through').notNull(),
    onTimeMinutes: integer('on_time_minutes').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('adherence_rollup_state_program_idx').on(t.programId, t.through)],
);

const stateRef = () =>
  bigint('patient_id', { mode: 'number' })
    .notNull()
    .references(() => adherenceRollupState.patientId, { onDelete: 'cascade' });
const count = (name: string) => integer(name).notNull().default(0);

/**
 * The doses of one patient scheduled on local date `day` and filed by the engine under schedule date `date`
 * (equal but for a cascade past midnight), and the extra doses taken on `day`. Dense: one row with
 * `date = day` for every day from the patient's first row to `through`, carrying running totals (due and
 * taken doses up to the end of `day`) so a patient's figures over any range are two rows apart.
 */
export const adherenceDays = pgTable(
  'adherence_days',
  {
    patientId: stateRef(),
    day: date('day').notNull(),
    date: date('date').notNull(),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    due: count('due'),
    onTime: count('on_time'),
    late: count('late'),
    missed: count('missed'),
    skipped: count('skipped'),
    partial: count('partial'),
    pending: count('pending'),
    extra: count('extra'),
    cumDue: count('cum_due'),
    cumTaken: count('cum_taken'),
  },
  (t) => [
    primaryKey({ columns: [t.patientId, t.day, t.date] }),
    // The KPI reads one day's running totals of a whole program from it (index only). Not a partial index
    // on date = day: the planner rewrites `date = day AND day = X` to `date = X` and cannot match it.
    index('adherence_days_program_day_idx').on(t.programId, t.day, t.date, t.patientId, t.cumDue, t.cumTaken),
  ],
);

/**
 * Doses that were pending when rolled up, counted in their row's `pending`: from `closes_at` on they are
 * `becomes` (the engine's state for a window closed without a decision). Readers settle them on the fly;
 * the job moves them into their rows.
 */
export const adherencePending = pgTable(
  'adherence_pending',
  {
    patientId: stateRef(),
    day: date('day').notNull(),
    date: date('date').notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    becomes: text('becomes').notNull(),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    doses: integer('doses').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.patientId, t.day, t.date, t.closesAt, t.becomes] }),
    index('adherence_pending_closes_idx').on(t.closesAt),
    index('adherence_pending_program_idx').on(t.programId, t.closesAt),
    check('adherence_pending_becomes_check', sql`${t.becomes} IN ('missed', 'partial')`),
  ],
);

/**
 * The rows of `adherence_days` summed per program, `day` and `date` by trigger (the KPI's totals and daily
 * series). No foreign key: rows deleted with their program's patients still subtract here.
 */
export const adherenceProgramDays = pgTable(
  'adherence_program_days',
  {
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    day: date('day').notNull(),
    date: date('date').notNull(),
    due: count('due'),
    onTime: count('on_time'),
    late: count('late'),
    missed: count('missed'),
    skipped: count('skipped'),
    partial: count('partial'),
    pending: count('pending'),
    extra: count('extra'),
  },
  (t) => [primaryKey({ columns: [t.programId, t.day, t.date] })],
);

/**
 * What made a patient's rows stale, from `from_day` on (a dose event, a regimen change, a new patient, a
 * new zone or program): appended by triggers, claimed by the job. No foreign key, so that writes that
 * delete a patient never trip on their own entries.
 */
export const adherenceDirty = pgTable(
  'adherence_dirty',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: bigint('patient_id', { mode: 'number' }).notNull(),
    fromDay: date('from_day').notNull(),
  },
  (t) => [index('adherence_dirty_patient_idx').on(t.patientId, t.fromDay)],
);
