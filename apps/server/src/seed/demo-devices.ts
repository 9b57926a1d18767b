import { profileFor, seededRandom, simulateDoses, simulateReadings } from '@caredeck/devices/behaviour';
import { demoDeviceSecret } from '@caredeck/devices/device';
import { resolveDisplayZone, type ScheduleRegimen } from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { secretHash } from '../modules/devices/gateway/broker';
import { MEASUREMENT_UNITS, type MeasurementType } from '../modules/devices/gateway/events';
import { type BatchEvent, ingestBatch } from '../modules/devices/ingest.queries';
import type { Queryable } from '../platform/db/client';

const DAY = 86_400_000;
export const DEMO_HISTORY_DAYS = 90;

/**
 * Demo devices sign in with a secret derived from their serial and the demo password (demoDeviceSecret,
 * shared with the simulator: `npm run simulate -- --demo`). Demo data only: real devices get random
 * secrets at provisioning.
 */
export const demoDispenserSerial = (patientId: number) => `CD-${String(patientId).padStart(6, '0')}`;

type DemoPatient = { id: number; program_id: number; time_zone: string | null };

/**
 * Gives the demo patients what a running program has: a dispenser each (type 1 or 2) with one or two
 * regimens on it, blood-pressure cuffs and pulse oximeters for some, and 90 days of simulated history
 * (adherent, forgetful, double-dosing and offline patients) written through the gateway's own batch
 * statement, so the history is exactly what live devices would have produced.
 */
export async function seedDemoDevices(
  tx: Queryable,
  client: pg.PoolClient,
  input: { programIds: number[]; demoPassword: string; now: number; createdBy: number },
): Promise<void> {
  const patients = (
    await tx.execute<DemoPatient>(sql`
      SELECT id, program_id, time_zone FROM patients
      WHERE program_id = ANY(${`{${input.programIds.join(',')}}`}::bigint[]) AND status <> 'discharged'
      ORDER BY id`)
  ).rows;
  const start = Math.floor((input.now - DEMO_HISTORY_DAYS * DAY) / DAY) * DAY;
  const events: BatchEvent[] = [];
  for (const [index, p] of patients.entries()) {
    const random = seededRandom(p.id * 7919);
    const serial = demoDispenserSerial(p.id);
    const dispenserType = index % 2 === 0 ? 1 : 2;
    const device = await tx.execute<{ id: number }>(sql`
      INSERT INTO devices (serial, vendor, kind, dispenser_type, program_id, patient_id, secret_hash, verified,
        provisioned_at, firmware, battery)
      VALUES (${serial}, 'medesto', 'dispenser', ${dispenserType}, ${p.program_id}, ${p.id},
        ${secretHash(demoDeviceSecret(serial, input.demoPassword))}, true, ${new Date(start).toISOString()},
        ${dispenserType === 1 ? '1.4.2' : '2.0.7'}, 100)
      RETURNING id`);
    const deviceId = device.rows[0]!.id;
    const regimens: (Omit<ScheduleRegimen, 'id'> & { name: string })[] = [
      {
        name: 'Metformin 500 mg',
        repeat: 'daily',
        interval: 1,
        times: ['08:00', '20:00'],
        timeCascade: false,
        lockoutMinutes: 180,
        unlockBeforeMinutes: 60,
        scheduledAt: start,
        endAt: null,
        multiPod: false,
        num: 1,
      },
    ];
    if (index % 2 === 0)
      regimens.push({ ...regimens[0]!, name: 'Lisinopril 10 mg', times: ['09:00'], lockoutMinutes: 240 });
    const zone = resolveDisplayZone(p.time_zone);
    let seq = 0;
    for (const r of regimens) {
      const created = await tx.execute<{ id: number }>(sql`
        INSERT INTO regimens (patient_id, program_id, name, type, repeat, interval, times, lockout_time, unlock_before,
          scheduled_at, num, created_by, created_by_name, device_serial)
        VALUES (${p.id}, ${p.program_id}, ${r.name}, 'medication', 'daily', 1, ${`{${r.times.join(',')}}`}::text[],
          ${r.lockoutMinutes}, ${r.unlockBeforeMinutes}, ${new Date(start).toISOString()}, 1, ${input.createdBy},
          'Demo data', ${serial})
        RETURNING id`);
      const regimenId = created.rows[0]!.id;
      const doses = simulateDoses({
        regimen: { ...r, id: regimenId },
        zone,
        from: start,
        to: input.now,
        now: input.now,
        profile: profileFor(p.id),
        random,
      });
      for (const d of doses)
        events.push({
          deviceId,
          seq: ++seq,
          type: d.kind === 'taken' ? 'dose_taken' : 'dose_skipped',
          at: d.at,
          payload: { regimen_id: regimenId, slot: 1 + (seq % 28) },
        });
    }
    for (const kind of ['bp_cuff', 'pulse_oximeter', 'wearable'] as const) {
      const every = { bp_cuff: 3, pulse_oximeter: 5, wearable: 4 }[kind];
      if (index % every !== (kind === 'wearable' ? 1 : 0)) continue;
      const cuffSerial = `${{ bp_cuff: 'BP', pulse_oximeter: 'OX', wearable: 'WR' }[kind]}-${String(p.id).padStart(6, '0')}`;
      const cuff = await tx.execute<{ id: number }>(sql`
        INSERT INTO devices (serial, vendor, kind, program_id, patient_id, secret_hash, verified, provisioned_at)
        VALUES (${cuffSerial}, ${{ bp_cuff: 'omron', pulse_oximeter: 'masimo', wearable: 'withings' }[kind]}, ${kind}, ${p.program_id}, ${p.id},
          ${secretHash(demoDeviceSecret(cuffSerial, input.demoPassword))}, true, ${new Date(start).toISOString()})
        RETURNING id`);
      let readingSeq = 0;
      for (const reading of simulateReadings({
        device: kind,
        from: start,
        to: input.now,
        now: input.now,
        random,
        baselineSystolic: index % 4 === 0 ? 146 : undefined,
      }))
        events.push({
          deviceId: cuff.rows[0]!.id,
          seq: ++readingSeq,
          type: 'measurement',
          at: reading.at,
          payload: {
            m: Object.entries(reading.values).map(([type, value]) => ({
              type,
              value,
              unit: MEASUREMENT_UNITS[type as MeasurementType],
            })),
          },
        });
    }
  }
  for (let i = 0; i < events.length; i += 5000) await ingestBatch(client, events.slice(i, i + 5000));
}
