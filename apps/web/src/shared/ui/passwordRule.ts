import { newPassword, PASSWORD_MIN_LENGTH } from '@caredeck/contracts';
import { i18n } from '../i18n';
import type { Rule } from './validators';

/**
 * The server's own strength rule (contracts), with a translated message. Apart from the other rules: it brings
 * zod, which the sign-in form does without (ADR 048).
 */
export const strongPassword: Rule<unknown> = (value) =>
  value === '' || newPassword.safeParse(value).success
    ? null
    : i18n.t('validation.passwordWeak', { min: PASSWORD_MIN_LENGTH });
