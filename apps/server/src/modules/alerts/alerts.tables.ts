import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { groups } from '../groups/groups.tables';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

const adminRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' });

/**
 * An alert (02 §3 alert queries, §4): one patient's condition of one type, e.g. blood pressure above the
 * program's threshold. At most one alert per patient, type and condition key is unresolved at a time
 * (de-duplication): a condition seen again counts an occurrence on it. `reason` keeps why it fired
 * (the readings, the thresholds and where they came from).
 */
export const alerts = pgTable(
  'alerts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** What separates two conditions of one type for one patient: a device, a regimen; '' when one per patient. */
    conditionKey: text('condition_key').notNull().default(''),
    status: text('status').notNull().default('open'),
    occurrences: integer('occurrences').notNull().default(1),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    summary: text('summary').notNull(),
    reason: jsonb('reason').notNull(),
    hidden: boolean('hidden').notNull().default(false),
    assignedAdminId: adminRef('assigned_admin_id'),
    acknowledgedBy: adminRef('acknowledged_by'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
    escalatedToRole: text('escalated_to_role'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: adminRef('resolved_by'),
    resolution: text('resolution'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alerts_open_condition_unique')
      .on(t.patientId, t.type, t.conditionKey)
      .where(sql`${t.status} <> 'resolved'`),
    // The board: open alerts of a program by type (tiles) and newest first (lists).
    index('alerts_board_idx').on(t.programId, t.type, t.lastAt).where(sql`${t.status} <> 'resolved'`),
    // The board of a whole program, newest first: each status's stretch read in index order from either end
    // and merged (ADR 057); the alerts assigned to someone, to count them or list one person's.
    index('alerts_board_recent_idx')
      .on(t.programId, t.status, t.lastAt.desc(), t.id.desc())
      .where(sql`${t.status} <> 'resolved' AND NOT ${t.hidden}`),
    index('alerts_escalated_idx').on(t.patientId).where(sql`${t.status} = 'escalated'`),
    index('alerts_assigned_idx')
      .on(t.programId, t.assignedAdminId, t.lastAt)
      .where(sql`${t.status} <> 'resolved' AND ${t.assignedAdminId} IS NOT NULL`),
    index('alerts_program_resolved_idx').on(t.programId, t.resolvedAt).where(sql`${t.status} = 'resolved'`),
    index('alerts_patient_idx').on(t.patientId, t.type),
    check('alerts_status_check', sql`${t.status} IN ('open', 'acknowledged', 'escalated', 'resolved')`),
    check(
      'alerts_resolution_check',
      sql`(${t.status} = 'resolved') = (${t.resolvedAt} IS NOT NULL) AND (${t.resolution} IS NULL OR ${t.resolution} IN ('auto', 'cleared'))`,
    ),
  ],
);

/** Every step of an alert's life, with who took it (null: the engine). The audit trail of the board. */
export const alertHistory = pgTable(
  'alert_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    alertId: bigint('alert_id', { mode: 'number' })
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').notNull(),
    adminId: adminRef('admin_id'),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('alert_history_alert_idx').on(t.alertId, t.at)],
);

/**
 * A snooze silences one condition (patient, type, key) until `until`, whichever alert carries it: a
 * condition that clears and comes back during the snooze stays quiet too. Occurrences are still counted.
 */
export const alertSnoozes = pgTable(
  'alert_snoozes',
  {
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    conditionKey: text('condition_key').notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
    adminId: adminRef('admin_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.patientId, t.type, t.conditionKey] }),
    // The snoozes in force now: readers of the kept counts (alert_open_facts) subtract what they hide.
    index('alert_snoozes_until_idx').on(t.until),
  ],
);

/**
 * Thresholds and timers (packages/domain AlertSettings) set for a program, one of its cohorts or one
 * patient; a level stores only the keys it overrides. Patient beats cohort beats program beats default.
 */
export const alertSettings = pgTable(
  'alert_settings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    cohortId: bigint('cohort_id', { mode: 'number' }).references(() => groups.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' }).references(() => patients.id, {
      onDelete: 'cascade',
    }),
    settings: jsonb('settings').notNull(),
    updatedBy: adminRef('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alert_settings_level_unique').on(
      t.programId,
      sql`coalesce(${t.cohortId}, 0)`,
      sql`coalesce(${t.patientId}, 0)`,
    ),
    check('alert_settings_one_level_check', sql`${t.cohortId} IS NULL OR ${t.patientId} IS NULL`),
  ],
);

