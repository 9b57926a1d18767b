import type { StatusChangeSource } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export type StatusChangeInput = {
  patientId: number;
  status: 'active' | 'inactive' | 'pending' | 'discharged';
  previousStatus?: 'active' | 'inactive' | 'pending' | 'discharged' | null;
  source?: StatusChangeSource;
  adminId?: number | null;
  reason?: string | null;
  /** When it happened (default now): tests and the demo place changes in a period with it. */
  at?: Date;
};

/**
 * Status changes written into patients' history as they happened (`given.statusChanges([...])`), in one
 * statement; the patient's current status is left as it is. For tests, the demo and the bench.
 */
export async function createStatusChanges(db: Queryable, rows: StatusChangeInput[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const payload = rows.map((r, n) => ({
    n,
    patient_id: r.patientId,
    previous_status: r.previousStatus ?? null,
    status: r.status,
    source: r.source ?? 'single',
    admin_id: r.adminId ?? null,
    reason: r.reason ?? null,
    created_at: (r.at ?? new Date()).toISOString(),
  }));
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, admin_id, reason, created_at)
    SELECT x.patient_id, p.program_id, x.previous_status, x.status, x.source, x.admin_id, x.reason, x.created_at
    FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS x(
      n int, patient_id bigint, previous_status text, status text, source text, admin_id bigint, reason text,
      created_at timestamptz)
    JOIN patients p ON p.id = x.patient_id
    ORDER BY x.n
    RETURNING id`);
  return res.rows.map((r) => r.id);
}

/** One change (`given.statusChange({ patientId, status })`). */
export async function createStatusChange(db: Queryable, input: StatusChangeInput) {
  const [id] = await createStatusChanges(db, [input]);
  return { id: id! };
}

export const statusChangeFactories = { statusChange: createStatusChange, statusChanges: createStatusChanges };
