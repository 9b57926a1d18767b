import { isCalendarDate, toIsoDate } from './calendar';

/** The typed date formats a date input accepts (01 §5); day and month may also be typed with one digit. */
export const DATE_INPUT_FORMATS = [
  'DD-MM-YYYY',
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'YYYY-MM-DD',
  'DD/MM/YY',
] as const;

/** A two-digit year lands in the 100 years from `referenceYear - 80` to `referenceYear + 19`. */
export const TWO_DIGIT_YEAR_YEARS_BACK = 80;

export type DateInputError =
  /** Nothing typed (only whitespace). */
  | 'empty'
  /** Not one of the accepted formats. */
  | 'format'
  /** The right shape but no such day, e.g. 31-02-2026. */
  | 'impossible'
  | 'beforeMin'
  | 'afterMax';

export type DateInputResult =
  | { ok: true /** ISO 'YYYY-MM-DD' */; date: string }
  | { ok: false; reason: DateInputError };

export interface DateInputOptions {
  /** Earliest allowed day, ISO 'YYYY-MM-DD', inclusive. */
  min?: string;
  /** Latest allowed day, ISO 'YYYY-MM-DD', inclusive. */
  max?: string;
  /** Anchor of the two-digit-year window; defaults to the current year (UTC). */
  referenceYear?: number;
}

const DAY_FIRST = /^(\d{1,2})([-./])(\d{1,2})\2(\d{4})$/;
const YEAR_FIRST = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DAY_FIRST_SHORT_YEAR = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The full year for a two-digit year: the one year ending in `twoDigits` within the window. */
export function expandTwoDigitYear(twoDigits: number, referenceYear: number): number {
  const windowStart = referenceYear - TWO_DIGIT_YEAR_YEARS_BACK;
  return windowStart + ((((twoDigits - windowStart) % 100) + 100) % 100);
}

function assertIsoDate(name: string, value: string): void {
  const match = ISO_DATE.exec(value);
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw new RangeError(`parseDateInput: ${name} must be an ISO date YYYY-MM-DD, got '${value}'`);
  }
}

function readParts(text: string, referenceYear: number): [number, number, number] | null {
  const dayFirst = DAY_FIRST.exec(text);
  if (dayFirst) return [Number(dayFirst[4]), Number(dayFirst[3]), Number(dayFirst[1])];
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst) return [Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3])];
  const shortYear = DAY_FIRST_SHORT_YEAR.exec(text);
  if (shortYear) {
    return [
      expandTwoDigitYear(Number(shortYear[3]), referenceYear),
      Number(shortYear[2]),
      Number(shortYear[1]),
    ];
  }
  return null;
}

/**
 * Reads a typed date in one of DATE_INPUT_FORMATS (surrounding whitespace ignored) into ISO 'YYYY-MM-DD',
 * rejecting impossible days rather than rolling them over, then checks the optional inclusive bounds.
 * Throws RangeError when `min` or `max` is not an ISO date (a programming error, not a user one).
 */
export function parseDateInput(text: string, options: DateInputOptions = {}): DateInputResult {
  const { min, max, referenceYear = new Date().getUTCFullYear() } = options;
  if (min !== undefined) assertIsoDate('min', min);
  if (max !== undefined) assertIsoDate('max', max);
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty' };
  const parts = readParts(trimmed, referenceYear);
  if (!parts) return { ok: false, reason: 'format' };
  const [year, month, day] = parts;
  if (!isCalendarDate(year, month, day)) return { ok: false, reason: 'impossible' };
  // Four-digit, zero-padded ISO dates compare correctly as strings.
  const date = toIsoDate(year, month, day);
  if (min !== undefined && date < min) return { ok: false, reason: 'beforeMin' };
  if (max !== undefined && date > max) return { ok: false, reason: 'afterMax' };
  return { ok: true, date };
}
