import { useEffect, useSyncExternalStore } from 'react';

// The loading behind deferredControl and deferredDialog (deferred.tsx).

/** Loads a component's code (a dynamic import). */
export type Loader<C> = () => Promise<C>;

/** Code that loads on demand, once, shared by every place that draws it. */
export interface Deferred<C> {
  preload: Loader<void>;
  subscribe: (listener: () => void) => () => void;
  current: () => C | null;
}

/** The loads under way (tests wait for them: `settleDeferred`). */
const pending = new Set<Promise<void>>();

/**
 * Tests only: resolves once every deferred control and dialog asked for so far has loaded (or failed), so a test
 * acts on the real control rather than on a placeholder about to be swapped.
 */
export async function settleDeferred(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

export function loadOnce<C>(load: Loader<C>, what: string): Deferred<C> {
  let loaded: C | null = null;
  let loading: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  return {
    preload: () => {
      if (loading) return loading;
      const started: Promise<void> = load().then(
        (component) => {
          loaded = component;
          for (const listener of listeners) listener();
        },
        (error: unknown) => {
          // Tried again the next time it is wanted.
          loading = null;
          console.error(`${what} could not be loaded`, error);
        },
      );
      loading = started;
      pending.add(started);
      void started.finally(() => pending.delete(started));
      return started;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    current: () => loaded,
  };
}

/** The component once its code is there (null before), its loading started after the first render. */
export function useDeferred<C>(code: Deferred<C>): C | null {
  useEffect(() => {
    void code.preload();
  }, [code]);
  return useSyncExternalStore(code.subscribe, code.current);
}
