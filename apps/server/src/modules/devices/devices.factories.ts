import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { unique } from '../../seed/unique';
import { secretHash } from './gateway/broker';

export type DeviceKind =
  | 'dispenser'
  | 'inhaler'
  | 'bp_cuff'
  | 'pulse_oximeter'
  | 'scale'
  | 'glucometer'
  | 'wearable'
  | 'nfc_reader';

/**
 * A device of the fleet (`given.device({ programId, patientId, kind: 'dispenser', dispenserType: 1 })`),
 * with its MQTT secret returned once (only its hash is stored). Without a program it is vendor stock.
 */
export async function createDevice(
  db: Queryable,
  input: {
    programId?: number | null;
    patientId?: number | null;
    kind?: DeviceKind;
    dispenserType?: 1 | 2;
    serial?: string;
    vendor?: string;
    secret?: string;
    verified?: boolean;
  } = {},
) {
  const kind = input.kind ?? 'dispenser';
  const serial = input.serial ?? `SN-${unique()}-${randomBytes(3).toString('hex')}`;
  const secret = input.secret ?? randomBytes(24).toString('base64url');
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO devices (serial, vendor, kind, dispenser_type, program_id, patient_id, secret_hash, verified,
      provisioned_at)
    VALUES (${serial}, ${input.vendor ?? (kind === 'dispenser' ? 'medesto' : 'caredeck')}, ${kind},
      ${kind === 'dispenser' ? (input.dispenserType ?? 1) : null}, ${input.programId ?? null},
      ${input.patientId ?? null}, ${secretHash(secret)}, ${input.verified ?? false},
      ${input.programId ? sql`now()` : null})
    RETURNING id`);
  return { id: res.rows[0]!.id, serial, secret, kind };
}
