import { seededRandom } from '@caredeck/devices/behaviour';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../platform/db/client';

const MINUTE = 60_000;
const ACTIVITIES = ['data_review', 'data_review', 'message', 'care_plan'] as const;

/**
 * Time the demo care team spent on the patients with device readings, last month and this month so far, so
 * /billings and the patient record's time tab open on real figures. Each staff member's entries follow one
 * another on working days (08:00–17:00 UTC) and never overlap, as POST billing requires; the first entry of a
 * patient's month is an interactive call. Runs after the device history (it needs the readings).
 */
export async function seedDemoBilling(
  tx: Queryable,
  input: { programId: number; coordinatorId: number; physicianId: number; now: number },
): Promise<void> {
  const patients = (
    await tx.execute<{ id: number }>(sql`
      SELECT p.id FROM patients p
      WHERE p.program_id = ${input.programId} AND EXISTS (SELECT 1 FROM measurements m WHERE m.patient_id = p.id)
      ORDER BY p.id`)
  ).rows.map((r) => Number(r.id));
  const entries: Record<string, unknown>[] = [];
  const now = new Date(input.now);
  for (const offset of [-1, 0]) {
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1);
    const cursors = new Map<number, number>([
      [input.coordinatorId, monthStart + 8 * 60 * MINUTE],
      [input.physicianId, monthStart + 8 * 60 * MINUTE],
    ]);
    /** The next free slot of `adminId` lasting `minutes` (working hours), or null past now. */
    const slot = (adminId: number, minutes: number): number | null => {
      let at = cursors.get(adminId)!;
      const day = new Date(at);
      const hour = day.getUTCHours() + day.getUTCMinutes() / 60 + minutes / 60;
      if (hour > 17) at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1, 8);
      if (at + minutes * MINUTE > input.now - 30 * MINUTE) return null;
      cursors.set(adminId, at + (minutes + 5) * MINUTE);
      return at;
    };
    for (const patientId of patients) {
      const random = seededRandom(patientId * 31 + offset + 2);
      // Three in four patients get time; an engaged third of those enough for 99457 and 99458.
      if (random() < 0.25) continue;
      const count = 1 + Math.floor(random() * (random() < 0.35 ? 5 : 2));
      for (let k = 0; k < count; k++) {
        const minutes = 6 + Math.floor(random() * 10);
        const start = slot(input.coordinatorId, minutes);
        if (start === null) break;
        entries.push({
          program_id: input.programId,
          patient_id: patientId,
          admin_id: input.coordinatorId,
          type: 'rpm',
          activity: k === 0 ? 'call' : ACTIVITIES[Math.floor(random() * ACTIVITIES.length)],
          interactive: k === 0,
          started_at: new Date(start).toISOString(),
          ended_at: new Date(start + minutes * MINUTE).toISOString(),
          seconds: minutes * 60,
          source: random() < 0.7 ? 'timer' : 'manual',
        });
      }
      if (random() < 0.15) {
        const start = slot(input.physicianId, 30);
        if (start !== null)
          entries.push({
            program_id: input.programId,
            patient_id: patientId,
            admin_id: input.physicianId,
            type: 'rpm',
            activity: 'data_review',
            interactive: false,
            started_at: new Date(start).toISOString(),
            ended_at: new Date(start + 30 * MINUTE).toISOString(),
            seconds: 1800,
            source: 'manual',
          });
      }
    }
  }
  if (entries.length === 0) return;
  await tx.execute(sql`
    INSERT INTO billing_time_entries (program_id, patient_id, admin_id, type, activity, interactive, started_at,
      ended_at, seconds, source)
    SELECT program_id, patient_id, admin_id, type, activity, interactive, started_at, ended_at, seconds, source
    FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS e(program_id bigint, patient_id bigint,
      admin_id bigint, type text, activity text, interactive boolean, started_at timestamptz, ended_at timestamptz,
      seconds int, source text)`);
}
