import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { regimens } from '../medications/medications.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

const STATUS_LIST = sql.raw(
  `'received', 'matched', 'fill_verified', 'schedule_verified', 'verified', 'finalized', 'shipped', 'delivered', 'cancelled'`,
);
const programRef = () =>
  bigint('program_id', { mode: 'number' })
    .notNull()
    .references(() => programs.id, { onDelete: 'cascade' });

/** A patient as the outside pharmacy knows them (ADR 045); linked to a CareDeck patient once matched. */
export const externalPatients = pgTable(
  'external_patients',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    /** The pharmacy system's own patient id (the CSV's pharmacy_patient_id). */
    pharmacyPatientId: text('pharmacy_patient_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dob: date('dob').notNull(),
    phone: text('phone'),
    mrn: text('mrn'),
    patientId: bigint('patient_id', { mode: 'number' }).references(() => patients.id, {
      onDelete: 'set null',
    }),
    linkedBy: bigint('linked_by', { mode: 'number' }).references(() => admins.id),
    linkedAt: timestamp('linked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('external_patients_program_key').on(t.programId, t.pharmacyPatientId),
    index('external_patients_patient_idx').on(t.patientId),
  ],
);

/** The equipment file written when orders are finalized (the packaging line's pod-fill CSV, in file storage). */
export const externalOrderFiles = pgTable(
  'external_order_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    needByDate: date('need_by_date').notNull(),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    rows: integer('rows').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('external_order_files_program_idx').on(t.programId, t.createdAt)],
);

/** One prescription fill ordered by the outside pharmacy (one CSV row). */
export const externalOrders = pgTable(
  'external_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    externalPatientId: bigint('external_patient_id', { mode: 'number' })
      .notNull()
      .references(() => externalPatients.id, { onDelete: 'cascade' }),
    orderNumber: text('order_number').notNull(),
    status: text('status').notNull(),
    drugName: text('drug_name').notNull(),
    ndc: text('ndc'),
    strength: text('strength'),
    quantity: integer('quantity').notNull(),
    daysSupply: integer('days_supply').notNull(),
    sig: text('sig').notNull(),
    timesPerDay: integer('times_per_day').notNull(),
    perDose: integer('per_dose').notNull(),
    times: text('times').array().notNull(),
    needByDate: date('need_by_date').notNull(),
    automation: boolean('automation').notNull().default(false),
    prescriber: text('prescriber'),
    fillVerifiedAt: timestamp('fill_verified_at', { withTimezone: true }),
    fillVerifiedBy: bigint('fill_verified_by', { mode: 'number' }).references(() => admins.id),
    scheduleVerifiedAt: timestamp('schedule_verified_at', { withTimezone: true }),
    scheduleVerifiedBy: bigint('schedule_verified_by', { mode: 'number' }).references(() => admins.id),
    finalizedAt: timestamp('finalized_at', { withTimezone: true }),
    regimenId: bigint('regimen_id', { mode: 'number' }).references(() => regimens.id, {
      onDelete: 'set null',
    }),
    equipmentFileId: bigint('equipment_file_id', { mode: 'number' }).references(() => externalOrderFiles.id, {
      onDelete: 'set null',
    }),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('external_orders_program_number_key').on(t.programId, t.orderNumber),
    index('external_orders_program_date_idx').on(t.programId, t.needByDate, t.id),
    index('external_orders_patient_idx').on(t.externalPatientId, t.needByDate),
    index('external_orders_drug_trgm_idx').using('gin', sql`${t.drugName} gin_trgm_ops`),
    check('external_orders_status_check', sql`${t.status} IN (${STATUS_LIST})`),
    check('external_orders_quantity_check', sql`${t.quantity} > 0 AND ${t.daysSupply} > 0`),
    check(
      'external_orders_times_check',
      sql`${t.timesPerDay} BETWEEN 1 AND 6 AND ${t.perDose} BETWEEN 1 AND 20`,
    ),
  ],
);

/** Every status change of an order (append-only): who, when, from → to. */
export const externalOrderHistory = pgTable(
  'external_order_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => externalOrders.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    adminId: bigint('admin_id', { mode: 'number' }).references(() => admins.id),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('external_order_history_order_idx').on(t.orderId, t.id),
    check('external_order_history_to_check', sql`${t.toStatus} IN (${STATUS_LIST})`),
  ],
);
