import { sql } from 'drizzle-orm';
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
