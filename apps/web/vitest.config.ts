import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Route tests load lazy pages, which are transformed on first import: on a busy machine the first test of a
    // file can take far longer than vitest's default 5 s without anything being wrong. A safety net only: the tests
    // wait for conditions (vitest.setup.ts), never for time.
    testTimeout: 60_000,
  },
});
