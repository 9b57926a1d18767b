import type { ActiveUser, StaffRole } from '@caredeck/contracts';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { rememberUser, userQuery } from '../features/identity/calls';
import { ensureScope } from '../features/tenancy/scope';
import { i18n } from '../shared/i18n';
import { toast } from '../shared/ui/toasts';
import { controllerSession } from './auth/controllerSession';
import { hasAnyRole } from './auth/roles';
import { session } from './auth/session';
import { loginPath, redirectTargetAfterSignIn } from './auth/signIn';
import { handleUserFetchFailure } from './auth/userFailure';
import { queryClient } from './queryClient';

export const NOT_AUTHORIZED_PATH = '/error/not-authorized';
export const CONTROLLER_LOGIN_PATH = '/controller/login';
export const GUEST_MESSENGER_PARAMS = ['sender', 'receiver', 'conversation'] as const;

function wantedPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** The user of the start-up refresh, if it brought one, goes to the cache before the guards read it. */
function takeStartUser(): void {
  const user = session.takeStartUser();
  if (user) rememberUser(queryClient, user);
}

/**
 * A staff page (01 §2): signed in (else /login?to=<wanted>), the user readable (else the failure rules),
 * HIPAA consent given (else back to the consent step), and one of the route's roles if it names any
 * (else /error/not-authorized).
 */
export async function requireStaff(request: Request, roles?: readonly StaffRole[]): Promise<ActiveUser> {
  await session.ready();
  const wanted = wantedPath(request);
  if (session.get().status !== 'signedIn') throw redirect(loginPath(wanted));
  takeStartUser();
  let user: ActiveUser;
  try {
    user = await queryClient.ensureQueryData(userQuery);
  } catch (error) {
    await handleUserFetchFailure(error);
    throw redirect(session.get().endReason === 'expired' ? loginPath(wanted) : '/login');
  }
  if (!user.hipaa_consented_at) {
    session.requireConsent();
    throw redirect(loginPath(wanted));
  }
  const scope = ensureScope(user);
  if (roles && roles.length > 0 && !hasAnyRole(user, roles, scope)) throw redirect(NOT_AUTHORIZED_PATH);
  return user;
}

/** /login with a session already open: 'You are already logged in!' and away (01 §5). */
export async function redirectSignedInFromLogin({ request }: LoaderFunctionArgs): Promise<null> {
  await session.ready();
  if (session.get().status !== 'signedIn') return null;
  takeStartUser();
  try {
    const user = await queryClient.ensureQueryData(userQuery);
    if (!user.hipaa_consented_at) {
      session.requireConsent();
      return null;
    }
  } catch {
    // The session is not usable after all: let the visitor sign in again.
    return null;
  }
  toast.warning(i18n.t('auth.alreadyLoggedIn'));
  throw redirect(redirectTargetAfterSignIn(new URL(request.url).searchParams.get('to')));
}

/** The controller realm: only a controller session opens it; a staff session does not. */
export function requireController({ request }: LoaderFunctionArgs): null {
  if (controllerSession.get().status !== 'signedIn') {
    throw redirect(`${CONTROLLER_LOGIN_PATH}?to=${encodeURIComponent(wantedPath(request))}`);
  }
  return null;
}

export function redirectSignedInController(): null {
  if (controllerSession.get().status === 'signedIn') throw redirect('/controller');
  return null;
}

/** /guest/messenger needs sender, receiver and conversation ids (01 §2): without them → not-authorized. */
export function guestMessengerEntry({ request }: LoaderFunctionArgs): null {
  const params = new URL(request.url).searchParams;
  if (!GUEST_MESSENGER_PARAMS.every((name) => (params.get(name) ?? '').trim() !== '')) {
    throw redirect(NOT_AUTHORIZED_PATH);
  }
  return null;
}
