import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

const patientRef = () =>
  bigint('patient_id', { mode: 'number' })
    .notNull()
    .references(() => patients.id, { onDelete: 'cascade' });
const programRef = () =>
  bigint('program_id', { mode: 'number' })
    .notNull()
    .references(() => programs.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A medication ordered for a patient; regimens are scheduled under it. */
export const medicationOrders = pgTable(
  'medication_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: patientRef(),
    programId: programRef(),
    regimenId: bigint('regimen_id', { mode: 'number' }),
    drugName: text('drug_name').notNull(),
    strength: text('strength'),
    route: text('route'),
    form: text('form'),
    quantity: integer('quantity'),
    refills: integer('refills'),
    instructions: text('instructions'),
    prescriberId: bigint('prescriber_id', { mode: 'number' }).references(() => admins.id),
    status: text('status').notNull().default('open'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('medication_orders_patient_idx').on(t.patientId, t.id),
    check('medication_orders_status_check', sql`${t.status} IN ('open', 'filled', 'cancelled')`),
  ],
);

/** When and how much of a medication a patient takes (01 §3 Regimen). */
export const regimens = pgTable(
  'regimens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: patientRef(),
    programId: programRef(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => medicationOrders.id, {
      onDelete: 'set null',
    }),
    parentId: bigint('parent_id', { mode: 'number' }),
    type: text('type').notNull().default('medication'),
    name: text('name').notNull(),
    repeat: text('repeat').notNull().default('daily'),
    interval: integer('interval').notNull().default(1),
    timeCascade: boolean('time_cascade').notNull().default(false),
    billable: boolean('billable').notNull().default(true),
    lockoutTime: integer('lockout_time').notNull().default(0),
    times: text('times').array().notNull().default(sql`'{}'::text[]`),
    num: integer('num').notNull().default(1),
    createdByName: text('created_by_name'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }),
    multiPod: boolean('multi_pod').notNull().default(false),
    unlockBefore: integer('unlock_before').notNull().default(0),
    deviceSerial: text('device_serial'),
    status: text('status').notNull().default('active'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('regimens_patient_idx').on(t.patientId, t.id),
    index('regimens_device_active_idx').on(t.deviceSerial).where(sql`${t.status} = 'active'`),
    check('regimens_type_check', sql`${t.type} IN ('medication', 'inhaler', 'medesto-device')`),
    check('regimens_status_check', sql`${t.status} IN ('active', 'completed')`),
    check('regimens_repeat_check', sql`${t.repeat} IN ('daily', 'weekly', 'monthly', 'as_needed')`),
  ],
);

/** Pod barcodes are drawn from one sequence: unique across every program. */
export const podCodeSequence = pgSequence('pod_code_seq', { startWith: 100000 });

/** A pod: a cup or blister of servings with its own barcode, loaded into a dispenser. */
export const pods = pgTable(
  'pods',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    regimenId: bigint('regimen_id', { mode: 'number' })
      .notNull()
      .references(() => regimens.id, { onDelete: 'cascade' }),
    patientId: patientRef(),
    programId: programRef(),
    barcode: text('barcode').notNull().unique(),
    prefix: text('prefix').notNull(),
    num: integer('num').notNull(),
    originalServings: integer('original_servings').notNull(),
    servingsRemaining: integer('servings_remaining').notNull(),
    linkedRegimenId: bigint('linked_regimen_id', { mode: 'number' }).references(() => regimens.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [
    index('pods_regimen_idx').on(t.regimenId, t.num),
    index('pods_program_created_idx').on(t.programId, t.createdAt),
    check('pods_servings_check', sql`${t.servingsRemaining} BETWEEN 0 AND ${t.originalServings}`),
  ],
);

/**
 * A dose event of a regimen: recorded by a person (`POST …/usages`), or by a device through ingestion
 * (`device_event_id` then names the device event it came from, once: resends add nothing).
 */
export const medicationUsages = pgTable(
  'medication_usages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: patientRef(),
    regimenId: bigint('regimen_id', { mode: 'number' })
      .notNull()
      .references(() => regimens.id, { onDelete: 'cascade' }),
    podId: bigint('pod_id', { mode: 'number' }).references(() => pods.id, { onDelete: 'set null' }),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    servings: integer('servings').notNull().default(1),
    note: text('note'),
    source: text('source').notNull().default('manual'),
    /** 'taken' (a dose) or 'skipped' (the patient declined it on the device or told the team). */
    kind: text('kind').notNull().default('taken'),
    deviceEventId: bigint('device_event_id', { mode: 'number' }),
    recordedBy: bigint('recorded_by', { mode: 'number' }).references(() => admins.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('medication_usages_patient_idx').on(t.patientId, t.takenAt),
    uniqueIndex('medication_usages_device_event_unique').on(t.deviceEventId),
    check('medication_usages_kind_check', sql`${t.kind} IN ('taken', 'skipped')`),
    check('medication_usages_source_check', sql`${t.source} IN ('manual', 'dispenser', 'nfc', 'inhaler')`),
  ],
);

/** A prescription (script) of the patient. */
export const scripts = pgTable(
  'scripts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: patientRef(),
    programId: programRef(),
    drugName: text('drug_name').notNull(),
    sig: text('sig'),
    quantity: integer('quantity'),
    refills: integer('refills'),
    prescriber: text('prescriber'),
    writtenAt: date('written_at'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('scripts_patient_idx').on(t.patientId, t.id)],
);

/** A condition (ICD-10-CM codes) the patient is treated for, with the regimens and script that treat it. */
export const diseaseStates = pgTable(
  'disease_states',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: patientRef(),
    programId: programRef(),
    conditions: jsonb('conditions').notNull(),
    regimenIds: bigint('regimen_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    scriptId: bigint('script_id', { mode: 'number' }).references(() => scripts.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id),
  },
  (t) => [index('disease_states_patient_idx').on(t.patientId).where(sql`${t.deletedAt} IS NULL`)],
);
