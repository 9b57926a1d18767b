import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner, five projects: the pure packages, the device simulator, the server against real PostgreSQL, and the
// web components in jsdom.
export default defineConfig({
  test: {
    // One worker more than cores: a server test spends much of its time waiting for PostgreSQL (vitest's default
    // of cores − 1 ran one file at a time on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', environment: 'node' } },
      { test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      { test: { name: 'devices', root: 'apps/devices', environment: 'node' } },
      'apps/server/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
