import {
  type DateInput,
  type DisplayDatePattern,
  displayDate,
  NOT_AVAILABLE,
  NOT_PROVIDED,
  orNotProvided,
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
 * format (MM/DD/YYYY by default, in `zone`), where a value that is not a date shows 'N/A' (translated).
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
  return text === NOT_AVAILABLE ? i18n.t('common.notAvailable') : text;
}
