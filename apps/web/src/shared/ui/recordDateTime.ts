import { resolveDisplayZone, US_DATE_TIME_PATTERN } from '@caredeck/domain';
import { i18n } from '../i18n';
import { dateOrNotProvided } from './notProvided';

// Apart from notProvided.ts: only the record's pages use it, so the first screens do not load it (ADR 048).

/**
 * A moment read in a clinical record (a dose taken, an order placed), on `zone`'s clock: MM/DD/YYYY hh:mm A in
 * English as the spec fixes it, otherwise the language's own order with the month's name and a 24-hour time
 * ('5. Nov. 2026, 08:05'), so 11/05 is never read as 11 May (the rule of `identityDate`, ADR 022).
 */
export function recordDateTime(value: string | null | undefined, zone?: string | null): string {
  if (!value || Number.isNaN(Date.parse(value))) return dateOrNotProvided(value, US_DATE_TIME_PATTERN, zone);
  if (i18n.language === 'en') return dateOrNotProvided(value, US_DATE_TIME_PATTERN, zone);
  return new Intl.DateTimeFormat(i18n.language, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: resolveDisplayZone(zone),
  }).format(new Date(value));
}
