import {
  type DateInput,
  type DisplayDatePattern,
  displayDate,
  NOT_AVAILABLE,
  NOT_PROVIDED,
  orNotProvided,
  reorderUsDate,
  US_DATE_PATTERN,
} from '@caredeck/domain';
import { i18n } from '../i18n';

/** A read-only value, or 'Not Provided' (translated) when it is missing or blank (01 §5). */
export function valueOrNotProvided(value: string | number | null | undefined): string {
  const text = orNotProvided(value);
  return text === NOT_PROVIDED ? i18n.t('common.notProvided') : text;
}

/**
 * A read-only date (01 §5, §8, §9): 'Not Provided' when there is no value; otherwise the domain's display
 * format (MM/DD/YYYY by default, in `zone`) in the interface language's order (ADR 054: 12.04.2026 in German,
 * 12/04/2026 in French and Portuguese), where a value that is not a date shows 'N/A' (translated).
 */
export function dateOrNotProvided(
  value: DateInput | null | undefined,
  pattern: DisplayDatePattern = US_DATE_PATTERN,
  zone?: string | null,
): string {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    return i18n.t('common.notProvided');
  }
  const text = displayDate(value, pattern, zone);
  return text === NOT_AVAILABLE ? i18n.t('common.notAvailable') : reorderUsDate(text, i18n.language);
}

/**
 * A date a person reads to confirm identity (a date of birth): MM/DD/YYYY in English as the spec fixes it,
 * otherwise the language's own order with the month's name ('1 avr. 1954'), so 01/04 is never read as 4 January
 * in one language and 1 April in another (ADR 022). Calendar dates carry no zone.
 */
export function identityDate(value: string | null | undefined): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return i18n.t('common.notProvided');
  if (i18n.language === 'en') return dateOrNotProvided(value.slice(0, 10), US_DATE_PATTERN);
  // Connecting words go ('27 de dez. de 1985' reads '27 dez. 1985'), so the date fits the patient list's column.
  return new Intl.DateTimeFormat(i18n.language, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .formatToParts(new Date(`${value.slice(0, 10)}T00:00:00Z`))
    .map((part) => (part.type === 'literal' && /\p{L}/u.test(part.value) ? ' ' : part.value))
    .join('');
}
