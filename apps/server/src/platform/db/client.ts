import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';

/** Queries are written in SQL (drizzle's `sql` template) in each module's *.queries.ts; no relational schema is needed. */
export type Database = NodePgDatabase & { $client: pg.Pool };
/** A database handle or an open transaction: services accept either. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Queryable = Database | Tx;

// Dates come back as ISO strings so that JSON answers are UTC ISO-8601 and `date` columns stay calendar dates.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createDatabase(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // A dropped idle connection must not crash the process.
  pool.on('error', () => {});
  return drizzle(pool) as Database;
}
