import { CALENDAR_DATE, DATA_VIEW_MESSAGES, MAX_VIEW_DAYS } from '@caredeck/contracts';
import { type LocalDate, localDateOf, zonedInstant } from '@caredeck/domain';
import { AppError } from '../../platform/http/errors';

/** Calendar ranges of the data views: dates of the patient's (or program's) calendar, checked as input. */
export const DAY = 24 * 3600_000;

export type DateRange = { start: LocalDate; end: LocalDate; from: number; to: number; zone: string };

export function parseDate(value: string, field: string): LocalDate {
  const m = CALENDAR_DATE.exec(value);
  const date = m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : null;
  const t = date ? new Date(Date.UTC(date.year, date.month - 1, date.day)) : null;
  if (!date || !t || t.getUTCMonth() !== date.month - 1 || t.getUTCDate() !== date.day || date.year < 1900)
    throw AppError.validation({ [field]: [DATA_VIEW_MESSAGES.invalidDate] });
  return date;
}

export function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) + n * DAY);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export const iso = (d: LocalDate) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** A date range of the patient's calendar as instants [from, to): start 00:00 to the day after end. */
export function rangeOf(
  zone: string,
  start: string | LocalDate,
  end: string | LocalDate | null,
  now: number,
): DateRange {
  const s = typeof start === 'string' ? parseDate(start, 'start') : start;
  const e = end === null ? localDateOf(now, zone) : typeof end === 'string' ? parseDate(end, 'end') : end;
  const days =
    Math.round((Date.UTC(e.year, e.month - 1, e.day) - Date.UTC(s.year, s.month - 1, s.day)) / DAY) + 1;
  if (days < 1) throw AppError.validation({ end: [DATA_VIEW_MESSAGES.endBeforeStart] });
  if (days > MAX_VIEW_DAYS) throw AppError.validation({ end: [DATA_VIEW_MESSAGES.rangeTooLong] });
  return { start: s, end: e, from: zonedInstant(s, 0, zone), to: zonedInstant(addDays(e, 1), 0, zone), zone };
}

export function lastDays(zone: string, now: number, days: number): DateRange {
  const today = localDateOf(now, zone);
  return rangeOf(zone, addDays(today, -(days - 1)), today, now);
}
