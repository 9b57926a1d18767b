import { readFileSync } from 'node:fs';
import { importExternalOrders } from '../modules/external-orders/external-orders.import';
import { createPatients } from '../modules/patients/patients.factories';
import type { Queryable } from '../platform/db/client';

/** The sample export the console offers for download (apps/web/public/samples), read from the repository. */
export function externalOrdersSampleCsv(): string {
  return readFileSync(
    new URL('../../../web/public/samples/external-orders-sample.csv', import.meta.url),
    'utf8',
  );
}

/**
 * The pharmacy's sample export imported into a program (ADR 043), so /external-orders opens populated: Harold
 * Jensen is enrolled with the same name and date of birth (linked at import); Margaret Okafor is enrolled but
 * the pharmacy calls her Maggie (she waits in the match dialog, same date of birth and phone); Luis Ortega is
 * not enrolled at all.
 */
export async function seedDemoExternalOrders(tx: Queryable, input: { programId: number }): Promise<void> {
  await createPatients(tx, [
    { programId: input.programId, firstName: 'Harold', lastName: 'Jensen', dob: '1944-07-22', sex: 'male' },
    {
      programId: input.programId,
      firstName: 'Margaret',
      lastName: 'Okafor',
      dob: '1951-03-14',
      sex: 'female',
      phoneNumber: '+1 555 318 0042',
    },
  ]);
  await importExternalOrders(tx, {
    programId: input.programId,
    csv: externalOrdersSampleCsv(),
    fileName: 'external-orders-sample.csv',
  });
}
