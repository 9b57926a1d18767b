import { readItem, SESSION_STORAGE_KEYS, writeItem } from '../../shared/browser-storage';
import { createStore, useStore } from '../../shared/ui/createStore';

/** The controller area's own realm (01 §4): signedOut or signedIn, its token in this tab's session storage. */
export type ControllerStatus = 'signedOut' | 'signedIn';

export interface ControllerSessionState {
  status: ControllerStatus;
  token: string | null;
}

function initial(): ControllerSessionState {
  const token = readItem(SESSION_STORAGE_KEYS.controllerToken, sessionStorage);
  return token ? { status: 'signedIn', token } : { status: 'signedOut', token: null };
}

const store = createStore<ControllerSessionState>(initial());

export const controllerSession = {
  store,
  get: (): ControllerSessionState => store.get(),
  token: (): string | null => store.get().token,
  start(token: string): void {
    writeItem(SESSION_STORAGE_KEYS.controllerToken, token, sessionStorage);
    store.set({ status: 'signedIn', token });
  },
  end(): void {
    writeItem(SESSION_STORAGE_KEYS.controllerToken, null, sessionStorage);
    store.set({ status: 'signedOut', token: null });
  },
  /** Tests only: re-read session storage. */
  reload(): void {
    store.set(initial());
  },
};

export function useControllerSession(): ControllerSessionState {
  return useStore(store);
}
