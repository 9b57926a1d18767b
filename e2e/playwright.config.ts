import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

// Each worker runs its own console on its own database (tests/fixtures.ts), so files run side by side. Two
// workers by default (this project's machines have 2 cores); E2E_WORKERS sets another count.
const WORKERS = Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism()));

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
