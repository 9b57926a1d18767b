import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { prepareModules } from '../modules';
import { createDatabase } from '../platform/db/client';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../platform/db/embedded';
import { applyMigrations } from '../platform/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/**
 * Real PostgreSQL for the server tests: the one in DATABASE_URL when set, else embedded binaries in a
 * temporary directory. A template database is migrated once; every test file clones it.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | null = null;
  let tempDir: string | null = null;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = await mkdtemp(path.join(tmpdir(), 'caredeck-test-pg-'));
    // As root, PostgreSQL runs as the `postgres` user, which must be able to enter the directory.
    await chmod(dir, 0o755);
    tempDir = dir;
    embedded = await startEmbeddedPostgres({ dir: path.join(dir, 'data'), persistent: false });
    adminUrl = embedded.url;
  }
  const template = `caredeck_tpl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const db = createDatabase(url.toString(), 1);
  await applyMigrations(db);
  await prepareModules(db);
  await db.$client.end();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`${template}_%`, template],
    );
    for (const row of leftovers.rows)
      await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
    await embedded?.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}
