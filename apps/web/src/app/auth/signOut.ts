import { authApi } from '../../features/identity/calls';
import { scopeStore } from '../../features/tenancy/scope';
import { browserNavigation } from '../../shared/browser';
import {
  clearSignedOutData,
  readItem,
  SESSION_STORAGE_KEYS,
  STORAGE_KEYS,
  writeItem,
} from '../../shared/browser-storage';
import { session } from './session';

let running: Promise<void> | null = null;

async function run(): Promise<void> {
  const loginLogId = readItem(STORAGE_KEYS.loginLogId);
  if (loginLogId && session.token()) {
    try {
      await authApi.logoutLog(loginLogId);
    } catch (error) {
      // Typically the session already expired on the server, which records that itself.
      console.warn('The logout log could not be recorded', error);
    }
  }
  let signedOut = true;
  try {
    await authApi.signOut();
  } catch (error) {
    signedOut = false;
    console.error('Sign-out failed; the local session is cleared anyway', error);
  }
  clearSignedOutData({ keepMedRecAccess: !signedOut });
  // The refresh cookie may have survived a failed sign-out: do not silently sign back in on reload.
  if (!signedOut) writeItem(SESSION_STORAGE_KEYS.signedOut, '1', sessionStorage);
  session.end('signOut');
  scopeStore.set(null);
  // The reload wipes every cached answer; clearing the cache here would make the mounted pages refetch.
  browserNavigation.reloadAt('/login');
}

/**
 * Ends the session (01 §4): logout log, sign-out at the server, the browser-held data cleared (all but the
 * "last …" context keys), then the application reloads at /login. Concurrent calls share one run.
 */
export function signOut(): Promise<void> {
  if (!running) {
    running = run().finally(() => {
      running = null;
    });
  }
  return running;
}
