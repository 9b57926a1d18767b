import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    setupFiles: ['src/test/setup.ts'],
    // Each file gets its own database cloned from a migrated template; files run in parallel workers. A worker
    // keeps the server's modules loaded from one file to the next (loading them again per file was a third of the
    // suite's time): a file closes what it opened (test/setup.ts), and no test changes a module's state.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
