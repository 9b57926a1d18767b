import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { importExternalOrders } from '../modules/external-orders/external-orders.import';
import type { Queryable } from '../platform/db/client';

/** The sample export the console offers for download (apps/web/public/samples), read from the repository. */
export function externalOrdersSampleCsv(): string {
  return readFileSync(
    new URL('../../../web/public/samples/external-orders-sample.csv', import.meta.url),
    'utf8',
  );
}

/**
 * The pharmacy's sample export imported into a program (ADR 045), so /external-orders opens populated. Two of
 * the program's demo patients (ones without a medication plan) become the people the export names, so the
 * program's patient count stays what the other journeys expect: Harold Jensen has the same name and date of
 * birth (linked at import); Margaret Okafor is called Maggie by the pharmacy (she waits in the match dialog,
 * same date of birth and phone); Luis Ortega is not enrolled at all.
 */
export async function seedDemoExternalOrders(tx: Queryable, input: { programId: number }): Promise<void> {
  await tx.execute(sql`
    WITH chosen AS (
      SELECT p.id, row_number() OVER (ORDER BY p.id DESC) AS n FROM patients p
      WHERE p.program_id = ${input.programId} AND NOT EXISTS (SELECT 1 FROM regimens r WHERE r.patient_id = p.id)
      ORDER BY p.id DESC LIMIT 2
    )
    UPDATE patients p SET
      first_name = CASE c.n WHEN 1 THEN 'Harold' ELSE 'Margaret' END,
      middle_name = NULL,
      last_name = CASE c.n WHEN 1 THEN 'Jensen' ELSE 'Okafor' END,
      dob = CASE c.n WHEN 1 THEN DATE '1944-07-22' ELSE DATE '1951-03-14' END,
      sex = CASE c.n WHEN 1 THEN 'male' ELSE 'female' END,
      phone_number = CASE c.n WHEN 1 THEN p.phone_number ELSE '+1 555 318 0042' END
    FROM chosen c WHERE p.id = c.id`);
  await importExternalOrders(tx, {
    programId: input.programId,
    csv: externalOrdersSampleCsv(),
    fileName: 'external-orders-sample.csv',
  });
}
