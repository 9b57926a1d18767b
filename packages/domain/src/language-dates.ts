import { isCalendarDate, toIsoDate } from './calendar';
import type { DateInputOptions, DateInputResult } from './date-input';

/**
 * One date format per interface language (ADR 054), for what the console shows and for what a person types:
 * English MM/DD/YYYY (spec 01 §9, the US product), German DD.MM.YYYY, French and Portuguese DD/MM/YYYY. A typed
 * date is read in its language's format only (or as ISO YYYY-MM-DD, which no one reads the other way round);
 * anything else is refused rather than guessed, so 12/04/2026 is 4 December in English and 12 April in French,
 * never one of them by accident.
 */
export const DATE_LANGUAGES = ['en', 'de', 'fr', 'pt'] as const;
export type DateLanguage = (typeof DATE_LANGUAGES)[number];

interface LanguageDateFormat {
  /** As shown in placeholders and messages (English letters; the console translates them). */
  pattern: 'MM/DD/YYYY' | 'DD.MM.YYYY' | 'DD/MM/YYYY';
  order: 'month-first' | 'day-first';
  separator: '/' | '.';
}

export const LANGUAGE_DATE_FORMATS: Record<DateLanguage, LanguageDateFormat> = {
  en: { pattern: 'MM/DD/YYYY', order: 'month-first', separator: '/' },
  de: { pattern: 'DD.MM.YYYY', order: 'day-first', separator: '.' },
  fr: { pattern: 'DD/MM/YYYY', order: 'day-first', separator: '/' },
  pt: { pattern: 'DD/MM/YYYY', order: 'day-first', separator: '/' },
};

/** The language's format; an unknown language (a stale setting) gets English, the default language. */
export function languageDateFormat(language: string | null | undefined): LanguageDateFormat {
  return LANGUAGE_DATE_FORMATS[
    (DATE_LANGUAGES as readonly string[]).includes(language ?? '') ? (language as DateLanguage) : 'en'
  ];
}

const ISO_DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const ISO_STRICT = /^(\d{4})-(\d{2})-(\d{2})$/;

function assertIsoDate(name: string, value: string): void {
  const match = ISO_STRICT.exec(value);
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw new RangeError(`parseLanguageDate: ${name} must be an ISO date YYYY-MM-DD, got '${value}'`);
  }
}

function readParts(text: string, format: LanguageDateFormat): [number, number, number] | null {
  const iso = ISO_DAY.exec(text);
  if (iso) return [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  const sep = format.separator === '.' ? '\\.' : '/';
  const match = new RegExp(`^(\\d{1,2})${sep}(\\d{1,2})${sep}(\\d{4})$`).exec(text);
  if (!match) return null;
  const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return format.order === 'month-first' ? [year, first, second] : [year, second, first];
}

/**
 * Reads a typed date in the language's one format (day and month may have one digit, the year has four) or as
 * ISO YYYY-MM-DD. Another separator, a two-digit year or any other shape is 'format' (the field then names the
 * expected format); a day that does not exist is 'impossible', never rolled over. Bounds as `parseDateInput`.
 */
export function parseLanguageDate(
  text: string,
  language: string | null | undefined,
  options: Omit<DateInputOptions, 'referenceYear'> = {},
): DateInputResult {
  const { min, max } = options;
  if (min !== undefined) assertIsoDate('min', min);
  if (max !== undefined) assertIsoDate('max', max);
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty' };
  const parts = readParts(trimmed, languageDateFormat(language));
  if (!parts) return { ok: false, reason: 'format' };
  const [year, month, day] = parts;
  if (!isCalendarDate(year, month, day)) return { ok: false, reason: 'impossible' };
  const date = toIsoDate(year, month, day);
  if (min !== undefined && date < min) return { ok: false, reason: 'beforeMin' };
  if (max !== undefined && date > max) return { ok: false, reason: 'afterMax' };
  return { ok: true, date };
}

/** An ISO day ('2026-04-12') in the language's format ('04/12/2026', '12.04.2026'); other text unchanged. */
export function formatLanguageDate(isoDate: string, language: string | null | undefined): string {
  const match = ISO_STRICT.exec(isoDate.slice(0, 10));
  if (!match) return isoDate;
  const [, year, month, day] = match;
  const format = languageDateFormat(language);
  const s = format.separator;
  return format.order === 'month-first' ? `${month}${s}${day}${s}${year}` : `${day}${s}${month}${s}${year}`;
}
