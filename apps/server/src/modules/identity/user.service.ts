import { type ActiveUser, ROLE_PERMISSIONS, type UpdateProfileBody } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { generateSecret, generateURI } from 'otplib';
import type { Config } from '../../config';
import type { StaffActor } from '../../platform/access/actor';
import { assertBodyRefsInScope, scopeOf } from '../../platform/access/scope';
import { audit } from '../../platform/audit/audit';
import { createSecretBox } from '../../platform/auth/secret-box';
import { spendTotpCode, totpContext } from '../../platform/auth/totp';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { clearEvents, releaseAttempts, takeAttempt } from '../../platform/http/rate-limit';
import { roleGrants, visibleEnterprises, visiblePrograms } from '../tenancy/tenancy.queries';

type AdminProfileRow = {
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

export function createUserService(deps: { db: Database; config: Config }) {
  const { db, config } = deps;
  const box = createSecretBox(config.ENCRYPTION_KEY);

  async function profileRow(q: Queryable, adminId: number): Promise<AdminProfileRow> {
    const res = await q.execute<AdminProfileRow>(sql`
      SELECT id, email, given_name, family_name, title, about, phone_number, picture, status,
        hipaa_consented_at, tz, language, theme, mfa_enabled, mfa_secret
      FROM admins WHERE id = ${adminId} AND disabled_at IS NULL`);
    const row = res.rows[0];
    if (!row) throw AppError.unauthenticated();
    return row;
  }

  async function activeUser(adminId: number): Promise<ActiveUser> {
    const [row, roles, programs, enterprises] = await Promise.all([
      profileRow(db, adminId),
      roleGrants(db, adminId),
      visiblePrograms(db, adminId),
      visibleEnterprises(db, adminId),
    ]);
    const permissions = [...new Set(roles.flatMap((r) => ROLE_PERMISSIONS[r.name] ?? []))].sort();
    const modules = [...new Set(programs.flatMap((p) => p.modules))].sort();
    return {
      id: row.id,
      email: row.email,
      given_name: row.given_name,
      family_name: row.family_name,
      title: row.title,
      about: row.about,
      phoneNumber: row.phone_number,
      picture: row.picture,
      status: row.status,
      roles,
      permissions,
      modules,
      programs: programs.map(({ modules: _m, ...p }) => p),
      enterprises,
      settings: { language: row.language, theme: row.theme },
      hipaa_consented_at: row.hipaa_consented_at ? new Date(row.hipaa_consented_at).toISOString() : null,
      tz: row.tz,
      is_internal: row.email.toLowerCase().endsWith(`@${config.INTERNAL_EMAIL_DOMAIN.toLowerCase()}`),
      mfa_enabled: row.mfa_enabled,
    };
  }

  async function checkTotp(adminId: number, secret: string | null, code: string): Promise<void> {
    const key = `mfa:${adminId}`;
    const attempt = await takeAttempt(db, [{ key, max: 5, windowSeconds: 900 }]);
    if (!(await db.transaction((tx) => spendTotpCode(tx, box, adminId, secret, code)))) {
      throw AppError.validation({ code: ['Invalid code received for user.'] });
    }
    await releaseAttempts(db, attempt);
    await clearEvents(db, key);
  }

  return {
    activeUser,

    async updateProfile(adminId: number, body: UpdateProfileBody, ip: string): Promise<ActiveUser> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`
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
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.update_profile',
          subjectType: 'admin',
          subjectId: adminId,
          details: { fields: Object.keys(body) },
          ip,
        });
      });
      return activeUser(adminId);
    },

    /** Starts MFA enrolment: a new secret, not active until a code from it is confirmed. */
    async mfaSetup(adminId: number): Promise<{ secret: string; otpauth_url: string }> {
      const row = await profileRow(db, adminId);
      if (row.mfa_enabled) throw new AppError('conflict', 'Multi-factor authentication is already enabled.');
      const secret = generateSecret();
      await db.execute(
        sql`UPDATE admins SET mfa_secret = ${box.seal(secret, totpContext(adminId))}, updated_at = now() WHERE id = ${adminId}`,
      );
      return { secret, otpauth_url: generateURI({ issuer: 'CareDeck', label: row.email, secret }) };
    },

    async mfaEnable(adminId: number, code: string, ip: string): Promise<void> {
      const row = await profileRow(db, adminId);
      if (row.mfa_enabled) throw new AppError('conflict', 'Multi-factor authentication is already enabled.');
      if (!row.mfa_secret) throw AppError.validation({ code: ['Start the set-up first.'] });
      await checkTotp(adminId, row.mfa_secret, code);
      await db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE admins SET mfa_enabled = true, updated_at = now() WHERE id = ${adminId}`);
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.mfa_enable',
          subjectType: 'admin',
          subjectId: adminId,
          ip,
        });
      });
    },

    async mfaDisable(adminId: number, code: string, ip: string): Promise<void> {
      const row = await profileRow(db, adminId);
      if (!row.mfa_enabled) throw new AppError('conflict', 'Multi-factor authentication is not enabled.');
      await checkTotp(adminId, row.mfa_secret, code);
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`UPDATE admins SET mfa_enabled = false, mfa_secret = NULL, updated_at = now() WHERE id = ${adminId}`,
        );
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.mfa_disable',
          subjectType: 'admin',
          subjectId: adminId,
          ip,
        });
      });
    },

    async loginLog(adminId: number, sessionId: number, ip: string): Promise<{ id: number }> {
      const res = await db.execute<{ id: number }>(sql`
        INSERT INTO login_logs (admin_id, session_id, ip) VALUES (${adminId}, ${sessionId}, ${ip}) RETURNING id`);
      return { id: res.rows[0]!.id };
    },

    /** Closes the caller's own login log; another user's log id answers 404. */
    async logoutLog(adminId: number, logId: number): Promise<void> {
      const res = await db.execute(sql`
        UPDATE login_logs SET logout_at = coalesce(logout_at, now()) WHERE id = ${logId} AND admin_id = ${adminId}`);
      if (!res.rowCount) throw AppError.notFound();
    },

    /**
     * An administrator restarts the password-age clock of another staff member who works in a program
     * they administer (or in their enterprise): an audited exception to expiry (ADR 013). Nobody restarts
     * their own clock: that takes a real password change. Addresses outside the caller's administration
     * answer 404, like unknown ones.
     */
    async resetPasswordExpire(adminId: number, email: string, ip: string): Promise<void> {
      await db.transaction(async (tx) => {
        const own = await tx.execute(
          sql`SELECT 1 FROM admins WHERE id = ${adminId} AND lower(email) = ${email.toLowerCase()}`,
        );
        if (own.rowCount) {
          throw AppError.forbidden(
            'Change your password to restart its age; an administrator can extend another account.',
          );
        }
        const res = await tx.execute<{ id: number }>(sql`
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
        const target = res.rows[0];
        if (!target) throw AppError.notFound();
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.reset_password_expire',
          subjectType: 'admin',
          subjectId: target.id,
          ip,
        });
      });
    },

    /** Page time of the signed-in user; the page's subject (a patient) must be of the path program. */
    async recordPageSession(
      actor: StaffActor,
      body: { path: string; time_s: number; name?: string | null; subject_id?: number | null },
    ): Promise<void> {
      const scope = scopeOf(actor);
      await assertBodyRefsInScope(db, scope, { patients: [body.subject_id] });
      await db.execute(sql`
        INSERT INTO page_sessions (admin_id, program_id, path, time_s, name, subject_id)
        VALUES (${actor.adminId}, ${scope.programIds[0]!}, ${body.path}, ${body.time_s}, ${body.name ?? null}, ${body.subject_id ?? null})`);
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
