import { sql } from 'drizzle-orm';
import type { Queryable } from '../platform/db/client';

/**
 * A few reports so /reports and /pharma-reports open on real rows: a weekly adherence summary and a monthly
 * billing summary of the monitoring program, a one-off patient roster, and a pharma report of the cardiology
 * program. Their first runs are queued; the server's report runner makes the files within seconds of start.
 */
export async function seedDemoReports(
  tx: Queryable,
  input: { monitoringId: number; cardiologyId: number; adminId: number; pharmaId: number; now: number },
): Promise<void> {
  const day = 86_400_000;
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  const today = iso(input.now);
  const reports: [number, string, string, string, string, string, string | null, number][] = [
    [
      input.monitoringId,
      'Weekly adherence',
      'adherence_summary',
      'care',
      'last_7_days',
      'weekly',
      iso(input.now + 7 * day),
      input.adminId,
    ],
    [
      input.monitoringId,
      'Monthly billing',
      'billing_summary',
      'care',
      'last_month',
      'monthly',
      iso(input.now + 28 * day),
      input.adminId,
    ],
    [
      input.monitoringId,
      'Patient roster',
      'patient_roster',
      'care',
      'last_30_days',
      'none',
      null,
      input.adminId,
    ],
    [
      input.cardiologyId,
      'Adherence by medication',
      'pharma_adherence',
      'pharma',
      'last_30_days',
      'none',
      null,
      input.pharmaId,
    ],
  ];
  for (const [programId, name, type, audience, period, recurrence, next, by] of reports) {
    await tx.execute(sql`
      WITH r AS (
        INSERT INTO reports (program_id, name, type, audience, format, period, recurrence, next_run_at, created_by)
        VALUES (${programId}, ${name}, ${type}, ${audience}, 'xlsx', ${period}, ${recurrence},
          ${next ? `${next}T06:00:00Z` : null}, ${by})
        RETURNING id
      )
      INSERT INTO report_runs (report_id, program_id, kind, requested_by, period_start, period_end)
      SELECT r.id, ${programId}, 'report', ${by}, ${iso(input.now - 29 * day)}, ${today} FROM r`);
  }
}
