import { defineConfig } from 'vitest/config';

// One runner, four projects: pure packages, the server against real PostgreSQL, and the web components in jsdom.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', environment: 'node' } },
      { test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      { test: { name: 'devices', root: 'apps/devices', environment: 'node' } },
      'apps/server/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
