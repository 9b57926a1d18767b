import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
    /** Medical record number: the clinic's own identifier, unique within the program. */
    mrn: text('mrn'),
    email: text('email'),
    phoneNumber: text('phone_number'),
    dob: date('dob'),
    sex: text('sex').notNull().default('unknown'),
    race: text('race'),
    ethnicity: text('ethnicity'),
    income: text('income'),
    language: text('language'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    /** IANA zone the patient lives in: schedules and readings are shown in it. */
    timeZone: text('time_zone'),
    physicianId: bigint('physician_id', { mode: 'number' }).references(() => admins.id),
    consentAt: timestamp('consent_at', { withTimezone: true }),
    consentMethod: text('consent_method'),
    /** Which channels may reach the patient: { sms, email, push, voice } booleans. */
    notificationSettings: jsonb('notification_settings')
      .notNull()
      .default(sql`'{"sms": true, "email": true, "push": true, "voice": false}'::jsonb`),
    /** The patient app's password (argon2id), set from the console (PUT users/{id}/password type 2). */
    appPasswordHash: text('app_password_hash'),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
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
    check('patients_consent_method_check', sql`${t.consentMethod} IN ('written', 'verbal', 'electronic')`),
    uniqueIndex('patients_program_mrn_unique')
      .on(t.programId, sql`lower(${t.mrn})`)
      .where(sql`${t.mrn} IS NOT NULL`),
    // List orders end with id so that an index scan yields the page without sorting the program.
    index('patients_program_name_idx').on(t.programId, t.lastName, t.firstName, t.id),
    index('patients_program_first_name_idx').on(t.programId, t.firstName, t.lastName, t.id),
    index('patients_program_created_idx').on(t.programId, t.createdAt, t.id),
    // FHIR's Patient pages (ADR 073): a program's patients in id order, from a keyset position.
    index('patients_program_id_idx').on(t.programId, t.id),
    index('patients_program_dob_idx').on(t.programId, t.dob, t.id),
    index('patients_program_status_idx').on(t.programId, t.status, t.lastName, t.id),
    // Filters of the list (01 §7): counts and bitmap ANDs of several filters read these, not the table.
    // State, assignee and physician also INCLUDE the other filter and sort columns (migration 0046, which
    // drizzle cannot declare): several filters at once are matched by an index-only scan.
    index('patients_program_assignee_idx').on(t.programId, t.assignedAdminId),
    index('patients_program_sex_idx').on(t.programId, t.sex),
    index('patients_program_state_idx').on(t.programId, t.state),
    index('patients_program_physician_idx').on(t.programId, t.physicianId),
    // Substring name search (ILIKE '%smi%') through trigrams.
    index('patients_first_name_trgm_idx').using('gin', sql`${t.firstName} gin_trgm_ops`),
    index('patients_last_name_trgm_idx').using('gin', sql`${t.lastName} gin_trgm_ops`),
    // The start of an MRN ("MRN-10" finds MRN-1042) in the list's search and the Ctrl+K finder.
    index('patients_mrn_trgm_idx').using('gin', sql`${t.mrn} gin_trgm_ops`),
  ],
);

/** Patients per program, kept by triggers on `patients` (migration 0002) so list totals need no count scan. */
export const programPatientCounts = pgTable('program_patient_counts', {
  programId: bigint('program_id', { mode: 'number' })
    .primaryKey()
    .references(() => programs.id, { onDelete: 'cascade' }),
  patients: bigint('patients', { mode: 'number' }).notNull().default(0),
  /**
   * Bumped by the same triggers on every write to the program's patients (migration 0046): the list's
   * page marks (deep pages, list-marks.ts) are valid for one version.
   */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  /** Of them, the active ones (migration 0049): the dashboard's patient count reads this row. */
  active: bigint('active', { mode: 'number' }).notNull().default(0),
});

/**
 * The programs a patient is enrolled in. `patients.program_id` is the home program (access follows it);
 * the home program is always one of these rows (ADR 019).
 */
export const patientPrograms = pgTable(
  'patient_programs',
  {
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.patientId, t.programId] }),
    index('patient_programs_program_idx').on(t.programId),
  ],
);

/**
 * Every status a patient has had, newest last: who set it, from what, how and when (GET users/{id}/status and
 * the program's status log). `program_id` is the patient's home program, kept when the patient moves, so the
 * log of a program is one index walk (ADR 047).
 */
export const patientStatusHistory = pgTable(
  'patient_status_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    /** The status before the change; null when the patient was enrolled with this one. */
    previousStatus: text('previous_status'),
    status: text('status').notNull(),
    source: text('source').notNull(),
    /** Why, when the change carried a reason (a bulk action's note, or the reason given with a status call). */
    reason: text('reason'),
    adminId: bigint('admin_id', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('patient_status_history_patient_idx').on(t.patientId, t.id),
    // The program's log, newest first: page 1 is the top of this index, a period a range of it. Status, source and
    // staff ride along so that filtered pages and totals are index-only scans (ADR 047, bench/RESULTS.md).
    index('patient_status_history_program_idx').on(
      t.programId,
      t.createdAt,
      t.id,
      t.status,
      t.source,
      t.adminId,
    ),
    // One staff member's changes: a few among a year of the program's.
    index('patient_status_history_admin_idx').on(t.programId, t.adminId, t.createdAt, t.id),
    check(
      'patient_status_history_source_check',
      sql`${t.source} IN ('enrolment', 'single', 'bulk', 'bulk_action', 'activation')`,
    ),
  ],
);

/**
 * The patient's own sign-in for the patient app (02 §4 password reset): a password staff set for them, and
 * the latest verification code sent (hashed; good for 30 minutes, once).
 */
export const patientAppAccounts = pgTable('patient_app_accounts', {
  patientId: bigint('patient_id', { mode: 'number' })
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash'),
  passwordSetAt: timestamp('password_set_at', { withTimezone: true }),
  passwordSetBy: bigint('password_set_by', { mode: 'number' }).references(() => admins.id),
  codeHash: text('code_hash'),
  codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
  codeSentAt: timestamp('code_sent_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
