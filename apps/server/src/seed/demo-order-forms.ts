import { sql } from 'drizzle-orm';
import { createOrderForm } from '../modules/order-forms/order-forms.factories';
import type { Queryable } from '../platform/db/client';

/**
 * Order forms of the first monitoring patients (by name), so the patient record's "Order forms" tab opens on a
 * real history: a device order sent to the supplier, a refill request waiting to be sent, a dispenser enrolment
 * sent twice, a prior authorization request. Their PDFs are rendered from the snapshot on the first download.
 */
export async function seedDemoOrderForms(
  tx: Queryable,
  input: { programId: number; coordinatorId: number; physicianId: number },
): Promise<void> {
  const ids = (
    await tx.execute<{ id: number }>(sql`
      SELECT id FROM patients WHERE program_id = ${input.programId} ORDER BY last_name, first_name, id LIMIT 3`)
  ).rows.map((r) => Number(r.id));
  const [first, second, third] = ids;
  if (third === undefined || first === undefined || second === undefined) return;
  const base = { programId: input.programId, createdBy: input.coordinatorId };
  const supplier = {
    to: 'orders@medsupply.example',
    recipientName: 'MedSupply orders desk',
    by: input.coordinatorId,
  };
  await createOrderForm(tx, {
    ...base,
    patientId: first,
    templateId: 1,
    values: { device_kind: 'Blood pressure cuff', diagnosis_code: 'I10', quantity: '1' },
    sends: [supplier],
  });
  await createOrderForm(tx, {
    ...base,
    patientId: first,
    templateId: 2,
    values: { medication: 'Lisinopril 10 mg tablet', quantity: '30', refills_requested: '3' },
  });
  const pharmacy = {
    to: 'enrolment@harborpharmacy.example',
    recipientName: 'Harbor Pharmacy',
    by: input.coordinatorId,
  };
  await createOrderForm(tx, {
    ...base,
    patientId: second,
    templateId: 4,
    values: { pharmacy_name: 'Harbor Pharmacy', start_date: '2026-12-01', packaging: 'Dispenser pods' },
    sends: [pharmacy, { ...pharmacy, by: input.physicianId }],
  });
  await createOrderForm(tx, {
    ...base,
    createdBy: input.physicianId,
    patientId: third,
    templateId: 3,
    values: {
      medication: 'Sacubitril/valsartan 24/26 mg',
      diagnosis_code: 'I50.9',
      insurance_plan: 'Medicare Part D',
      member_id: 'MBR-204118',
      urgency: 'Standard',
      clinical_rationale: 'Symptomatic heart failure despite an ACE inhibitor at the highest tolerated dose.',
    },
  });
}
