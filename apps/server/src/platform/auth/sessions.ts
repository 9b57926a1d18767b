import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { StaffRole } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { executePrepared, type Queryable } from '../db/client';
import type { Realm, Scope } from './tokens';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function createSession(
  db: Queryable,
  owner: { realm: 'staff'; adminId: number } | { realm: 'controller'; controllerId: number },
  scope: Scope,
): Promise<SessionRef> {
  const adminId = owner.realm === 'staff' ? owner.adminId : null;
  const controllerId = owner.realm === 'controller' ? owner.controllerId : null;
  const res = await db.execute<{ id: number; public_id: string }>(sql`
    INSERT INTO auth_sessions (realm, admin_id, controller_id, scope)
    VALUES (${owner.realm}, ${adminId}, ${controllerId}, ${scope}) RETURNING id, public_id`);
  const row = res.rows[0]!;
  return { id: row.id, publicId: row.public_id };
}

/**
 * A session has an internal id (foreign keys, audit) and a public id, the one its access tokens carry:
 * random, so a forged token cannot name a live session by counting.
 */
export type SessionRef = { id: number; publicId: string };

export async function issueRefreshToken(
  db: Queryable,
  sessionId: number,
  ttlDays: number,
  token: string = randomToken(),
): Promise<string> {
  await db.execute(sql`
    INSERT INTO refresh_tokens (session_id, token_hash, expires_at)
    VALUES (${sessionId}, ${sha256(token)}, now() + make_interval(days => ${ttlDays}))`);
  return token;
}

/**
 * The token that succeeds a refresh token: derived with a server key from the one it replaces, so a
 * second presentation within the grace period gets the very same successor (only hashes are stored).
 */
export function successorOf(presented: string, key: string): string {
  return createHmac('sha256', key).update(`refresh-successor:${presented}`).digest('base64url');
}

export type LiveSession = SessionRef & { realm: Realm; scope: Scope; ownerId: number };

/** A session ends after `idleSeconds` without activity, and in any case `maxAgeSeconds` after sign-in. */
export type SessionLimits = { idleSeconds: number; maxAgeSeconds: number };

export function sessionLimits(config: {
  IDLE_TIMEOUT_SECONDS: number;
  SESSION_MAX_HOURS: number;
}): SessionLimits {
  return { idleSeconds: config.IDLE_TIMEOUT_SECONDS, maxAgeSeconds: config.SESSION_MAX_HOURS * 3600 };
}

/**
 * The session if it is live (not revoked, not idle past the time-out, not older than the absolute
 * lifetime, owner not disabled), and marks
 * activity. One statement: the check and the touch cannot disagree.
 */
export async function touchSession(
  db: Queryable,
  session: { publicId: string } | { id: number },
  realm: Realm,
  limits: SessionLimits,
): Promise<LiveSession | null> {
  const match = 'publicId' in session ? sql`s.public_id = ${session.publicId}` : sql`s.id = ${session.id}`;
  const res = await db.execute<{
    id: number;
    public_id: string;
    realm: Realm;
    scope: Scope;
    owner_id: number;
  }>(sql`
    UPDATE auth_sessions s SET last_activity_at = now()
    WHERE ${match} AND s.realm = ${realm} AND s.revoked_at IS NULL
      AND s.last_activity_at > now() - make_interval(secs => ${limits.idleSeconds})
      AND s.created_at > now() - make_interval(secs => ${limits.maxAgeSeconds})
      AND (
        (s.realm = 'staff' AND EXISTS (SELECT 1 FROM admins a WHERE a.id = s.admin_id AND a.disabled_at IS NULL))
        OR (s.realm = 'controller' AND EXISTS (
          SELECT 1 FROM controller_accounts c WHERE c.id = s.controller_id AND c.disabled_at IS NULL))
      )
    RETURNING s.id, s.public_id, s.realm, s.scope, coalesce(s.admin_id, s.controller_id) AS owner_id`);
  const row = res.rows[0];
  return row
    ? { id: row.id, publicId: row.public_id, realm: row.realm, scope: row.scope, ownerId: row.owner_id }
    : null;
}

