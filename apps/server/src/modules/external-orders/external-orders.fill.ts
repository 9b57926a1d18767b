import type { ExternalOrder, FillFiles } from '@caredeck/contracts';

const DAY_MS = 86_400_000;
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * The pod layout of a patient's orders needed by one date (ADR 045): the automation orders are packed into
 * one pod per dose time and day, from the need-by date for the longest days' supply; each pod holds every
 * drug due at that time that day. Orders not filled by the automation line are listed apart.
 */
export function fillLayout(orders: ExternalOrder[]) {
  const packed = orders.filter((o) => o.automation && o.status !== 'cancelled');
  const times = [...new Set(packed.flatMap((o) => o.times))].sort();
  const days = packed.reduce((max, o) => Math.max(max, o.days_supply), 0);
  const slots = times.map((time, i) => ({
    slot: i + 1,
    time,
    items: packed
      .filter((o) => o.times.includes(time))
      .map((o) => ({
        order_id: o.id,
        order_number: o.order_number,
        drug_name: o.drug_name,
        strength: o.strength,
        ndc: o.ndc,
        count: o.per_dose,
      })),
  }));
  let pods = 0;
  for (let d = 0; d < days; d++)
    for (const time of times) if (packed.some((o) => o.times.includes(time) && d < o.days_supply)) pods++;
  const warnings = orders
    .filter((o) => o.quantity < o.days_supply * o.times_per_day * o.per_dose)
    .map((o) => ({
      order_id: o.id,
      message: `Quantity ${o.quantity} covers ${Math.floor(o.quantity / (o.times_per_day * o.per_dose))} of the ${o.days_supply} days' supply.`,
    }));
  const manual = orders
    .filter((o) => !o.automation && o.status !== 'cancelled')
    .map((o) => ({ order_id: o.id, order_number: o.order_number, drug_name: o.drug_name }));
  return { days, pods, slots, warnings, manual };
}

export type FillLayout = ReturnType<typeof fillLayout>;

/** A CSV field: quoted when it holds a comma, a quote or a line break; a leading =,+,-,@ is defused. */
function cell(value: string | number | null): string {
  let s = value === null ? '' : String(value);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * The packaging equipment file: one line per drug per pod (pod number, day, time), with the pod's barcode
 * for the dispenser. CRLF line ends (RFC 4180).
 */
export function equipmentCsv(input: {
  patient: { first_name: string; last_name: string; dob: string | null; pharmacy_patient_id: string };
  needByDate: string;
  orders: ExternalOrder[];
  barcodes: Map<number, string>;
}): { csv: string; rows: number } {
  const layout = fillLayout(input.orders);
  const lines = [
    [
      'pod_number',
      'fill_date',
      'dose_time',
      'pharmacy_patient_id',
      'patient_last_name',
      'patient_first_name',
      'patient_dob',
      'order_number',
      'drug_name',
      'strength',
      'ndc',
      'count',
      'barcode',
    ].join(','),
  ];
  let pod = 0;
  for (let d = 0; d < layout.days; d++) {
    for (const slot of layout.slots) {
      const due = slot.items.filter((item) => {
        const order = input.orders.find((o) => o.id === item.order_id)!;
        return d < order.days_supply;
      });
      if (due.length === 0) continue;
      pod++;
      for (const item of due)
        lines.push(
          [
            pod,
            addDays(input.needByDate, d),
            slot.time,
            input.patient.pharmacy_patient_id,
            input.patient.last_name,
            input.patient.first_name,
            input.patient.dob,
            item.order_number,
            item.drug_name,
            item.strength,
            item.ndc,
            item.count,
            input.barcodes.get(item.order_id) ?? null,
          ]
            .map(cell)
            .join(','),
        );
    }
  }
  return { csv: `${lines.join('\r\n')}\r\n`, rows: lines.length - 1 };
}

export function fillFilesOf(
  patient: FillFiles['patient'],
  needByDate: string,
  orders: ExternalOrder[],
  verifier: { at: string | null; by: { id: number; name: string } | null },
): FillFiles {
  const layout = fillLayout(orders);
  const verified = orders.length > 0 && orders.every((o) => o.fill_verified_at !== null);
  return {
    patient,
    need_by_date: needByDate,
    start_date: needByDate,
    end_date: addDays(needByDate, Math.max(1, layout.days) - 1),
    days: layout.days,
    pods: layout.pods,
    slots: layout.slots,
    manual: layout.manual,
    warnings: layout.warnings,
    orders,
    verified,
    verified_at: verified ? verifier.at : null,
    verified_by: verified ? verifier.by : null,
  };
}
