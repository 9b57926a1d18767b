import type { Dayjs } from 'dayjs';
import { isCalendarDate } from './calendar';
import { dayjs } from './dayjs';

/** What the display helpers accept: ISO-8601 text from the API, epoch milliseconds or a Date. */
export type DateInput = string | number | Date | null | undefined;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an ISO-8601 date-time into epoch milliseconds. Only ISO text is accepted (the API's format), so a
 * stray string never turns into a date by the engine's guesswork, and impossible dates are rejected
 * instead of rolled over. A date-time without an offset is read as UTC, as the API sends UTC.
 */
function parseIsoDateTime(text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '0', offset = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (offset.toUpperCase() !== 'Z') {
    const digits = offset.replace(':', '');
    const offsetHours = Number(digits.slice(1, 3));
    const offsetMins = Number(digits.slice(3, 5));
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (offsetHours * 60 + offsetMins) * (digits.startsWith('-') ? -1 : 1);
  }
  const utc = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  return utc.getTime() - offsetMinutes * 60_000;
}

/**
 * The value as a moment in `zone`, or null when it is empty or not a valid date. A date-only string
 * ('2026-11-21', e.g. a birth date) is a calendar day, not an instant: it is placed at midnight in the
 * zone so that it never shows as the previous day west of UTC.
 */
export function toZonedMoment(value: DateInput, zone: string): Dayjs | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : dayjs(value.getTime()).tz(zone);
  if (typeof value === 'number') return Number.isFinite(value) ? dayjs(value).tz(zone) : null;
  const text = value.trim();
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [, y, m, d] = dateOnly;
    return isCalendarDate(Number(y), Number(m), Number(d)) ? dayjs.tz(text, zone) : null;
  }
  const epochMs = parseIsoDateTime(text);
  return epochMs === null ? null : dayjs(epochMs).tz(zone);
}
