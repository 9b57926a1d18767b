/**
 * `npm run keep-dataset -w bench` (development aid, not a figure): writes the product bench's dataset
 * (bench/product-dataset.ts: 100,000 + 10,000 patients with issue 27's history) into a database that is
 * kept, so a slow screen can be started against it (`DATABASE_URL=<url> npm start`) and its queries
 * explained without regenerating. KEEP_DATABASE_URL names the database (created if missing; must be empty).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { prepareModules } from '../apps/server/src/modules';
import { createDatabase } from '../apps/server/src/platform/db/client';
import { applyMigrations } from '../apps/server/src/platform/db/migrate';
import { generateProductDataset } from './product-dataset';

const target = process.env.KEEP_DATABASE_URL;
if (!target)
  throw new Error('KEEP_DATABASE_URL is required (e.g. postgres://postgres@127.0.0.1:5432/caredeck_100k)');
const url = new URL(target);
const name = url.pathname.slice(1);
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('the database name must be a plain identifier');
const admin = new URL(target);
admin.pathname = '/postgres';
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
await client.end();

const db = createDatabase(target);
await applyMigrations(db);
await prepareModules(db);
const patients = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients`);
if (Number(patients.rows[0]?.n) > 0) throw new Error(`${name} already holds patients; drop it first`);
const log = (line: string) => process.stdout.write(`${line}\n`);
const big = Number(process.env.BENCH_PATIENTS ?? 100_000);
const small = Number(process.env.BENCH_SECOND_PATIENTS ?? 10_000);
const data = await generateProductDataset(
  db,
  { big, small },
  { doseDays: 30, auditRows: 200_000, conversations: 300, wearableDays: 90 },
  log,
);
log(JSON.stringify({ ...data, counts: data.counts }, null, 1).slice(0, 2000));
await db.$client.end();
