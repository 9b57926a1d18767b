import {
  type ActiveUser,
  type AuditAction,
  ROLE_PERMISSIONS,
  type UpdateProfileBody,
} from '@caredeck/contracts';
import { generateSecret, generateURI } from 'otplib';
import type { Config } from '../../config';
import type { StaffActor } from '../../platform/access/actor';
import { assertBodyRefsInScope, scopeOf } from '../../platform/access/scope';
import { audit } from '../../platform/audit/audit';
import { createSecretBox } from '../../platform/auth/secret-box';
import { spendTotpCode, totpContext } from '../../platform/auth/totp';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { clearEvents, releaseAttempts, takeAttempt } from '../../platform/http/rate-limit';
import {
  type AdminProfileRow,
  activeUserRow,
  closeLoginLog,
  insertLoginLog,
  insertPageSession,
  isOwnEmail,
  profileRow,
  restartPasswordAge,
  setMfaEnabled,
  setMfaSecret,
  updateProfile,
} from './user.queries';

/** The signed-in staff member's own account: profile, two-factor authentication, login logs, page time. */
export function createUserService(deps: { db: Database; config: Config }) {
  const { db, config } = deps;
  const box = createSecretBox(config.ENCRYPTION_KEY);

  async function profile(adminId: number): Promise<AdminProfileRow> {
    const row = await profileRow(db, adminId);
    if (!row) throw AppError.unauthenticated();
    return row;
  }

  async function activeUser(actor: Pick<StaffActor, 'adminId'>): Promise<ActiveUser> {
    const row = await activeUserRow(db, actor.adminId);
    if (!row) throw AppError.unauthenticated();
    const permissions = [...new Set(row.roles.flatMap((r) => ROLE_PERMISSIONS[r.name] ?? []))].sort();
    const modules = [...new Set(row.programs.flatMap((p) => p.modules))].sort();
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
      roles: row.roles,
      permissions,
      modules,
      programs: row.programs.map(({ modules: _m, ...p }) => p),
      enterprises: row.enterprises,
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

  const auditSelf = (actor: StaffActor, action: AuditAction, details?: Record<string, unknown>) => ({
    actorAdminId: actor.adminId,
    action,
    subjectType: 'admin',
    subjectId: actor.adminId,
    details,
    ip: actor.ip,
  });

  return {
    activeUser,

    async updateProfile(actor: StaffActor, input: UpdateProfileBody): Promise<ActiveUser> {
      await db.transaction(async (tx) => {
        await updateProfile(tx, actor.adminId, input);
        await audit(tx, auditSelf(actor, 'user.update_profile', { fields: Object.keys(input) }));
      });
      return activeUser(actor);
    },

    /** Starts MFA enrolment: a new secret, not active until a code from it is confirmed. */
    async mfaSetup(actor: StaffActor): Promise<{ secret: string; otpauth_url: string }> {
      const row = await profile(actor.adminId);
      if (row.mfa_enabled) throw new AppError('conflict', 'Multi-factor authentication is already enabled.');
      const secret = generateSecret();
      await setMfaSecret(db, actor.adminId, box.seal(secret, totpContext(actor.adminId)));
      return { secret, otpauth_url: generateURI({ issuer: 'CareDeck', label: row.email, secret }) };
    },

    async mfaEnable(actor: StaffActor, input: { code: string }): Promise<void> {
      const row = await profile(actor.adminId);
      if (row.mfa_enabled) throw new AppError('conflict', 'Multi-factor authentication is already enabled.');
      if (!row.mfa_secret) throw AppError.validation({ code: ['Start the set-up first.'] });
      await checkTotp(actor.adminId, row.mfa_secret, input.code);
      await db.transaction(async (tx) => {
        await setMfaEnabled(tx, actor.adminId, true);
        await audit(tx, auditSelf(actor, 'user.mfa_enable'));
      });
    },

    async mfaDisable(actor: StaffActor, input: { code: string }): Promise<void> {
      const row = await profile(actor.adminId);
      if (!row.mfa_enabled) throw new AppError('conflict', 'Multi-factor authentication is not enabled.');
      await checkTotp(actor.adminId, row.mfa_secret, input.code);
      await db.transaction(async (tx) => {
        await setMfaEnabled(tx, actor.adminId, false);
        await audit(tx, auditSelf(actor, 'user.mfa_disable'));
      });
    },

    async loginLog(actor: StaffActor): Promise<{ id: number }> {
      return { id: await insertLoginLog(db, actor.adminId, actor.sessionId, actor.ip) };
    },

    /** Closes the caller's own login log; another user's log id answers 404. */
    async logoutLog(actor: StaffActor, input: { logId: number }): Promise<void> {
      if (!(await closeLoginLog(db, actor.adminId, input.logId))) throw AppError.notFound();
    },

    /**
     * An administrator restarts the password-age clock of another staff member who works in a program
     * they administer (or in their enterprise): an audited exception to expiry (ADR 013). Nobody restarts
     * their own clock: that takes a real password change. Addresses outside the caller's administration
     * answer 404, like unknown ones.
     */
    async resetPasswordExpire(actor: StaffActor, input: { email: string }): Promise<void> {
      await db.transaction(async (tx) => {
        if (await isOwnEmail(tx, actor.adminId, input.email)) {
          throw AppError.forbidden(
            'Change your password to restart its age; an administrator can extend another account.',
          );
        }
        const target = await restartPasswordAge(tx, actor.adminId, input.email);
        if (target === null) throw AppError.notFound();
        await audit(tx, { ...auditSelf(actor, 'user.reset_password_expire'), subjectId: target });
      });
    },

    /** Page time of the signed-in user; the page's subject (a patient) must be of the path program. */
    async recordPageSession(
      actor: StaffActor,
      input: { path: string; time_s: number; name?: string | null; subject_id?: number | null },
    ): Promise<void> {
      const scope = scopeOf(actor);
      await assertBodyRefsInScope(db, scope, { patients: [input.subject_id] });
      await insertPageSession(db, {
        adminId: actor.adminId,
        programId: scope.programIds[0]!,
        path: input.path,
        timeS: input.time_s,
        name: input.name ?? null,
        subjectId: input.subject_id ?? null,
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
