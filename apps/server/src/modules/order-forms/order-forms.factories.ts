import type { Queryable } from '../../platform/db/client';
import { ORDER_FORM_CATALOGUE } from './order-forms.catalogue';
import {
  insertOrderForm,
  insertOrderFormSend,
  markOrderFormSent,
  patientFacts,
  type SnapshotField,
} from './order-forms.queries';

/**
 * A patient's order form (`given.orderForm(…)`, the demo seed): the template's snapshot from the record and
 * `values`, without a PDF (it is rendered on the first download or send), and `sends` already made (their
 * e-mails are not queued: the history of a form sent earlier).
 */
export async function createOrderForm(
  db: Queryable,
  input: {
    programId: number;
    patientId: number;
    templateId: number;
    createdBy: number;
    values?: Record<string, string>;
    sends?: { to: string; recipientName?: string | null; by: number; at?: Date }[];
  },
): Promise<{ id: number }> {
  const template = ORDER_FORM_CATALOGUE.find((t) => t.id === input.templateId);
  if (!template) throw new Error(`no order form template ${input.templateId}`);
  const facts = await patientFacts(db, input.programId, input.patientId);
  if (!facts) throw new Error(`patient ${input.patientId} is not of program ${input.programId}`);
  const fields = template.fields.map(
    (f): SnapshotField => ({
      key: f.key,
      label: f.label,
      source: f.source,
      value:
        (f.source === 'patient' ? facts[f.key as keyof typeof facts] : null) ?? input.values?.[f.key] ?? null,
    }),
  );
  const id = await insertOrderForm(db, {
    programId: input.programId,
    patientId: input.patientId,
    template,
    fields,
    createdBy: input.createdBy,
  });
  for (const [i, s] of (input.sends ?? []).entries()) {
    await insertOrderFormSend(db, {
      formId: id,
      kind: i === 0 ? 'send' : 'resend',
      to: s.to,
      recipientName: s.recipientName ?? null,
      sentBy: s.by,
      linkExpiresAt: new Date((s.at ?? new Date()).getTime() + 7 * 86_400_000),
    });
    await markOrderFormSent(db, id, i === 0 ? 'sent' : 'resent');
  }
  return { id };
}
