import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';

export type Limit = { key: string; max: number; windowSeconds: number };

/**
 * Counts events for a key within a sliding window, in PostgreSQL so every API process shares it.
 * Returns the seconds to wait when the limit is reached, else null.
 */
export async function limitReached(db: Queryable, limit: Limit): Promise<number | null> {
  const res = await db.execute<{ n: number; oldest: string | null }>(sql`
    SELECT count(*)::int AS n, min(created_at) AS oldest FROM rate_limit_events
    WHERE key = ${limit.key} AND created_at > now() - make_interval(secs => ${limit.windowSeconds})`);
  const row = res.rows[0];
  if (!row || row.n < limit.max || !row.oldest) return null;
  const elapsed = (Date.now() - new Date(row.oldest).getTime()) / 1000;
  return Math.max(1, Math.ceil(limit.windowSeconds - elapsed));
}

export async function recordEvent(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`INSERT INTO rate_limit_events (key) VALUES (${key})`);
}

export async function clearEvents(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit_events WHERE key = ${key}`);
}

/** Drops events older than a day; run by the housekeeping job. */
export async function pruneEvents(db: Queryable): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit_events WHERE created_at < now() - interval '1 day'`);
}
