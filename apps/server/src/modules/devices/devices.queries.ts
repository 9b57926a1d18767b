import type { DeviceKind } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { containsPattern } from '../../platform/db/like';
import { pageOfHits } from '../../platform/db/page';
import { visibleProgramsQuery } from '../tenancy/tenancy.queries';

/** A dispenser addressed without its program (`dispensers/{id}`): its program decides who may see it. */
export const dispenserObject = defineObjectKind(
  'dispenser',
  (id) => sql`SELECT program_id FROM devices WHERE id = ${id} AND kind = 'dispenser'`,
);

/** Any device addressed without its program (`devices/{id}/secret`): its program decides who may act on it. */
export const deviceObject = defineObjectKind(
  'device',
  (id) => sql`SELECT program_id FROM devices WHERE id = ${id}`,
);

/**
 * A device counts as online when it was heard from in the last 30 minutes. That is the only connection
 * fact of a device behind an external broker that never published a status (ADR 049).
 */
const ONLINE_WINDOW = sql`interval '30 minutes'`;

const DEVICE = sql`
  d.id, d.serial, d.vendor, d.kind, d.dispenser_type, d.program_id,
  CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'name',
    trim(concat_ws(' ', p.first_name, p.last_name))) END AS patient,
  d.verified, d.connected, coalesce(d.last_seen_at > now() - ${ONLINE_WINDOW}, false) AS online,
  d.presence_at IS NOT NULL AS reports_presence, d.last_seen_at, d.last_event_type, d.battery, d.pods_loaded, d.firmware, d.provisioned_at`;

export type DeviceRow = {
  id: number;
  serial: string;
  vendor: string;
  kind: DeviceKind;
  dispenser_type: number | null;
  program_id: number | null;
  patient: { id: number; name: string } | null;
  verified: boolean;
  connected: boolean;
  online: boolean;
  /** The device published a status (`devices/{serial}/status`): `connected` is a fact, not unknown. */
  reports_presence: boolean;
  last_seen_at: Date | null;
  last_event_type: string | null;
  battery: number | null;
  pods_loaded: number | null;
  firmware: string | null;
  provisioned_at: Date | null;
};

async function devicesWhere(db: Queryable, where: SQL, limit = 1): Promise<DeviceRow[]> {
  const res = await db.execute<DeviceRow>(sql`
    SELECT ${DEVICE} FROM devices d LEFT JOIN patients p ON p.id = d.patient_id
    WHERE ${where} ORDER BY d.serial LIMIT ${limit}`);
  return res.rows;
}

export async function deviceById(db: Queryable, id: number, kind?: DeviceKind): Promise<DeviceRow | null> {
  const [row] = await devicesWhere(db, sql`d.id = ${id} ${kind ? sql`AND d.kind = ${kind}` : sql``}`);
  return row ?? null;
}

export async function patientDevice(
  db: Queryable,
  patientId: number,
  programId: number,
  kind: DeviceKind,
): Promise<DeviceRow | null> {
  const [row] = await devicesWhere(
    db,
    sql`d.patient_id = ${patientId} AND d.program_id = ${programId} AND d.kind = ${kind}`,
  );
  return row ?? null;
}

/**
 * A page of the devices of the programs a staff member sees (`adminId`), or of the whole fleet (`adminId`
 * null: a controller), by serial, with the count of all that match: never a silent cut (issue 27).
 */
