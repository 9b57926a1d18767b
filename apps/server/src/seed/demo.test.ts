import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seedDemoData } from '../test/flows';
import { testDatabase } from '../test/harness';

const TABLES = [
  'notes',
  'follow_ups',
  'note_logs',
  'caregivers',
  'patient_caregivers',
  'medication_orders',
  'disease_states',
  'scripts',
  'pods',
  'med_rec_items',
  'med_rec_status',
  'tags',
  'tag_folders',
  'patient_tags',
  'protocols',
  'content_categories',
  'content_items',
  'content_folders',
  'text_message_templates',
] as const;

describe('the demo seed', () => {
  it('fills the areas a care team opens first', async () => {
    const { db } = await testDatabase();
    await seedDemoData(db);
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const res = await db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`,
      );
      counts[table] = res.rows[0]!.n;
    }
    for (const table of TABLES) expect(counts[table], table).toBeGreaterThan(0);

    // A running program: every monitoring regimen ordered, open follow-ups overdue, due today and upcoming,
    // nothing written before the patient enrolled or after now, no pod at the low-pods threshold.
    const checks = await db.execute<Record<string, number>>(sql`
      SELECT
        (SELECT count(*)::int FROM regimens WHERE program_id = 1 AND order_id IS NULL) AS unordered,
        (SELECT count(*)::int FROM follow_ups WHERE completed_at IS NULL AND due_date < current_date) AS overdue,
        (SELECT count(*)::int FROM follow_ups WHERE completed_at IS NULL AND due_date = current_date) AS today,
        (SELECT count(*)::int FROM follow_ups WHERE completed_at IS NULL AND due_date > current_date) AS upcoming,
        (SELECT count(*)::int FROM notes n JOIN patients p ON p.id = n.patient_id
         WHERE n.created_at < p.created_at OR n.created_at > now()) AS misplaced_notes,
        (SELECT count(*)::int FROM pods WHERE servings_remaining <= 3) AS low_pods,
        (SELECT count(*)::int FROM patients WHERE program_id = 3 AND id IN (
          SELECT patient_id FROM notes UNION SELECT patient_id FROM patient_tags)) AS harbor`);
    expect(checks.rows[0]).toMatchObject({ unordered: 0, misplaced_notes: 0, low_pods: 0, harbor: 0 });
    for (const key of ['overdue', 'today', 'upcoming']) expect(checks.rows[0]![key], key).toBeGreaterThan(0);
  }, 120_000);
});
