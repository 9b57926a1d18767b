import type { ExternalOrderStatus } from '@caredeck/contracts';
import type { Queryable } from '../../platform/db/client';
import { type ImportRow, readOrdersCsv } from './external-orders.csv';
import {
  insertHistory,
  insertOrders,
  linkExactMatches,
  markShipment,
  ordersByNumbers,
  recordShipment,
  upsertExternalPatients,
} from './external-orders.queries';

const DONE: readonly ExternalOrderStatus[] = ['finalized', 'shipped', 'delivered'];

/**
 * Stores checked rows inside the caller's transaction (ADR 045): an order number already stored is a
 * duplicate left as it is, unless the row brings the shipment of a finalized order; new pharmacy patients are
 * created and linked when exactly one patient of the program matches; each new order gets its first history row.
 */
export async function storeImport(
  tx: Queryable,
  input: { programId: number; adminId: number | null; rows: ImportRow[]; fileName: string },
) {
  const { programId, adminId, rows } = input;
  const existing = await ordersByNumbers(
    tx,
    programId,
    rows.map((r) => r.order_number),
  );
  const known = new Map(existing.map((e) => [e.order_number.toLowerCase(), e]));
  const fresh = rows.filter((r) => !known.has(r.order_number.toLowerCase()));
  let updated = 0;
  for (const r of rows) {
    const order = known.get(r.order_number.toLowerCase());
    if (!order || !r.tracking_number || !(r.shipped_at || r.delivered_at)) continue;
    const to: ExternalOrderStatus = r.delivered_at ? 'delivered' : 'shipped';
    if (!DONE.includes(order.status) || order.status === to || order.status === 'delivered') continue;
    await recordShipment(tx, order.id, {
      carrier: r.carrier,
      tracking_number: r.tracking_number,
      shipped_at: r.shipped_at,
      delivered_at: r.delivered_at,
    });
    await markShipment(tx, {
      programId,
      ids: [order.id],
      adminId,
      to,
      note: [r.carrier, r.tracking_number].filter(Boolean).join(' '),
    });
    updated++;
  }
  const people = new Map(fresh.map((r) => [r.pharmacy_patient_id, r]));
  const linked =
    people.size > 0 ? await upsertExternalPatients(tx, programId, [...people.values()]) : new Map();
  const unlinked = [...linked.values()].filter((p) => p.patient_id === null).map((p) => p.id);
  const links = unlinked.length > 0 ? await linkExactMatches(tx, programId, unlinked) : [];
  const linkedNow = new Set(links.map((l) => l.id));
  const inserted =
    fresh.length > 0
      ? await insertOrders(
          tx,
          programId,
          fresh.map((r) => {
            const p = linked.get(r.pharmacy_patient_id)!;
            const isLinked = p.patient_id !== null || linkedNow.has(p.id);
            return { ...r, external_patient_id: p.id, status: isLinked ? 'matched' : 'received' };
          }),
        )
      : [];
  await insertHistory(
    tx,
    programId,
    adminId,
    inserted.map((o) => ({
      orderId: o.id,
      from: null,
      to: o.status,
      note: `Imported from ${input.fileName}`,
    })),
  );
  return {
    imported: inserted.length,
    duplicates: rows.length - fresh.length,
    updated,
    matched: inserted.filter((o) => o.status === 'matched').length,
    unmatched_patients: unlinked.filter((id) => !linkedNow.has(id)).length,
  };
}

/** Test, seed and bench data: a CSV export imported into a program as the import call would (`given.externalOrders`). */
export async function importExternalOrders(
  db: Queryable,
  input: { programId: number; csv: string; adminId?: number | null; fileName?: string },
) {
  const { rows, errors } = readOrdersCsv(input.csv, new Date().toISOString().slice(0, 10));
  if (Object.keys(errors).length > 0) throw new Error(`bad external orders CSV: ${JSON.stringify(errors)}`);
  return storeImport(db, {
    programId: input.programId,
    adminId: input.adminId ?? null,
    rows,
    fileName: input.fileName ?? 'orders.csv',
  });
}
