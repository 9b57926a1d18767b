import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';

/**
 * Deletes what no longer serves anyone: rate-limit events past their windows, refresh tokens and codes
 * past their expiry, sessions ended a month ago, and e-mails sent a month ago. Audit rows, login logs
 * and page-time rows are records and are kept.
 */
export async function pruneExpired(db: Queryable): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit_events WHERE created_at < now() - interval '1 day'`);
  await db.execute(sql`DELETE FROM refresh_tokens WHERE expires_at < now() - interval '1 day'`);
  await db.execute(sql`DELETE FROM auth_codes WHERE expires_at < now() - interval '1 day'`);
  await db.execute(sql`
    DELETE FROM auth_sessions
    WHERE (revoked_at IS NOT NULL AND revoked_at < now() - interval '30 days')
       OR last_activity_at < now() - interval '30 days'`);
  await db.execute(
    sql`DELETE FROM email_outbox WHERE status <> 'pending' AND created_at < now() - interval '30 days'`,
  );
}
