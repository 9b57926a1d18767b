import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { AppError } from './errors';

export type Limit = { key: string; max: number; windowSeconds: number };

/** Serialises work on one key until the transaction ends (parallel requests queue here). */
export async function lockKey(tx: Queryable, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

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

/**
 * Takes one attempt under every limit at once, or none: the keys are locked, counted and recorded in
 * one transaction, so parallel requests cannot slip past a limit. Throws 429 when any limit is full.
 * Returns the recorded event ids, for `releaseAttempts` when the attempt turns out legitimate.
 */
export async function takeAttempt(db: Database, limits: Limit[]): Promise<number[]> {
  return db.transaction(async (tx) => {
    const ordered = [...limits].sort((a, b) => a.key.localeCompare(b.key));
    for (const limit of ordered) await lockKey(tx, limit.key);
    let wait = 0;
    for (const limit of ordered) wait = Math.max(wait, (await limitReached(tx, limit)) ?? 0);
    if (wait > 0) throw AppError.rateLimited(wait);
    const ids: number[] = [];
    for (const limit of ordered) {
      const res = await tx.execute<{ id: number }>(
        sql`INSERT INTO rate_limit_events (key) VALUES (${limit.key}) RETURNING id`,
      );
      ids.push(res.rows[0]!.id);
    }
    return ids;
  });
}

export async function releaseAttempts(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`DELETE FROM rate_limit_events WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
}

export async function recordEvent(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`INSERT INTO rate_limit_events (key) VALUES (${key})`);
}

export async function clearEvents(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit_events WHERE key = ${key}`);
}
