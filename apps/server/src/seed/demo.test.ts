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
    const started = performance.now();
    await seedDemoData(db);
    const seconds = (performance.now() - started) / 1000;
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const res = await db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`,
      );
      counts[table] = res.rows[0]!.n;
    }
    process.stdout.write(`demo seed: ${seconds.toFixed(2)} s ${JSON.stringify(counts)}\n`);
    for (const table of TABLES) expect(counts[table], table).toBeGreaterThan(0);
  }, 120_000);
});
