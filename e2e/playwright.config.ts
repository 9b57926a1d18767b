import { defineConfig } from '@playwright/test';
import { MQTT_PORT, SMS_WEBHOOK_SECRET } from './tests/helpers';

const PORT = Number(process.env.E2E_PORT ?? 18_080);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
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
  webServer: {
    // The real console: built SPA, API and embedded PostgreSQL with the demo data, in a fresh directory.
    command: 'node scripts/e2e-server.mjs',
    cwd: '..',
    url: `${BASE_URL}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(PORT),
      MQTT_PORT: String(MQTT_PORT),
      HOST: '127.0.0.1',
      // The server's output (test-results/server.log) at info level, for reading a failure. Its e-mails are
      // written to DATA_DIR/mail, which the tests read through test-results/mail (helpers.ts).
      LOG_LEVEL: 'info',
      // The SMS provider's webhook secret: the tests sign simulated inbound texts with it (helpers.ts).
      SMS_WEBHOOK_SECRET: SMS_WEBHOOK_SECRET,
    },
  },
});
