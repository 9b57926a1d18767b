import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { enterprises, programs } from '../tenancy/tenancy.tables';

/** An enterprise's SFTP server reports are delivered to (ADR 043); the password is sealed with ENCRYPTION_KEY. */
export const reportDestinations = pgTable(
  'report_destinations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' })
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull().default(22),
    username: text('username').notNull(),
    sealedPassword: text('sealed_password').notNull(),
    directory: text('directory').notNull().default(''),
    /** The server's host key fingerprint (`SHA256:…`): given by the admin or pinned at the first connection. */
    hostKey: text('host_key'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('report_destinations_enterprise_idx').on(t.enterpriseId)],
);

/** A report a user asked for: one-off, or recurring until paused or stopped. */
export const reports = pgTable(
  'reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    audience: text('audience').notNull(),
    format: text('format').notNull(),
    period: text('period').notNull(),
    start: date('start_date'),
    end: date('end_date'),
    recurrence: text('recurrence').notNull().default('none'),
    recurrenceState: text('recurrence_state').notNull().default('running'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    destinationId: bigint('destination_id', { mode: 'number' }).references(() => reportDestinations.id),
    createdBy: bigint('created_by', { mode: 'number' })
      .notNull()
      .references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('reports_audience_check', sql`${t.audience} IN ('care', 'pharma')`),
    check('reports_recurrence_check', sql`${t.recurrence} IN ('none', 'daily', 'weekly', 'monthly')`),
    check('reports_state_check', sql`${t.recurrenceState} IN ('running', 'paused', 'stopped')`),
    index('reports_program_idx').on(t.programId, t.createdAt),
    index('reports_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.recurrence} <> 'none' AND ${t.recurrenceState} = 'running'`),
  ],
);

/**
 * One generation of a file: a report's run, or a patient report (one patient's PDF, the program's patients as
 * a PDF or a CSV). Queued, picked by the background runner (SKIP LOCKED), then done, failed or cancelled.
 */
export const reportRuns = pgTable(
  'report_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    reportId: bigint('report_id', { mode: 'number' }).references(() => reports.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('report'),
    patientId: bigint('patient_id', { mode: 'number' }).references(() => patients.id, {
      onDelete: 'cascade',
    }),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => admins.id),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    fileKey: text('file_key'),
    fileName: text('file_name'),
    bytes: bigint('bytes', { mode: 'number' }),
    rows: integer('rows'),
    delivery: text('delivery').notNull().default('none'),
    deliveryError: text('delivery_error'),
    /** When the upload under way ('sending') began: one that never finished is taken up again later. */
    deliveryStartedAt: timestamp('delivery_started_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'report_runs_kind_check',
      sql`${t.kind} IN ('report', 'patient_pdf', 'patients_pdf', 'patients_csv')`,
    ),
    check(
      'report_runs_status_check',
      sql`${t.status} IN ('queued', 'running', 'done', 'failed', 'cancelled')`,
    ),
    check(
      'report_runs_delivery_check',
      sql`${t.delivery} IN ('none', 'pending', 'sending', 'sent', 'failed')`,
    ),
    index('report_runs_report_idx').on(t.reportId, t.createdAt),
    index('report_runs_program_kind_idx').on(t.programId, t.kind, t.createdAt),
    index('report_runs_queue_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'queued' OR ${t.delivery} IN ('pending', 'sending')`),
  ],
);
