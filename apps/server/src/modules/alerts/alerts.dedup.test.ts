import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { given } from '../../seed/given';
import { testApp } from '../../test/harness';
import { applyVerdicts } from './alerts.queries';

let db: Database;
let programId = 0;
const T0 = Date.UTC(2026, 10, 1);

beforeAll(async () => {
  ({ db } = await testApp());
  programId = (await given(db).program()).id;
});

/** What the verdict statement must do, one verdict at a time (ADR 028 decisions 1 and 2). */
function model(steps: { breached: boolean; minute: number }[]) {
  let open: { last: number; occurrences: number } | null = null;
  let resolved = 0;
  for (const s of steps) {
    if (s.breached) {
      if (!open) open = { last: s.minute, occurrences: 1 };
      else if (s.minute > open.last) open = { last: s.minute, occurrences: open.occurrences + 1 };
    } else if (open && s.minute >= open.last) {
      open = null;
      resolved++;
    }
  }
  return { open, resolved };
}

describe('alert de-duplication (property)', () => {
  it('keeps one unresolved alert per condition, counts only newer evidence, resolves only on evidence at least as new', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ breached: fc.boolean(), minute: fc.integer({ min: 0, max: 8 }) }), {
          minLength: 1,
          maxLength: 14,
        }),
        async (steps) => {
          const patient = await given(db).patient({ programId });
          for (const s of steps)
            await applyVerdicts(db, [
              {
                patientId: patient.id,
                programId,
                type: 'out_range_blood_pressure_alerts',
                key: '',
                breached: s.breached,
                at: T0 + s.minute * 60_000,
                summary: 'test',
                reason: { summary: 'test' },
              },
            ]);
          const rows = (
            await db.execute<{ status: string; occurrences: number; last_at: string }>(sql`
              SELECT status, occurrences, last_at FROM alerts WHERE patient_id = ${patient.id} ORDER BY id`)
          ).rows;
          const expected = model(steps);
          const unresolved = rows.filter((r) => r.status !== 'resolved');
          expect(unresolved.length).toBeLessThanOrEqual(1);
          expect(rows.filter((r) => r.status === 'resolved')).toHaveLength(expected.resolved);
          if (expected.open === null) expect(unresolved).toEqual([]);
          else {
            expect(unresolved[0]!.occurrences).toBe(expected.open.occurrences);
            expect(new Date(unresolved[0]!.last_at).getTime()).toBe(T0 + expected.open.last * 60_000);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
