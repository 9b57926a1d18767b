import type { EnterpriseSummary, ProgramSummary, RoleGrant, UpdateProfileBody } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { executePrepared, type Queryable } from '../../platform/db/client';
import { roleGrantsQuery, visibleEnterprisesQuery, visibleProgramsQuery } from '../tenancy/tenancy.queries';

export type AdminProfileRow = {
  id: number;
  email: string;
  given_name: string;
  family_name: string;
  title: string | null;
  about: string | null;
  phone_number: string | null;
  picture: string | null;
  status: string;
  hipaa_consented_at: string | null;
  tz: string | null;
  language: 'en' | 'de' | 'fr' | 'pt';
  theme: 'light' | 'dark' | 'semi-dark';
  mfa_enabled: boolean;
  mfa_secret: string | null;
};

const PROFILE_COLUMNS = sql`a.id, a.email, a.given_name, a.family_name, a.title, a.about, a.phone_number, a.picture,
  a.status, a.hipaa_consented_at, a.tz, a.language, a.theme, a.mfa_enabled, a.mfa_secret`;

export async function profileRow(db: Queryable, adminId: number): Promise<AdminProfileRow | null> {
  const res = await db.execute<AdminProfileRow>(sql`
    SELECT ${PROFILE_COLUMNS} FROM admins a WHERE a.id = ${adminId} AND a.disabled_at IS NULL`);
  return res.rows[0] ?? null;
}

export type ActiveUserRow = AdminProfileRow & {
  roles: RoleGrant[];
  programs: (ProgramSummary & { modules: string[] })[];
  enterprises: EnterpriseSummary[];
};

/** The signed-in user with roles, programs and enterprises: one statement, one round trip (GET /user). */
export async function activeUserRow(db: Queryable, adminId: number): Promise<ActiveUserRow | null> {
  const id = sql`a.id`;
  const res = await executePrepared<ActiveUserRow>(
    db,
    sql`
    SELECT ${PROFILE_COLUMNS},
      coalesce((SELECT json_agg(r ORDER BY r.program_id NULLS LAST, r.enterprise_id, r.name)
                FROM (${roleGrantsQuery(id)}) r), '[]') AS roles,
      coalesce((SELECT json_agg(p ORDER BY p.id) FROM (${visibleProgramsQuery(id)}) p), '[]') AS programs,
      coalesce((SELECT json_agg(e ORDER BY e.id) FROM (${visibleEnterprisesQuery(id)}) e), '[]') AS enterprises
    FROM admins a WHERE a.id = ${adminId} AND a.disabled_at IS NULL`,
  );
  return res.rows[0] ?? null;
}

export async function updateProfile(db: Queryable, adminId: number, body: UpdateProfileBody): Promise<void> {
  await db.execute(sql`
    UPDATE admins SET
      given_name = ${body.given_name}, family_name = ${body.family_name},
      title = CASE WHEN ${body.title !== undefined} THEN ${body.title ?? null} ELSE title END,
      about = CASE WHEN ${body.about !== undefined} THEN ${body.about ?? null} ELSE about END,
      phone_number = CASE WHEN ${body.phoneNumber !== undefined} THEN ${body.phoneNumber ?? null} ELSE phone_number END,
      tz = CASE WHEN ${body.tz !== undefined} THEN ${body.tz ?? null} ELSE tz END,
      language = coalesce(${body.language ?? null}, language),
      theme = coalesce(${body.theme ?? null}, theme),
      updated_at = now()
    WHERE id = ${adminId}`);
}

export async function setMfaSecret(db: Queryable, adminId: number, sealed: string): Promise<void> {
  await db.execute(sql`UPDATE admins SET mfa_secret = ${sealed}, updated_at = now() WHERE id = ${adminId}`);
}

export async function setMfaEnabled(db: Queryable, adminId: number, enabled: boolean): Promise<void> {
  await db.execute(sql`
    UPDATE admins SET mfa_enabled = ${enabled}, mfa_secret = CASE WHEN ${enabled} THEN mfa_secret END,
      updated_at = now()
    WHERE id = ${adminId}`);
}

export async function insertLoginLog(db: Queryable, adminId: number, sessionId: number, ip: string) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO login_logs (admin_id, session_id, ip) VALUES (${adminId}, ${sessionId}, ${ip}) RETURNING id`);
  return res.rows[0]!.id;
}

/** Closes one of the user's own login logs; false when the id is not theirs. */
export async function closeLoginLog(db: Queryable, adminId: number, logId: number): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE login_logs SET logout_at = coalesce(logout_at, now()) WHERE id = ${logId} AND admin_id = ${adminId}`);
  return Boolean(res.rowCount);
}

export async function isOwnEmail(db: Queryable, adminId: number, email: string): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM admins WHERE id = ${adminId} AND lower(email) = ${email.toLowerCase()}`,
  );
  return Boolean(res.rowCount);
}

/**
 * Restarts the password-age clock of the staff member with this address if they work in a program (or an
 * enterprise) the administrator administers; their id, or null.
 */
export async function restartPasswordAge(
  db: Queryable,
  adminId: number,
  email: string,
): Promise<number | null> {
  const res = await db.execute<{ id: number }>(sql`
    WITH administered_programs AS (
      SELECT program_id AS id FROM admin_program_roles WHERE admin_id = ${adminId} AND role = 'admin'
      UNION
      SELECT p.id FROM programs p JOIN admin_enterprise_roles e ON e.enterprise_id = p.enterprise_id
      WHERE e.admin_id = ${adminId} AND e.role = 'enterprise_admin'
    ), administered_enterprises AS (
      SELECT enterprise_id AS id FROM admin_enterprise_roles WHERE admin_id = ${adminId} AND role = 'enterprise_admin'
    )
    UPDATE admins a SET password_changed_at = now(), updated_at = now()
    WHERE lower(a.email) = ${email.toLowerCase()} AND a.disabled_at IS NULL AND a.id <> ${adminId}
      AND (
        EXISTS (SELECT 1 FROM admin_program_roles r
                WHERE r.admin_id = a.id AND r.program_id IN (SELECT id FROM administered_programs))
        OR EXISTS (SELECT 1 FROM admin_enterprise_roles e
                   WHERE e.admin_id = a.id AND e.enterprise_id IN (SELECT id FROM administered_enterprises))
      )
    RETURNING a.id`);
  return res.rows[0]?.id ?? null;
}

export async function insertPageSession(
  db: Queryable,
  row: {
    adminId: number;
    programId: number;
    path: string;
    timeS: number;
    name: string | null;
    subjectId: number | null;
  },
): Promise<void> {
  await db.execute(sql`
    INSERT INTO page_sessions (admin_id, program_id, path, time_s, name, subject_id)
    VALUES (${row.adminId}, ${row.programId}, ${row.path}, ${row.timeS}, ${row.name}, ${row.subjectId})`);
}
