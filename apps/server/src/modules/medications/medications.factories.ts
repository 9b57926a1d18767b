import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

/**
 * A regimen of a patient (`given.regimen({ patientId, programId, times: ['08:00'] })`), with the schedule
 * fields of 01 §3 (minutes for the windows, instants as ISO text).
 */
export async function createRegimen(
  db: Queryable,
  input: {
    patientId: number;
    programId: number;
    name?: string;
    type?: 'medication' | 'inhaler' | 'medesto-device';
    repeat?: 'daily' | 'weekly' | 'monthly' | 'as_needed';
    interval?: number;
    times?: string[];
    lockoutTime?: number;
    unlockBefore?: number;
    scheduledAt?: string;
    endAt?: string | null;
    multiPod?: boolean;
    num?: number;
    timeCascade?: boolean;
    deviceSerial?: string | null;
  },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO regimens (patient_id, program_id, name, type, repeat, interval, times, lockout_time, unlock_before,
      scheduled_at, end_at, multi_pod, num, time_cascade, device_serial)
    VALUES (${input.patientId}, ${input.programId}, ${input.name ?? 'Metformin 500 mg'}, ${input.type ?? 'medication'},
      ${input.repeat ?? 'daily'}, ${input.interval ?? 1}, ${`{${(input.times ?? ['08:00']).join(',')}}`}::text[],
      ${input.lockoutTime ?? 120}, ${input.unlockBefore ?? 30},
      ${input.scheduledAt ?? new Date(Date.now() - 30 * 86_400_000).toISOString()}, ${input.endAt ?? null},
      ${input.multiPod ?? false}, ${input.num ?? 1}, ${input.timeCascade ?? false}, ${input.deviceSerial ?? null})
    RETURNING id`);
  return { id: res.rows[0]!.id };
}

/** Dose events of a regimen in one statement (`given.doses({ patientId, regimenId, at: [...] })`). */
export async function createDoses(
  db: Queryable,
  input: { patientId: number; regimenId: number; at: string[]; kind?: 'taken' | 'skipped'; source?: string },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO medication_usages (patient_id, regimen_id, taken_at, kind, source)
    SELECT ${input.patientId}, ${input.regimenId}, t, ${input.kind ?? 'taken'}, ${input.source ?? 'manual'}
    FROM unnest(${`{${input.at.join(',')}}`}::timestamptz[]) AS t
    RETURNING id`);
  return res.rows.map((r) => r.id);
}
