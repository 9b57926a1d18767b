import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

export type AdminAuthRow = {
  id: number;
  email: string;
  given_name: string;
  family_name: string;
  password_hash: string;
  password_changed_at: string;
  must_change_password: boolean;
  email_confirmed_at: string | null;
  hipaa_consented_at: string | null;
  mfa_enabled: boolean;
  mfa_secret: string | null;
  disabled_at: string | null;
};

const AUTH_COLUMNS = sql`id, email, given_name, family_name, password_hash, password_changed_at, must_change_password,
  email_confirmed_at, hipaa_consented_at, mfa_enabled, mfa_secret, disabled_at`;

export async function findAdminByEmail(db: Queryable, email: string): Promise<AdminAuthRow | null> {
  const res = await db.execute<AdminAuthRow>(
    sql`SELECT ${AUTH_COLUMNS} FROM admins WHERE lower(email) = ${email.toLowerCase()}`,
  );
  return res.rows[0] ?? null;
}

export async function findAdminById(
  db: Queryable,
  id: number,
  forUpdate = false,
): Promise<AdminAuthRow | null> {
  const res = await db.execute<AdminAuthRow>(
    sql`SELECT ${AUTH_COLUMNS} FROM admins WHERE id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return res.rows[0] ?? null;
}

export async function setPassword(db: Queryable, adminId: number, passwordHash: string): Promise<void> {
  await db.execute(sql`
    UPDATE admins SET password_hash = ${passwordHash}, password_changed_at = now(), must_change_password = false,
      updated_at = now()
    WHERE id = ${adminId}`);
}

/** What a registration code confirms: the attempt's own name and password (hash). */
export type RegistrationAttempt = { given_name: string; family_name: string; password_hash: string };

export async function createCode(
  db: Queryable,
  adminId: number,
  purpose: 'reset_password' | 'confirm_registration',
  codeHash: string,
  ttlMinutes: number,
  registration: RegistrationAttempt | null = null,
): Promise<void> {
  // A new reset code replaces the earlier one. Registration codes stay side by side: each confirms its
  // own attempt, so a stranger's later attempt cannot turn the owner's code into theirs.
  if (purpose === 'reset_password') {
    await db.execute(sql`
      UPDATE auth_codes SET used_at = now() WHERE admin_id = ${adminId} AND purpose = ${purpose} AND used_at IS NULL`);
  }
  await db.execute(sql`
    INSERT INTO auth_codes (admin_id, purpose, code_hash, expires_at, registration)
    VALUES (${adminId}, ${purpose}, ${codeHash}, now() + make_interval(mins => ${ttlMinutes}),
      ${registration ? JSON.stringify(registration) : null}::jsonb)`);
}

export type LiveCode = {
  id: number;
  code_hash: string;
  attempts: number;
  registration: RegistrationAttempt | null;
};

/** The live codes of one purpose, newest first, locked for the check. */
export async function liveCodes(
  db: Queryable,
  adminId: number,
  purpose: 'reset_password' | 'confirm_registration',
): Promise<LiveCode[]> {
  const res = await db.execute<LiveCode>(sql`
    SELECT id, code_hash, attempts, registration FROM auth_codes
    WHERE admin_id = ${adminId} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
    ORDER BY created_at DESC LIMIT 10 FOR UPDATE`);
  return res.rows;
}

/** A wrong guess counts against every live code of the account. */
export async function countCodeAttempts(db: Queryable, codeIds: readonly number[]): Promise<void> {
  if (codeIds.length === 0) return;
  await db.execute(
    sql`UPDATE auth_codes SET attempts = attempts + 1 WHERE id = ANY(${idArray(codeIds)}::bigint[])`,
  );
}

/** Marks a code used; false when it already was (a race between two requests with the same code). */
export async function markCodeUsed(db: Queryable, codeId: number): Promise<boolean> {
  const res = await db.execute(
    sql`UPDATE auth_codes SET used_at = now() WHERE id = ${codeId} AND used_at IS NULL`,
  );
  return Boolean(res.rowCount);
}

/** Every unused code of one purpose of the account dies (the other registration attempts' codes). */
export async function burnCodes(db: Queryable, adminId: number, purpose: string): Promise<void> {
  await db.execute(sql`
    UPDATE auth_codes SET used_at = now() WHERE admin_id = ${adminId} AND purpose = ${purpose} AND used_at IS NULL`);
}

/** A registered, unconfirmed account. */
export async function insertRegisteredAdmin(db: Queryable, email: string, attempt: RegistrationAttempt) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO admins (email, given_name, family_name, password_hash)
    VALUES (${email}, ${attempt.given_name}, ${attempt.family_name}, ${attempt.password_hash}) RETURNING id`);
  return res.rows[0]!.id;
}

/** The confirmed registration's names and password (the attempt the code was sent for). */
export async function applyRegistration(
  db: Queryable,
  adminId: number,
  chosen: RegistrationAttempt,
): Promise<void> {
  await db.execute(sql`
    UPDATE admins SET given_name = ${chosen.given_name}, family_name = ${chosen.family_name},
      password_hash = ${chosen.password_hash}, password_changed_at = now(), updated_at = now()
    WHERE id = ${adminId}`);
}

export async function confirmEmail(db: Queryable, adminId: number): Promise<void> {
  await db.execute(
    sql`UPDATE admins SET email_confirmed_at = coalesce(email_confirmed_at, now()) WHERE id = ${adminId}`,
  );
}

export async function recordHipaaConsent(db: Queryable, adminId: number, sessionId: number): Promise<void> {
  await db.execute(sql`
    UPDATE admins SET hipaa_consented_at = coalesce(hipaa_consented_at, now()), updated_at = now() WHERE id = ${adminId}`);
  await db.execute(sql`UPDATE auth_sessions SET scope = 'full' WHERE id = ${sessionId}`);
}

/** The session a sign-out names: by the access token's session id, else by the refresh cookie. */
export async function sessionToEnd(
  db: Queryable,
  by: { publicId: string | null; refreshHash: string | null },
): Promise<{ id: number; admin_id: number | null } | null> {
  const res = await db.execute<{ id: number; admin_id: number | null }>(sql`
    SELECT s.id, s.admin_id FROM auth_sessions s
    WHERE s.public_id = ${by.publicId}
       OR s.id = (SELECT session_id FROM refresh_tokens WHERE token_hash = ${by.refreshHash})
    ORDER BY (s.public_id = ${by.publicId}) DESC NULLS LAST
    LIMIT 1`);
  return res.rows[0] ?? null;
}

/** Revokes every live session of the account but one; answers the ids of those it ended (their sockets close). */
export async function revokeOtherSessions(
  db: Queryable,
  adminId: number,
  keepSessionId: number,
  reason: string,
): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    UPDATE auth_sessions SET revoked_at = now(), revoked_reason = ${reason}
    WHERE admin_id = ${adminId} AND id <> ${keepSessionId} AND revoked_at IS NULL
    RETURNING id`);
  return res.rows.map((r) => Number(r.id));
}

export async function controllerAccountByEmail(db: Queryable, email: string) {
  const res = await db.execute<{ id: number; password_hash: string; disabled_at: string | null }>(
    sql`SELECT id, password_hash, disabled_at FROM controller_accounts WHERE lower(email) = ${email}`,
  );
  return res.rows[0] ?? null;
}

export async function controllerAccount(db: Queryable, id: number) {
  const res = await db.execute<{ id: number; email: string; name: string }>(
    sql`SELECT id, email, name FROM controller_accounts WHERE id = ${id}`,
  );
  return res.rows[0] ?? null;
}
