import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let dataDir = '';

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The real process entry, as `npm start` runs it: embedded database, migrations, demo seed, listen, SIGTERM. */
describe('process', () => {
  it('starts on an empty data directory, serves, and shuts down cleanly on SIGTERM', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'caredeck-main-'));
    await chmod(dataDir, 0o755);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += String(d);
    });
    child.stderr.on('data', (d) => {
      output += String(d);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /running at (http:\/\/[^/\s]+)\//.exec(output);
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 100);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`server exited early:\n${output}`));
      });
    });
    expect(output).toContain('admin@caredeck.demo');
    expect(output).toContain('outsider@caredeck.demo');
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
    const signIn = await fetch(`${url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@caredeck.demo', password: 'CareDeck-demo-2026' }),
    });
    expect(((await signIn.json()) as { status: string }).status).toBe('hipaa');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The embedded PostgreSQL stopped with it (its pid file is removed on a clean shutdown).
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
