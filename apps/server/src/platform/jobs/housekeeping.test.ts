import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../modules/identity/identity.factories';
import { testDatabase } from '../../test/harness';
import { createSession, issueRefreshToken } from '../auth/sessions';
import type { Database } from '../db/client';
import { enqueueEmail } from '../outbox/outbox';
import { pruneExpired } from './housekeeping';

let db: Database;
beforeAll(async () => {
  ({ db } = await testDatabase());
});

const count = async (table: string) =>
  (await db.execute<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))).rows[0]?.n ?? 0;

describe('housekeeping', () => {
  it('deletes expired tokens, codes, old sessions, sent mail and stale rate-limit rows, and keeps the live ones', async () => {
    const admin = await createAdmin(db, { email: 'keep@caredeck.demo', password: 'Whatever-Pass-1' });
    const live = await createSession(db, { realm: 'staff', adminId: admin.id }, 'full');
    const old = await createSession(db, { realm: 'staff', adminId: admin.id }, 'full');
    await issueRefreshToken(db, live.id, 14);
    await issueRefreshToken(db, old.id, 14);
    await db.execute(
      sql`UPDATE auth_sessions SET last_activity_at = now() - interval '40 days' WHERE id = ${old.id}`,
    );
    await db.execute(
      sql`UPDATE refresh_tokens SET expires_at = now() - interval '2 days' WHERE session_id = ${old.id}`,
    );
    await db.execute(sql`
      INSERT INTO auth_codes (admin_id, purpose, code_hash, expires_at) VALUES
        (${admin.id}, 'reset_password', 'x', now() - interval '2 days'),
        (${admin.id}, 'reset_password', 'y', now() + interval '10 minutes')`);
    await db.execute(sql`
      INSERT INTO rate_limit_events (key, created_at) VALUES ('a', now() - interval '2 days'), ('b', now())`);
    await enqueueEmail(db, { to: 'x@clinic.example', subject: 's', text: 't', template: 'x' });
    await enqueueEmail(db, { to: 'y@clinic.example', subject: 's', text: 't', template: 'x' });
    await db.execute(sql`
      UPDATE email_outbox SET status = 'sent', created_at = now() - interval '40 days'
      WHERE to_address = 'x@clinic.example'`);

    await pruneExpired(db);

    expect(await count('auth_sessions')).toBe(1);
    expect(await count('refresh_tokens')).toBe(1);
    expect(await count('auth_codes')).toBe(1);
    expect(await count('rate_limit_events')).toBe(1);
    expect(await count('email_outbox')).toBe(1);
  });
});
