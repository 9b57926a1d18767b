import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, testConfig } from '../config';
import { createDatabase, type Database } from '../platform/db/client';
import type { App } from '../platform/http/types';
import { whenFileEnds } from './setup';

/** A fresh database cloned from the migrated template; dropped when the file's tests end. */
export async function testDatabase(): Promise<{ db: Database; url: string }> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('pgTemplate');
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDatabase(url.toString(), 5);
  whenFileEnds(async () => {
    await db.$client.end();
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await drop.end();
  });
  return { db, url: url.toString() };
}

/** The whole application on a fresh database, driven through inject(). */
export async function testApp(
  overrides: Partial<Config> = {},
): Promise<{ app: App; db: Database; config: Config }> {
  const { db } = await testDatabase();
  const config = testConfig({ WEB_DIST: '/nonexistent', ...overrides });
  const { app } = await buildApp({ config, db });
  await app.ready();
  whenFileEnds(() => app.close());
  return { app, db, config };
}

export type Json = Record<string, unknown>;
