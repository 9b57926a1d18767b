import { type ActiveUser, AUTH_REFRESH_ROUTE } from '@caredeck/contracts';
import { api, configureApiClient } from '../../shared/api-client';
import { readItem, SESSION_STORAGE_KEYS, STORAGE_KEYS, writeItem } from '../../shared/browser-storage';
import { createStore, useStore } from '../../shared/ui/createStore';
import { controllerSession } from './controllerSession';

/**
 * The staff session. `unknown` until the start-up refresh has answered; `hipaa` while the signed-in user has
 * not yet consented (their token can only read the user and give consent).
 */
export type SessionStatus = 'unknown' | 'signedOut' | 'hipaa' | 'signedIn';

/** Why the session ended: the user signed out, or it could not be renewed (then the wanted page is kept). */
export type SessionEndReason = 'signOut' | 'expired';

export interface SessionState {
  status: SessionStatus;
  /** Kept in memory only; the refresh token is an httpOnly cookie the script never sees. */
  accessToken: string | null;
  endReason?: SessionEndReason;
}

/**
 * The identity routes' contracts (sign-in steps, the user, the session's own calls), with zod: loaded by the
 * first call that needs them, so the sign-in page shows without them (ADR 048).
 */
export const loadIdentityContracts = () => import('./identityContracts');

const store = createStore<SessionState>({ status: 'unknown', accessToken: null });
/** When the server last saw this session: its idle clock (the client's runs on user activity). */
let lastServerContactAt = 0;
let bootstrap: Promise<void> | null = null;
let refreshing: Promise<boolean> | null = null;
/** The user the start-up refresh answered with, until the first route guard takes it. */
let startUser: ActiveUser | undefined;

async function renew(withUser = false): Promise<boolean> {
  try {
    // Sent at once; its answer is read when the contract is there (a refused refresh never waits for it).
    const result = await api.callBeforeContract(
      AUTH_REFRESH_ROUTE,
      async () => (await loadIdentityContracts()).authContract.refresh,
      { query: withUser ? { include: 'user' } : {} },
      { auth: 'none' },
    );
    // 204: no session on this browser (a first visit): signed out, as a refused refresh is.
    if (!result) throw 0;
    if (withUser) startUser = result.user;
    lastServerContactAt = Date.now();
    store.set((current) => ({
      status: current.status === 'hipaa' ? 'hipaa' : 'signedIn',
      accessToken: result.access_token,
    }));
    return true;
  } catch {
    store.set({ status: 'signedOut', accessToken: null, endReason: 'expired' });
    return false;
  }
}

export const session = {
  store,
  get: (): SessionState => store.get(),
  token: (): string | null => store.get().accessToken,

  /** Resolves once the session is known: on page load, the refresh cookie is exchanged for an access token. */
  ready(): Promise<void> {
    if (store.get().status !== 'unknown') return Promise.resolve();
    if (!bootstrap) {
      bootstrap = (async () => {
        if (readItem(SESSION_STORAGE_KEYS.signedOut, sessionStorage) === '1') {
          store.set({ status: 'signedOut', accessToken: null });
          return;
        }
        // The start-up refresh brings the user along: the first page's guard needs no second round trip.
        if (!refreshing) {
          refreshing = renew(true).finally(() => {
            refreshing = null;
          });
        }
        await refreshing;
      })();
    }
    return bootstrap;
  },

  /** One refresh at a time, shared by every caller that hit a 401. */
  refresh(): Promise<boolean> {
    if (!refreshing) {
      refreshing = renew().finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  },

  lastServerContactAt: (): number => lastServerContactAt,

  /** The user that came with the start-up refresh, once (the route guards put it in the query cache). */
  takeStartUser(): ActiveUser | undefined {
    const user = startUser;
    startUser = undefined;
    return user;
  },

  start(accessToken: string, status: 'signedIn' | 'hipaa'): void {
    lastServerContactAt = Date.now();
    writeItem(SESSION_STORAGE_KEYS.signedOut, null, sessionStorage);
    // A new sign-in: the login log of an earlier session that expired without a sign-out is not this one's.
    writeItem(STORAGE_KEYS.loginLogId, null);
    store.set({ status, accessToken });
  },

  /** The user turned out not to have given HIPAA consent yet. */
  requireConsent(): void {
    store.set((current) => (current.accessToken ? { ...current, status: 'hipaa' } : current));
  },

  end(reason: SessionEndReason = 'expired'): void {
    if (store.get().status === 'signedOut' && store.get().endReason === reason) return;
    store.set({ status: 'signedOut', accessToken: null, endReason: reason });
  },

  /** Tests only: back to the state of a fresh page load. */
  reset(): void {
    bootstrap = null;
    refreshing = null;
    startUser = undefined;
    lastServerContactAt = 0;
    store.set({ status: 'unknown', accessToken: null });
  },
};

export function useSession(): SessionState {
  return useStore(store);
}

configureApiClient({
  getStaffToken: session.token,
  refreshStaffToken: session.refresh,
  onStaffUnauthorized: () => session.end('expired'),
  onStaffActivity: () => {
    lastServerContactAt = Date.now();
  },
  getControllerToken: controllerSession.token,
  onControllerUnauthorized: controllerSession.end,
});
