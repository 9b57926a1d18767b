import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { admins, controllerAccounts } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * A device of the fleet (02 §3 Device, Dispenser): a smart dispenser (type 1 or 2), an inhaler, a
 * measuring device or an NFC reader. Known to its vendor first (stock: no program), then provisioned into
 * a program and handed to a patient. It signs in to the MQTT broker with its serial and its secret,
 * whose SHA-256 is kept here (a random 256-bit secret needs no slow hash).
 */
export const devices = pgTable(
  'devices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    serial: text('serial').notNull(),
    vendor: text('vendor').notNull(),
    kind: text('kind').notNull(),
    dispenserType: smallint('dispenser_type'),
    programId: bigint('program_id', { mode: 'number' }).references(() => programs.id, {
      onDelete: 'set null',
    }),
    patientId: bigint('patient_id', { mode: 'number' }).references(() => patients.id, {
      onDelete: 'set null',
    }),
    secretHash: text('secret_hash'),
    verified: boolean('verified').notNull().default(false),
    connected: boolean('connected').notNull().default(false),
    /**
     * Behind an external broker: when a status message (`devices/{serial}/status`) last changed
     * `connected`; null while the device never published one (older firmware: its connection is unknown
     * and a device heard from lately counts as reachable). ADR 049.
     */
    presenceAt: timestamp('presence_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    lastEventType: text('last_event_type'),
    battery: smallint('battery'),
    podsLoaded: smallint('pods_loaded'),
    firmware: text('firmware'),
    provisionedAt: timestamp('provisioned_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('devices_serial_unique').on(t.serial),
    index('devices_program_idx').on(t.programId, t.kind, t.id),
    index('devices_patient_idx').on(t.patientId),
    check(
      'devices_kind_check',
      sql`${t.kind} IN ('dispenser', 'inhaler', 'bp_cuff', 'pulse_oximeter', 'scale', 'glucometer', 'wearable', 'nfc_reader')`,
    ),
    check(
      'devices_dispenser_type_check',
      sql`(${t.kind} = 'dispenser') = (${t.dispenserType} IS NOT NULL) AND (${t.dispenserType} IS NULL OR ${t.dispenserType} IN (1, 2))`,
    ),
    check('devices_battery_check', sql`${t.battery} IS NULL OR ${t.battery} BETWEEN 0 AND 100`),
  ],
);

/**
 * Every event a device sent, once: append-only, keyed by (device, seq) so a resend adds nothing. Doses and
 * measurements derived from an event point back at it. The hottest table of the system: no foreign key
 * (the batch statement inserts only events of existing devices, and the log outlives a removed device) and
 * two indexes only, the key and the device's timeline (bench/RESULTS.md, ingest).
 */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deviceId: bigint('device_id', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    programId: bigint('program_id', { mode: 'number' }),
    patientId: bigint('patient_id', { mode: 'number' }),
    type: text('type').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    payload: jsonb('payload').notNull(),
  },
  (t) => [
    uniqueIndex('device_events_device_seq_unique').on(t.deviceId, t.seq),
    index('device_events_device_time_idx').on(t.deviceId, t.occurredAt),
  ],
);

/**
 * A vital sign or activity reading (01 §3 Measurements): one row per type and instant. Written only by the
 * ingest batch, which takes the patient from the device row in the same statement; like the event log it
 * has no foreign key (a row-level check per reading was 15 % of the batch, bench/RESULTS.md ingest): a
 * statement trigger deletes a deleted patient's readings instead (migration 0043).
 */
export const measurements = pgTable(
  'measurements',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: bigint('patient_id', { mode: 'number' }).notNull(),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    /** The device that took the reading (no foreign key: written by the ingest batch, kept if the device goes). */
    deviceId: bigint('device_id', { mode: 'number' }),
    deviceEventId: bigint('device_event_id', { mode: 'number' }),
    type: text('type').notNull(),
    value: doublePrecision('value').notNull(),
    unit: text('unit').notNull(),
    measuredAt: timestamp('measured_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('measurements_patient_type_time_idx').on(t.patientId, t.type, t.measuredAt),
    // A patient's newest reading of any type (the worklist), and ranges of every type.
    index('measurements_patient_time_idx').on(t.patientId, t.measuredAt),
    // No unique (device event, type): readings come only from events new to the log, one per type of the
    // event, so a resend cannot add them twice; a fourth index on the hottest insert cost ingestion ~5 %.
  ],
);

/** Staff who follow a dispenser's live events (POST /dispensers/{id}/subscribe). */
export const dispenserSubscriptions = pgTable(
  'dispenser_subscriptions',
  {
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.adminId] })],
);

/** A command sent to a dispenser and the device's reply (or its time-out): the command log of /controller. */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    adminId: bigint('admin_id', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    controllerId: bigint('controller_id', { mode: 'number' }).references(() => controllerAccounts.id, {
      onDelete: 'set null',
    }),
    request: jsonb('request').notNull(),
    reply: jsonb('reply'),
    status: text('status').notNull().default('sent'),
    createdAt: createdAt(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    index('device_commands_device_idx').on(t.deviceId, t.id),
    check('device_commands_status_check', sql`${t.status} IN ('sent', 'answered', 'timed_out')`),
  ],
);

/** Webhook deliveries already processed, by the vendor's delivery id: a replayed delivery is answered, not redone. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    vendor: text('vendor').notNull(),
    deliveryId: text('delivery_id').notNull(),
    events: smallint('events').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.vendor, t.deliveryId] })],
);

/**
 * Dose times programmed into a patient's dispenser (POST users/{id}/schedules, or a whole cohort's).
 * `pending` until the gateway sends it to the connected device (`sent`, at `sent_at`: at once, or when the
 * device next connects); a pending schedule replaced by a newer one for the same device before it could be
 * sent is `superseded` and never sent (docs/devices.md, ADR 050).
 */
export const deviceSchedules = pgTable(
  'device_schedules',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' }).notNull(),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    groupId: bigint('group_id', { mode: 'number' }),
    regimenId: bigint('regimen_id', { mode: 'number' }),
    times: text('times').array().notNull(),
    weekdays: smallint('weekdays').array().notNull(),
    status: text('status').notNull().default('pending'),
    /** When the gateway sent it to the device; null while pending, when superseded, and for rows sent before 0044. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('device_schedules_patient_idx').on(t.patientId, t.id),
    index('device_schedules_group_idx').on(t.groupId, t.id),
    // What a device that connects is owed: found without reading the devices' history.
    index('device_schedules_pending_idx').on(t.deviceId, t.id).where(sql`${t.status} = 'pending'`),
    check('device_schedules_status_check', sql`${t.status} IN ('pending', 'sent', 'superseded')`),
  ],
);

/**
 * A goal set on a device (daily steps, sleep, target weight …), also sent to the device: `pending` until
 * sent (at once or when the device next connects), `superseded` when a newer goal of the same type came
 * first (like schedules).
 */
export const deviceGoals = pgTable(
  'device_goals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    target: doublePrecision('target').notNull(),
    status: text('status').notNull().default('pending'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('device_goals_device_idx').on(t.deviceId, t.id),
    check('device_goals_status_check', sql`${t.status} IN ('pending', 'sent', 'superseded')`),
    check(
      'device_goals_type_check',
      sql`${t.type} IN ('steps', 'active_minutes', 'sleep', 'weight', 'adherence')`,
    ),
  ],
);
