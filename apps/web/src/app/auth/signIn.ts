import { authApi, userQueryKey } from '../../features/identity/calls';
import { STORAGE_KEYS, writeItem } from '../../shared/browser-storage';
import { queryClient } from '../queryClient';
import { session } from './session';

/** The user is fully signed in (after HIPAA consent): keep the token and record the login log. */
export async function completeSignIn(accessToken: string): Promise<void> {
  session.start(accessToken, 'signedIn');
  // A user read before consent (or by a previous session of this tab) must not be reused.
  queryClient.removeQueries({ queryKey: userQueryKey });
  try {
    const { id } = await authApi.loginLog();
    writeItem(STORAGE_KEYS.loginLogId, String(id));
  } catch (error) {
    console.error('The login log could not be recorded', error);
  }
}

/** Where to go after sign-in: the wanted path from `?to=` when it is a path of this site, else /patients. */
export function redirectTargetAfterSignIn(to: string | null): string {
  if (!to?.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return '/patients';
  if (to === '/login' || to.startsWith('/login?')) return '/patients';
  return to;
}

export function loginPath(wanted: string): string {
  return `/login?to=${encodeURIComponent(wanted)}`;
}
