import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg, { type QueryResult } from 'pg';

/** Queries are written in SQL (drizzle's `sql` template) in each module's *.queries.ts; no relational schema is needed. */
export type Database = NodePgDatabase & { $client: pg.Pool };
/** A database handle or an open transaction: services accept either. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Queryable = Database | Tx;

// Dates come back as ISO strings so that JSON answers are UTC ISO-8601 and `date` columns stay calendar dates.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createDatabase(url: string, max = 10): Database {
  // JIT off for the product's sessions (ADR 069): PostgreSQL compiles a statement whose estimated cost passes
  // jit_above_cost, and for the console's statements the compiling cost more than it saved — 1.5-3 s of a
  // 2.2-2.5 s billing or alert-sweep statement at 100,000 patients. Asked per connection, not per server, so
  // a managed server's default (on) does not apply to us.
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, options: '-c jit=off' });
  // A dropped idle connection must not crash the process.
  pool.on('error', () => {});
  // Nor a connection that ends while it is checked out (a transaction in flight when PostgreSQL restarts,
  // fails over or terminates the backend): pg-pool listens for errors only on idle clients, and an 'error'
  // event nobody listens to ends the process. The statement in flight is rejected by pg itself and its
  // request answers 500; the pool drops the dead client when it is released (`_queryable` is false).
  pool.on('connect', (client) => client.on('error', () => {}));
  return drizzle(pool) as Database;
}

type DrizzleInternals = {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
};
const statementNames = new Map<string, string>();

/**
 * Runs a statement of the request path as a named prepared statement: each pool connection parses and
 * plans it once (PostgreSQL then keeps a generic plan when it costs no more than fresh ones), where an
 * unnamed statement is planned on every call. Planning was three quarters of PostgreSQL's time on the
 * hottest requests (bench/RESULTS.md, 2026-11-27). Only for statements whose text has a bounded number of
 * shapes (values are always parameters): every shape is kept by every connection. Same rows and type
 * parsing as `db.execute`, inside a transaction too.
 */
export function executePrepared<T extends Record<string, unknown>>(
  db: Queryable,
  query: SQL,
): Promise<QueryResult<T>> {
  const internals = db as unknown as Partial<DrizzleInternals>;
  // A stand-in without drizzle's internals (the bench's statement recorder) gets a plain execute.
  if (!internals.dialect || !internals.session)
    return Promise.resolve(db.execute<T>(query)) as unknown as Promise<QueryResult<T>>;
  const compiled = internals.dialect.sqlToQuery(query);
  let name = statementNames.get(compiled.sql);
  if (!name) {
    name = `cd_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 24)}`;
    if (statementNames.size < 2000) statementNames.set(compiled.sql, name);
  }
  return internals.session.prepareQuery(compiled, undefined, name, false).execute() as Promise<
    QueryResult<T>
  >;
}
