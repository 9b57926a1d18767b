import { afterAll } from 'vitest';

// The server tests share their workers' module cache (isolate: false in vitest.config.ts), so what a test file
// opens (its cloned database, its pools, its app) must be closed when the file ends, not when the process does.
// The harness registers those clean-ups here while a file's `beforeAll` runs, where a hook of its own would not
// attach to the file; this setup file runs before every file and closes them, last opened first.
// Held on globalThis: vitest evaluates a setup file again for every file, and the cached harness must reach the
// list the current evaluation's hook drains.
const holder = globalThis as { caredeckTestCleanups?: (() => Promise<unknown>)[] };
holder.caredeckTestCleanups ??= [];
const cleanups = holder.caredeckTestCleanups;

export function whenFileEnds(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
