// The browser tests' `test`: Playwright's, with one console per worker. Each worker starts its own server
// (scripts/e2e-server.mjs: the built console, the API and an embedded PostgreSQL with the demo data in a fresh
// directory), so workers run side by side without sharing a database, and every test's `page` and `request`
// talk to its worker's server. The ports and the mail folder of a worker come from its slot (helpers.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';
import { BASE_URL, MQTT_PORT, SLOT, SMS_WEBHOOK_SECRET } from './helpers';

export * from '@playwright/test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STARTUP_MS = 240_000;

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('close', () => resolve());
  });
}

/** Starts this worker's console and resolves when it is ready (GET /readyz answers 200). */
async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    cwd: ROOT,
    // The server's output goes to e2e/test-results/server-<slot>.log (scripts/e2e-server.mjs).
    stdio: 'ignore',
    env: {
      ...process.env,
      E2E_SLOT: String(SLOT),
      PORT: String(new URL(BASE_URL).port),
      MQTT_PORT: String(MQTT_PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // The SMS provider's webhook secret: the tests sign simulated inbound texts with it (helpers.ts).
      SMS_WEBHOOK_SECRET,
    },
  });
  const deadline = Date.now() + STARTUP_MS;
  let exited = false;
  child.once('close', () => {
    exited = true;
  });
  while (!(await answers(`${BASE_URL}/readyz`))) {
    if (exited) throw new Error(`the test console (slot ${SLOT}) stopped while starting: see its server log`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the test console (slot ${SLOT}) was not ready within ${STARTUP_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return child;
}

export const test = base.extend<object, { consoleServer: string }>({
  consoleServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from the pattern.
    async ({}, use) => {
      const child = await startServer();
      await use(BASE_URL);
      child.kill('SIGTERM');
      await stopped(child);
    },
    { scope: 'worker', timeout: STARTUP_MS + 30_000, auto: true },
  ],
  baseURL: async ({ consoleServer }, use) => use(consoleServer),
});
