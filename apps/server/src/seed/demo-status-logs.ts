import { sql } from 'drizzle-orm';
import type { StatusChangeInput } from '../modules/status-logs/status-logs.factories';
import { createStatusChanges } from '../modules/status-logs/status-logs.factories';
import type { Queryable } from '../platform/db/client';

const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The demo patients' status history (ADR 047), so /status-logs and each record's History tab open on real rows:
 * every patient's enrolment (pending ones enrolled as pending, the others as active), and for the inactive and
 * discharged ones the change that made them so in the last four weeks, by the program's staff — a third of the
 * discharges in one bulk change five days ago.
 */
export async function seedDemoStatusHistory(
  tx: Queryable,
  input: { staff: { programId: number; adminIds: number[] }[]; now: number },
): Promise<void> {
  const rows: StatusChangeInput[] = [];
  const bulkAt = new Date(input.now - 5 * DAY);
  for (const { programId, adminIds } of input.staff) {
    const patients = (
      await tx.execute<{ id: number; status: StatusChangeInput['status']; created_at: Date }>(sql`
        SELECT id, status, created_at FROM patients WHERE program_id = ${programId} ORDER BY id`)
    ).rows;
    for (const p of patients) {
      const id = Number(p.id);
      const enrolledAt = new Date(p.created_at).getTime();
      const enrolledAs = p.status === 'pending' ? 'pending' : 'active';
      rows.push({
        patientId: id,
        status: enrolledAs,
        source: 'enrolment',
        adminId: adminIds[0]!,
        at: new Date(enrolledAt),
      });
      if (p.status === enrolledAs) continue;
      const bulk = p.status === 'discharged' && id % 3 === 0;
      const at = bulk ? bulkAt.getTime() : input.now - ((id * 7919) % (28 * 24 * 60)) * MINUTE - 30 * MINUTE;
      rows.push({
        patientId: id,
        previousStatus: 'active',
        status: p.status,
        source: bulk ? 'bulk' : 'single',
        adminId: bulk ? adminIds[0]! : adminIds[id % adminIds.length]!,
        at: new Date(Math.min(input.now, Math.max(at, enrolledAt + DAY))),
      });
    }
  }
  await createStatusChanges(tx, rows);
}