export async function devicesPage(
  db: Queryable,
  filter: {
    adminId: number | null;
    kind?: DeviceKind;
    programId?: number;
    patientId?: number;
    serial?: string;
    connected?: boolean;
  },
  page: { page: number; per_page: number },
): Promise<{ rows: DeviceRow[]; total: number }> {
  const scope =
    filter.adminId === null
      ? sql`true`
      : sql`d.program_id IN (SELECT v.id FROM (${visibleProgramsQuery(filter.adminId)}) v)`;
  const where = sql`${scope} ${filter.kind ? sql`AND d.kind = ${filter.kind}` : sql``}
      ${filter.programId ? sql`AND d.program_id = ${filter.programId}` : sql``}
      ${filter.patientId ? sql`AND d.patient_id = ${filter.patientId}` : sql``}
      ${filter.serial?.trim() ? sql`AND d.serial ILIKE ${containsPattern(filter.serial.trim())}` : sql``}
      ${filter.connected === undefined ? sql`` : sql`AND d.connected = ${filter.connected}`}`;
  return pageOfHits<DeviceRow>(db, {
    hits: sql`SELECT d.id, d.serial FROM devices d WHERE ${where}`,
    order: sql`serial, id`,
    limit: page.per_page,
    offset: (page.page - 1) * page.per_page,
    build: sql`SELECT ${DEVICE} FROM page JOIN devices d ON d.id = page.id LEFT JOIN patients p ON p.id = d.patient_id`,
    buildOrder: sql`x.serial, x.id`,
  });
}

export async function recentEvents(db: Queryable, deviceId: number, limit = 20) {
  const res = await db.execute<{
    seq: number;
    type: string;
    occurred_at: Date;
    received_at: Date;
    payload: Record<string, unknown>;
  }>(sql`
    SELECT seq, type, occurred_at, received_at, payload FROM device_events
    WHERE device_id = ${deviceId} ORDER BY occurred_at DESC, id DESC LIMIT ${limit}`);
  return res.rows;
}

export type CommandRow = {
  id: number;
  status: 'sent' | 'answered' | 'timed_out';
  request: Record<string, unknown>;
  reply: Record<string, unknown> | null;
  created_at: Date;
  answered_at: Date | null;
};

export async function recentCommands(db: Queryable, deviceId: number, limit = 10): Promise<CommandRow[]> {
  const res = await db.execute<CommandRow>(sql`
    SELECT id, status, request, reply, created_at, answered_at FROM device_commands
    WHERE device_id = ${deviceId} ORDER BY id DESC LIMIT ${limit}`);
  return res.rows;
}

export async function isSubscribed(db: Queryable, deviceId: number, adminId: number): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM dispenser_subscriptions WHERE device_id = ${deviceId} AND admin_id = ${adminId}`,
  );
  return (res.rowCount ?? 0) > 0;
}

export async function setSubscription(db: Queryable, deviceId: number, adminId: number, on: boolean) {
  await db.execute(
    on
      ? sql`INSERT INTO dispenser_subscriptions (device_id, admin_id) VALUES (${deviceId}, ${adminId}) ON CONFLICT DO NOTHING`
      : sql`DELETE FROM dispenser_subscriptions WHERE device_id = ${deviceId} AND admin_id = ${adminId}`,
  );
}

export async function insertCommand(
  db: Queryable,
  c: {
    deviceId: number;
    adminId: number | null;
    controllerId: number | null;
    request: Record<string, unknown>;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO device_commands (device_id, admin_id, controller_id, request)
    VALUES (${c.deviceId}, ${c.adminId}, ${c.controllerId}, ${JSON.stringify(c.request)}::jsonb) RETURNING id`);
  return res.rows[0]!.id;
}

export async function finishCommand(
  db: Queryable,
  id: number,
  reply: Record<string, unknown> | null,
): Promise<CommandRow> {
  const res = await db.execute<CommandRow>(sql`
    UPDATE device_commands SET
      status = ${reply ? 'answered' : 'timed_out'}, reply = ${reply ? JSON.stringify(reply) : null}::jsonb,
      answered_at = CASE WHEN ${reply !== null} THEN now() ELSE NULL END
    WHERE id = ${id}
    RETURNING id, status, request, reply, created_at, answered_at`);
  return res.rows[0]!;
}

/** A vendor's device not yet in any program (stock), or already in this program; null otherwise. */
export async function claimableDevice(
  db: Queryable,
  vendor: string,
  serial: string,
  programId: number | null,
) {
  const res = await db.execute<{ id: number }>(sql`
    SELECT id FROM devices
    WHERE lower(vendor) = lower(${vendor}) AND serial = ${serial}
      AND (program_id IS NULL ${programId === null ? sql`` : sql`OR program_id = ${programId}`})
    FOR UPDATE`);
  return res.rows[0]?.id ?? null;
}

