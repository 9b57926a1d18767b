import { type ActiveUser, ROLE_PERMISSIONS, type UpdateProfileBody } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { generateSecret, generateURI } from 'otplib';
import type { Config } from '../../config';
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
     * Restarts the password-age clock of the caller (its own e-mail only): used after a reset done
     * outside the console. Another e-mail answers 404 so addresses cannot be probed.
     */
    async resetPasswordExpire(adminId: number, email: string, ip: string): Promise<void> {
      await db.transaction(async (tx) => {
        const res = await tx.execute(sql`
          UPDATE admins SET password_changed_at = now(), updated_at = now()
          WHERE id = ${adminId} AND lower(email) = ${email.toLowerCase()}`);
        if (!res.rowCount) throw AppError.notFound();
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.reset_password_expire',
          subjectType: 'admin',
          subjectId: adminId,
          ip,
        });
      });
    },

    async recordPageSession(
      adminId: number,
      programId: number,
      body: { path: string; time_s: number; name?: string | null; subject_id?: number | null },
    ): Promise<void> {
      await db.execute(sql`
        INSERT INTO page_sessions (admin_id, program_id, path, time_s, name, subject_id)
        VALUES (${adminId}, ${programId}, ${body.path}, ${body.time_s}, ${body.name ?? null}, ${body.subject_id ?? null})`);
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
