import {
  EXTERNAL_ORDER_CSV_COLUMNS,
  EXTERNAL_ORDER_CSV_MAX_ROWS,
  hasForbiddenCharacters,
  isCalendarDay,
  EXTERNAL_ORDER_MESSAGES as M,
} from '@caredeck/contracts';
import { readSig } from './external-orders.sig';

/**
 * RFC 4180 records: commas between fields, fields in double quotes may hold commas, line breaks and
 * doubled quotes (""), lines end with CRLF or LF, a UTF-8 byte order mark is dropped. Each record keeps the
 * line it starts on, so errors name the row a spreadsheet shows.
 */
export function parseCsv(input: string): { records: { line: number; fields: string[] }[]; error?: string } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: start, fields });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      if (c === '\n') line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i++;
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      i++;
      continue;
    }
    if (c === '\r' && text[i + 1] === '\n') i++;
    if (c === '\n' || c === '\r') {
      endRecord();
      line++;
      start = line;
      i++;
      continue;
    }
    field += c;
    i++;
  }
  if (quoted) return { records, error: `A quoted field that starts on row ${start} is never closed.` };
  if (field !== '' || fields.length > 0) endRecord();
  return { records };
}

export type ImportRow = {
  row: number;
  order_number: string;
  pharmacy_patient_id: string;
  first_name: string;
  last_name: string;
  dob: string;
  phone: string | null;
  mrn: string | null;
  drug_name: string;
  ndc: string | null;
  strength: string | null;
  quantity: number;
  days_supply: number;
  sig: string;
  times_per_day: number;
  per_dose: number;
  times: string[];
  need_by_date: string;
  automation: boolean;
  prescriber: string | null;
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
};

/** A calendar day that exists: the contracts' one date parser. */
export const isRealDay = isCalendarDay;

const LIMITS: Record<string, number> = {
  order_number: 40,
  pharmacy_patient_id: 40,
  first_name: 80,
  last_name: 80,
  phone: 30,
  mrn: 40,
  drug_name: 120,
  strength: 60,
  sig: 500,
  prescriber: 120,
  carrier: 40,
  tracking_number: 60,
};

/**
 * Every row of the file checked, all errors collected (`rows.N.column` → messages, N the spreadsheet row:
 * the header is row 1). The caller stores the rows only when there is no error at all (ADR 045).
 */