export async function assignDevice(
  db: Queryable,
  id: number,
  a: { programId: number | null; patientId: number | null; secretHash: string },
): Promise<void> {
  await db.execute(sql`
    UPDATE devices SET program_id = ${a.programId}, patient_id = ${a.patientId}, secret_hash = ${a.secretHash},
      provisioned_at = now()
    WHERE id = ${id}`);
}

/**
 * Replaces a device's secret hash; the device's serial and program, or null when there is no such device
 * (or, given `programId`, none in that program any more).
 */
export async function replaceSecretHash(
  db: Queryable,
  id: number,
  secretHash: string,
  programId: number | null,
): Promise<{ serial: string; program_id: number | null; kind: DeviceKind; vendor: string } | null> {
  const res = await db.execute<{
    serial: string;
    program_id: number | null;
    kind: DeviceKind;
    vendor: string;
  }>(sql`
    UPDATE devices SET secret_hash = ${secretHash}
    WHERE id = ${id} ${programId === null ? sql`` : sql`AND program_id = ${programId}`}
    RETURNING serial, program_id, kind, vendor`);
  return res.rows[0] ?? null;
}

/** A new device; null when the serial exists already (the unique index decides, race-free). */
export async function insertDevice(
  db: Queryable,
  d: {
    serial: string;
    vendor: string;
    kind: DeviceKind;
    dispenserType: number | null;
    programId: number | null;
    patientId: number | null;
    secretHash: string;
    verified: boolean;
  },
): Promise<number | null> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO devices (serial, vendor, kind, dispenser_type, program_id, patient_id, secret_hash, verified, provisioned_at)
    VALUES (${d.serial}, ${d.vendor}, ${d.kind}, ${d.dispenserType}, ${d.programId}, ${d.patientId}, ${d.secretHash},
      ${d.verified}, ${d.programId === null ? null : sql`now()`})
    ON CONFLICT (serial) DO NOTHING RETURNING id`);
  return res.rows[0]?.id ?? null;
}

export async function patientInProgram(
  db: Queryable,
  patientId: number,
  programId: number,
): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM patients WHERE id = ${patientId} AND program_id = ${programId}`,
  );
  return (res.rowCount ?? 0) > 0;
}

/** Devices per vendor in the given programs (null: every program). */
export async function devicesPerVendor(db: Queryable, programIds: number[] | null) {
  const res = await db.execute<{ vendor: string; devices: number }>(sql`
    SELECT lower(vendor) AS vendor, count(*)::int AS devices FROM devices
    ${programIds === null ? sql`` : sql`WHERE program_id = ANY(${idArray(programIds)}::bigint[])`}
    GROUP BY lower(vendor)`);
  return res.rows;
}

/** The vendor's devices among these serials (one query for a whole webhook delivery). */
export async function vendorDevices(db: Queryable, vendor: string, serials: string[]) {
  const res = await db.execute<{ id: number; serial: string }>(sql`
    SELECT id, serial FROM devices
    WHERE lower(vendor) = ${vendor} AND serial = ANY(${`{${serials.map((s) => `"${s.replace(/["\\]/g, '')}"`).join(',')}}`}::text[])`);
  return new Map(res.rows.map((r) => [r.serial, r.id]));
}

export async function deliverySeen(db: Queryable, vendor: string, deliveryId: string): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM webhook_deliveries WHERE vendor = ${vendor} AND delivery_id = ${deliveryId}`,
  );
  return (res.rowCount ?? 0) > 0;
}

export async function recordDelivery(db: Queryable, vendor: string, deliveryId: string, events: number) {
  await db.execute(sql`
    INSERT INTO webhook_deliveries (vendor, delivery_id, events) VALUES (${vendor}, ${deliveryId}, ${events})
    ON CONFLICT DO NOTHING`);
}