/** Which of these sessions are live (same rules as touchSession), without marking activity. */
export async function liveSessionIds(
  db: Queryable,
  sessionIds: readonly number[],
  limits: SessionLimits,
): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT s.id FROM auth_sessions s
    WHERE s.id = ANY(${`{${sessionIds.map((id) => Math.trunc(id)).join(',')}}`}::bigint[])
      AND s.revoked_at IS NULL
      AND s.last_activity_at > now() - make_interval(secs => ${limits.idleSeconds})
      AND s.created_at > now() - make_interval(secs => ${limits.maxAgeSeconds})
      AND (
        (s.realm = 'staff' AND EXISTS (SELECT 1 FROM admins a WHERE a.id = s.admin_id AND a.disabled_at IS NULL))
        OR (s.realm = 'controller' AND EXISTS (
          SELECT 1 FROM controller_accounts c WHERE c.id = s.controller_id AND c.disabled_at IS NULL))
      )`);
  return res.rows.map((r) => r.id);
}

/**
 * How stale `last_activity_at` may get before a request writes it again. Requests in between only read,
 * so most authenticated requests commit nothing. Idle expiry is therefore measured with this
 * granularity: a session can end up to this many seconds before IDLE_TIMEOUT_SECONDS after its last
 * request, never later.
 */
export const ACTIVITY_TOUCH_SECONDS = 30;

export type RequestSession = LiveSession & {
  /** With `programId`: that program and the actor's roles in it (program roles plus enterprise admin). */
  program: { id: number; enterpriseId: number | null; roles: StaffRole[] } | null;
};

/**
 * The request path's one round trip: checks the session named by a token (same rules as touchSession),
 * records activity when the last record is older than ACTIVITY_TOUCH_SECONDS, and, for a program-scoped
 * route, resolves the path program and the actor's roles there. `program` is the path program's id, or a
 * scalar subquery giving the program of a path object (object rules), or null.
 */
export async function resolveRequestSession(
  db: Queryable,
  publicId: string,
  realm: Realm,
  limits: SessionLimits,
  program: number | SQL | null,
): Promise<RequestSession | null> {
  const programPart =
    program === null
      ? sql`NULL::bigint AS program_id, NULL::bigint AS program_enterprise_id, NULL::text[] AS program_roles`
      : sql`p.id AS program_id, p.enterprise_id AS program_enterprise_id,
          array(
            SELECT r.role FROM admin_program_roles r WHERE r.admin_id = s.owner_id AND r.program_id = p.id
            UNION
            SELECT e.role FROM admin_enterprise_roles e WHERE e.admin_id = s.owner_id AND e.enterprise_id = p.enterprise_id
          ) AS program_roles`;
  const programJoin =
    program === null
      ? sql``
      : typeof program === 'number'
        ? sql`LEFT JOIN programs p ON p.id = ${program}`
        : sql`LEFT JOIN programs p ON p.id = (${program})`;
  const res = await executePrepared<{
    id: number;
    public_id: string;
    realm: Realm;
    scope: Scope;
    owner_id: number;
    program_id: number | null;
    program_enterprise_id: number | null;
    program_roles: StaffRole[] | null;
  }>(
    db,
    sql`
    WITH s AS (
      SELECT s.id, s.public_id, s.realm, s.scope, coalesce(s.admin_id, s.controller_id) AS owner_id,
        s.last_activity_at
      FROM auth_sessions s
      WHERE s.public_id = ${publicId} AND s.realm = ${realm} AND s.revoked_at IS NULL
        AND s.last_activity_at > now() - make_interval(secs => ${limits.idleSeconds})
        AND s.created_at > now() - make_interval(secs => ${limits.maxAgeSeconds})
        AND (
          (s.realm = 'staff' AND EXISTS (SELECT 1 FROM admins a WHERE a.id = s.admin_id AND a.disabled_at IS NULL))
          OR (s.realm = 'controller' AND EXISTS (
            SELECT 1 FROM controller_accounts c WHERE c.id = s.controller_id AND c.disabled_at IS NULL))
        )
    ), touched AS (
      UPDATE auth_sessions t SET last_activity_at = now() FROM s
      WHERE t.id = s.id AND s.last_activity_at < now() - make_interval(secs => ${ACTIVITY_TOUCH_SECONDS})
      RETURNING t.id
    )
    SELECT s.id, s.public_id, s.realm, s.scope, s.owner_id, ${programPart}
    FROM s ${programJoin}`,
  );
  const row = res.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    publicId: row.public_id,
    realm: row.realm,
    scope: row.scope,
    ownerId: row.owner_id,
    program:
      row.program_id === null
        ? null
        : { id: row.program_id, enterpriseId: row.program_enterprise_id, roles: row.program_roles ?? [] },
  };
}

export async function revokeSession(db: Queryable, sessionId: number, reason: string): Promise<void> {
  await db.execute(sql`
    UPDATE auth_sessions SET revoked_at = now(), revoked_reason = ${reason}
    WHERE id = ${sessionId} AND revoked_at IS NULL`);
}

export async function revokeAllSessionsOf(db: Queryable, adminId: number, reason: string): Promise<void> {
  await db.execute(sql`
    UPDATE auth_sessions SET revoked_at = now(), revoked_reason = ${reason}
    WHERE admin_id = ${adminId} AND revoked_at IS NULL`);
}

/** A used refresh token presented again within this many seconds is a concurrent refresh, not a replay. */
export const REUSE_GRACE_SECONDS = 10;

export type RotateResult =
  | { ok: true; session: LiveSession; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'session_ended' }
  /** The session was revoked as stolen: its sockets are to close at once. */
  | { ok: false; reason: 'reused'; sessionId: number };

/**
 * Exchanges a refresh token for a new one in the same session. A token that was already used is a
 * sign of theft: the whole session is revoked, so both the thief and the owner must sign in again.
 */
export async function rotateRefreshToken(
  db: Queryable,
  presented: string,
  opts: { ttlDays: number; limits: SessionLimits; realm: Realm; successorKey: string },
): Promise<RotateResult> {
  const found = await db.execute<{
    id: number;
    session_id: number;
    used: boolean;
    just_used: boolean;
    expired: boolean;
  }>(sql`
    SELECT t.id, t.session_id, t.used_at IS NOT NULL AS used,
      t.used_at > now() - make_interval(secs => ${REUSE_GRACE_SECONDS}) AS just_used, t.expires_at <= now() AS expired
    FROM refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id
    WHERE t.token_hash = ${sha256(presented)} AND s.realm = ${opts.realm}
    FOR UPDATE OF t`);
  const token = found.rows[0];
  if (!token) return { ok: false, reason: 'unknown' };
  // Two tabs refreshing at the same moment present the same token: within a few seconds that is a race,
  // not theft, and both get the same successor.
  if (token.used && !token.just_used) {
    await revokeSession(db, token.session_id, 'refresh_token_reuse');
    return { ok: false, reason: 'reused', sessionId: token.session_id };
  }
  if (token.expired) return { ok: false, reason: 'expired' };
  const session = await touchSession(db, { id: token.session_id }, opts.realm, opts.limits);
  if (session?.scope !== 'full') return { ok: false, reason: 'session_ended' };
  const successor = successorOf(presented, opts.successorKey);
  if (!token.used) {
    await db.execute(sql`UPDATE refresh_tokens SET used_at = now() WHERE id = ${token.id}`);
    return {
      ok: true,
      session,
      refreshToken: await issueRefreshToken(db, session.id, opts.ttlDays, successor),
    };
  }
  // Within the grace: the successor, or, if the other tab already moved on, the newest of its line.
  let current = successor;
  for (let step = 0; step < 5; step++) {
    const next = await db.execute<{ used: boolean }>(sql`
      SELECT used_at IS NOT NULL AS used FROM refresh_tokens
      WHERE token_hash = ${sha256(current)} AND session_id = ${session.id}`);
    const row = next.rows[0];
    if (!row) break;
    if (!row.used) return { ok: true, session, refreshToken: current };
    current = successorOf(current, opts.successorKey);
  }
  await revokeSession(db, token.session_id, 'refresh_token_reuse');
  return { ok: false, reason: 'reused', sessionId: token.session_id };
}
