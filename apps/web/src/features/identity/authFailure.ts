import type { TFunction } from 'i18next';
import { isApiError } from '../../shared/api-client';
import { errorMessagesOf } from '../../shared/ui/toasts';

/**
 * Which kind of auth form failed: a password sign-in (staff or controller), a step that carries a sign-in
 * challenge (new password, MFA, HIPAA consent), or a form that sends an e-mailed code or an address.
 */
export type AuthFormKind = 'signIn' | 'challenge' | 'emailed';

/**
 * The messages shown at an auth form for a failed call, in the words of the form (issue 5 §7): the form asks
 * for an email, so a refused sign-in says "email", not the identity provider's "username"; a refused code
 * says so in the user's language. Messages the console cannot word better (a 422 on another field) pass through.
 */
export function authFailureMessages(error: unknown, kind: AuthFormKind, t: TFunction): string[] {
  if (!isApiError(error)) return errorMessagesOf(error);
  if (error.status === 401) {
    return [kind === 'signIn' ? t('auth.errors.invalidCredentials') : t('auth.errors.sessionExpired')];
  }
  if (error.status === 403 && kind === 'signIn') return [t('auth.errors.notConfirmed')];
  if (error.status === 422) {
    const { code, ...others } = error.fieldErrors;
    const messages = code?.length ? [t('auth.errors.invalidCode')] : [];
    for (const fieldMessages of Object.values(others)) {
      const first = fieldMessages[0];
      if (first) messages.push(first);
    }
    if (messages.length > 0) return messages;
  }
  return errorMessagesOf(error);
}