/**
 * A program's own alert rule (02 §3 Rule): an observable, a criterion and an outcome. Switched on with
 * `active`; every change is a new `version`, the earlier ones kept in `rule_versions`.
 */
export const rules = pgTable(
  'rules',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    observable: text('observable').notNull(),
    criterion: jsonb('criterion').notNull(),
    outcome: jsonb('outcome').notNull(),
    active: boolean('active').notNull().default(false),
    version: integer('version').notNull().default(1),
    updatedBy: adminRef('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rules_program_idx').on(t.programId, t.id)],
);

export const ruleVersions = pgTable(
  'rule_versions',
  {
    ruleId: bigint('rule_id', { mode: 'number' })
      .notNull()
      .references(() => rules.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    definition: jsonb('definition').notNull(),
    adminId: adminRef('admin_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.version] })],
);

/**
 * The dashboards' daily series (02 §7 dashboard: alerts, resolved, readings, doses, enrolments), counted per
 * program and quarter hour, kept by statement triggers on the tables counted (migration 0048, ADR 066). Every
 * time zone's midnight falls on a quarter hour, so a day of any zone is a sum of whole buckets: the dashboards
 * read a few hundred rows instead of counting every reading or dose of the period.
 */
export const dashboardFactBuckets = pgTable(
  'dashboard_fact_buckets',
  {
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    fact: text('fact').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.programId, t.fact, t.bucket] })],
);

/**
 * Unresolved, not hidden alerts per patient (and the program the alerts belong to), kept by statement triggers
 * on `alerts` and `patients` (migration 0049, ADR 057). `types` holds, per alert type,
 * `[total, open, acknowledged, escalated]`. Snoozes are not applied here: they expire with time, so readers
 * subtract the few alerts snoozed now. Rows of patients whose alerts are all resolved stay with zero counts
 * (they are the rows writers lock); they leave with the patient.
 */
export const alertOpenFacts = pgTable(
  'alert_open_facts',
  {
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    patientId: bigint('patient_id', { mode: 'number' }).notNull(),
    active: boolean('active').notNull(),
    total: integer('total').notNull(),
    unacknowledged: integer('unacknowledged').notNull(),
    acknowledged: integer('acknowledged').notNull(),
    escalated: integer('escalated').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }),
    types: jsonb('types').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.programId, t.patientId] }),
    // The triage ranking (escalated first, then the most open alerts, then the newest), read in index order.
    index('alert_open_facts_triage_idx')
      .on(t.programId, t.escalated.desc(), t.total.desc(), t.lastAt.desc(), t.patientId)
      .where(sql`${t.total} > 0`),
    index('alert_open_facts_patient_idx').on(t.patientId),
  ],
);

/**
 * The sums of `alert_open_facts` per program and alert type, kept by the same triggers: the alert tiles, the
 * board's counts and the dashboard's "patients with alerts" read a few rows. Type `*` sums every type (its
 * `patients` counts patients with any alert), `*active` counts only active patients with any alert.
 */
export const alertOpenTotals = pgTable(
  'alert_open_totals',
  {
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    alerts: integer('alerts').notNull(),
    unacknowledged: integer('unacknowledged').notNull(),
    acknowledged: integer('acknowledged').notNull(),
    escalated: integer('escalated').notNull(),
    patients: integer('patients').notNull(),
  },
  (t) => [primaryKey({ columns: [t.programId, t.type] })],
);
