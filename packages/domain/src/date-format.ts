import { INVALID_DATE, NOT_AVAILABLE } from './display-text';
import { type DateInput, toZonedMoment } from './instant';
import { resolveDisplayZone } from './time-zones';

// The display patterns of spec 01 §9, named as the spec writes them. They are labels, not dayjs format
// strings: `yyyy-MM-dd hh:mm a` uses date-fns letters, and `(z)` stands for the zone abbreviation.
export const US_DATE_PATTERN = 'MM/DD/YYYY';
export const US_SHORT_YEAR_DATE_PATTERN = 'MM/DD/YY';
export const MONTH_DAY_PATTERN = 'MM/DD';
export const US_DATE_TIME_PATTERN = 'MM/DD/YYYY hh:mm A';
export const ISO_STYLE_DATE_TIME_PATTERN = 'yyyy-MM-dd hh:mm a';
/** Date, time with seconds and the zone's abbreviation: '11/21/2026 02:05:33 PM (EST)'. */
export const US_DATE_TIME_SECONDS_ZONE_PATTERN = 'MM/DD/YYYY hh:mm:ss A (z)';

export const DISPLAY_DATE_PATTERNS = [
  US_DATE_PATTERN,
  US_SHORT_YEAR_DATE_PATTERN,
  MONTH_DAY_PATTERN,
  US_DATE_TIME_PATTERN,
  ISO_STYLE_DATE_TIME_PATTERN,
  US_DATE_TIME_SECONDS_ZONE_PATTERN,
] as const;

export type DisplayDatePattern = (typeof DISPLAY_DATE_PATTERNS)[number];

const DAYJS_FORMAT: Record<DisplayDatePattern, string> = {
  [US_DATE_PATTERN]: 'MM/DD/YYYY',
  [US_SHORT_YEAR_DATE_PATTERN]: 'MM/DD/YY',
  [MONTH_DAY_PATTERN]: 'MM/DD',
  [US_DATE_TIME_PATTERN]: 'MM/DD/YYYY hh:mm A',
  [ISO_STYLE_DATE_TIME_PATTERN]: 'YYYY-MM-DD hh:mm a',
  [US_DATE_TIME_SECONDS_ZONE_PATTERN]: 'MM/DD/YYYY hh:mm:ss A',
};

/**
 * Formats a date for display in `zone` (default America/New_York; an invalid zone also falls back to it).
 * Empty or invalid values give 'Invalid Date'; strings starting with '*' are returned unchanged (spec 01 §8:
 * such values are already display text).
 */
export function formatDate(value: DateInput, pattern: DisplayDatePattern, zone?: string | null): string {
  if (typeof value === 'string' && value.startsWith('*')) return value;
  const moment = toZonedMoment(value, resolveDisplayZone(zone));
  if (!moment) return INVALID_DATE;
  const text = moment.format(DAYJS_FORMAT[pattern]);
  if (pattern !== US_DATE_TIME_SECONDS_ZONE_PATTERN) return text;
  // Intl's short name: EST/EDT for the US zones, 'GMT+1' style where English has no abbreviation.
  return `${text} (${moment.offsetName('short') ?? `UTC${moment.format('Z')}`})`;
}

/** `formatDate` for the screens: 'Invalid Date' shows as 'N/A'. Default pattern MM/DD/YYYY. */
export function displayDate(
  value: DateInput,
  pattern: DisplayDatePattern = US_DATE_PATTERN,
  zone?: string | null,
): string {
  const text = formatDate(value, pattern, zone);
  return text === INVALID_DATE ? NOT_AVAILABLE : text;
}
