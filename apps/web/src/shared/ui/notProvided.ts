import { NOT_PROVIDED, orNotProvided } from '@caredeck/domain';
import { i18n } from '../i18n';

/** A read-only value, or 'Not Provided' (translated) when it is missing or blank (01 §5). */
export function valueOrNotProvided(value: string | number | null | undefined): string {
  const text = orNotProvided(value);
  return text === NOT_PROVIDED ? i18n.t('common.notProvided') : text;
}