export function readOrdersCsv(
  input: string,
  today: string,
): { rows: ImportRow[]; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    errors[key] = [...(errors[key] ?? []), message];
  };
  const { records, error } = parseCsv(input);
  if (error) return { rows: [], errors: { file: [error] } };
  const [header, ...data] = records;
  if (!header || data.length === 0) return { rows: [], errors: { file: [M.noRows] } };
  if (data.length > EXTERNAL_ORDER_CSV_MAX_ROWS) return { rows: [], errors: { file: [M.tooManyRows] } };
  const names = header.fields.map((h) => h.trim().toLowerCase());
  const missing = EXTERNAL_ORDER_CSV_COLUMNS.required.filter((c) => !names.includes(c));
  if (missing.length > 0) return { rows: [], errors: { file: [`The header lacks: ${missing.join(', ')}.`] } };

  const rows: ImportRow[] = [];
  const numbers = new Map<string, number>();
  const people = new Map<string, { row: number; key: string }>();
  for (const record of data) {
    const row = record.line;
    const raw: Record<string, string> = {};
    names.forEach((name, i) => {
      raw[name] = (record.fields[i] ?? '').trim();
    });
    if (record.fields.length !== names.length)
      add(`rows.${row}`, `The row has ${record.fields.length} fields; the header has ${names.length}.`);
    const value = (c: string): string | null => {
      const v = raw[c] ?? '';
      if (hasForbiddenCharacters(v, c === 'sig')) {
        add(`rows.${row}.${c}`, 'The text contains characters that are not allowed.');
        return null;
      }
      if (LIMITS[c] && v.length > LIMITS[c]) {
        add(`rows.${row}.${c}`, `At most ${LIMITS[c]} characters.`);
        return null;
      }
      return v === '' ? null : v;
    };
    const required = (c: string): string => {
      const v = value(c);
      if (v === null && !errors[`rows.${row}.${c}`]) add(`rows.${row}.${c}`, 'Required.');
      return v ?? '';
    };
    const whole = (c: string, min: number, max: number): number => {
      const v = required(c);
      if (!v) return 0;
      if (!/^\d{1,6}$/.test(v) || Number(v) < min || Number(v) > max) {
        add(`rows.${row}.${c}`, `Give a whole number from ${min} to ${max}.`);
        return 0;
      }
      return Number(v);
    };
    const day = (c: string, isRequired: boolean): string | null => {
      const v = isRequired ? required(c) : value(c);
      if (!v) return null;
      if (!isRealDay(v)) {
        add(`rows.${row}.${c}`, 'Use a date like 2026-12-01.');
        return null;
      }
      return v;
    };
    const orderNumber = required('order_number');
    const patientKey = required('pharmacy_patient_id');
    const first = required('first_name');
    const last = required('last_name');
    const dob = day('dob', true);
    if (dob && dob > today) add(`rows.${row}.dob`, 'The date of birth cannot be in the future.');
    const needBy = day('need_by_date', true);
    const quantity = whole('quantity', 1, 10000);
    const daysSupply = whole('days_supply', 1, 365);
    const sig = required('sig');
    const ndc = value('ndc');
    if (ndc && !/^(\d{11}|\d{4}-\d{4}-\d{2}|\d{5}-\d{3}-\d{2}|\d{5}-\d{4}-\d{1,2})$/.test(ndc))
      add(`rows.${row}.ndc`, 'Use an NDC like 00093-7214-01.');
    const automationText = (value('automation') ?? 'no').toLowerCase();
    if (!['y', 'yes', 'true', '1', 'n', 'no', 'false', '0'].includes(automationText))
      add(`rows.${row}.automation`, 'Use yes or no.');
    const tpdText = value('times_per_day');
    let timesPerDay: number | null = null;
    if (tpdText) {
      if (!/^[1-6]$/.test(tpdText)) add(`rows.${row}.times_per_day`, 'Give a whole number from 1 to 6.');
      else timesPerDay = Number(tpdText);
    }
    const reading = sig ? readSig(sig) : null;
    if (reading?.asNeeded)
      add(`rows.${row}.sig`, 'An as-needed sig has no schedule: dispense it outside the pod packaging.');
    else if (reading && reading.timesPerDay === null && timesPerDay === null)
      add(`rows.${row}.sig`, 'How often a day cannot be read from the sig: fill in times_per_day.');
    else if (reading?.timesPerDay && timesPerDay && reading.timesPerDay !== timesPerDay)
      add(
        `rows.${row}.times_per_day`,
        `The sig says ${reading.timesPerDay} times a day, times_per_day says ${timesPerDay}.`,
      );
    const shippedAt = day('shipped_at', false);
    const deliveredAt = day('delivered_at', false);
    const carrier = value('carrier');
    const tracking = value('tracking_number');
    if ((shippedAt || deliveredAt) && !tracking)
      add(`rows.${row}.tracking_number`, 'A shipped order needs its tracking number.');
    const phone = value('phone');
    const mrn = value('mrn');
    const strength = value('strength');
    const drug = required('drug_name');
    const prescriber = value('prescriber');

    if (orderNumber) {
      const seen = numbers.get(orderNumber.toLowerCase());
      if (seen) add(`rows.${row}.order_number`, `The same order number is on row ${seen}.`);
      else numbers.set(orderNumber.toLowerCase(), row);
    }
    if (patientKey && dob) {
      const identity = `${first.toLowerCase()}|${last.toLowerCase()}|${dob}`;
      const seen = people.get(patientKey);
      if (seen && seen.key !== identity)
        add(
          `rows.${row}.pharmacy_patient_id`,
          `This pharmacy patient id has another name or date of birth on row ${seen.row}.`,
        );
      else if (!seen) people.set(patientKey, { row, key: identity });
    }
    const tpd = timesPerDay ?? reading?.timesPerDay ?? 1;
    rows.push({
      row,
      order_number: orderNumber,
      pharmacy_patient_id: patientKey,
      first_name: first,
      last_name: last,
      dob: dob ?? '',
      phone,
      mrn,
      drug_name: drug,
      ndc,
      strength,
      quantity,
      days_supply: daysSupply,
      sig,
      times_per_day: tpd,
      per_dose: reading?.perDose ?? 1,
      times: reading?.bedtime && tpd === 1 ? ['21:00'] : defaultTimes(tpd),
      need_by_date: needBy ?? '',
      automation: ['y', 'yes', 'true', '1'].includes(automationText),
      prescriber,
      carrier,
      tracking_number: tracking,
      shipped_at: shippedAt,
      delivered_at: deliveredAt,
    });
  }
  return { rows, errors };
}

/** The usual medication pass times for a number of doses a day (ADR 045). */
export function defaultTimes(timesPerDay: number): string[] {
  switch (timesPerDay) {
    case 1:
      return ['08:00'];
    case 2:
      return ['08:00', '20:00'];
    case 3:
      return ['08:00', '14:00', '20:00'];
    case 4:
      return ['08:00', '12:00', '16:00', '20:00'];
    case 5:
      return ['07:00', '11:00', '15:00', '19:00', '23:00'];
    default:
      return ['02:00', '06:00', '10:00', '14:00', '18:00', '22:00'];
  }
}
