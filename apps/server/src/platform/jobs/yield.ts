import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Cooperative slices for background work that runs on an API process's event loop (the alert sweep, the
 * adherence rollup): `await slice()` between items gives the loop back once `budgetMs` of work has run, so a
 * request arriving meanwhile waits a few milliseconds, not the whole job (issue 27 §3, ADR 068).
 */
export function timeSlicer(budgetMs = 5): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < budgetMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
