import { randomInt, timingSafeEqual } from 'node:crypto';
import { INVALID_CREDENTIALS, PASSWORD_EXPIRED, type SignInResult } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import { audit } from '../../platform/audit/audit';
import { hashPassword, passwordMatches, verifyPassword } from '../../platform/auth/passwords';
import { createSecretBox } from '../../platform/auth/secret-box';
import {
  createSession,
  issueRefreshToken,
  revokeAllSessionsOf,
  revokeSession,
  rotateRefreshToken,
  sessionLimits,
  sha256,
} from '../../platform/auth/sessions';
import type { TokenService } from '../../platform/auth/tokens';
import { spendTotpCode } from '../../platform/auth/totp';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import {
  clearEvents,
  limitReached,
  lockKey,
  releaseAttempts,
  takeAttempt,
} from '../../platform/http/rate-limit';
import { enqueueEmail } from '../../platform/outbox/outbox';
import type { Realtime } from '../../platform/realtime/realtime';
import {
  type AdminAuthRow,
  createCode,
  findAdminByEmail,
  findAdminById,
  liveCode,
  setPassword,
} from './identity.queries';

export type IdentityDeps = { db: Database; tokens: TokenService; config: Config; realtime: Realtime };
/** What a sign-in step produces: the answer, and a refresh token to set as a cookie once fully signed in. */
export type SignInOutcome = { result: SignInResult; refreshToken?: string };

const CODE_TTL_MINUTES = 15;
const CODE_MAX_ATTEMPTS = 5;
const FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
const FAILURES_PER_ADDRESS = 30;
const FAILURE_WINDOW_SECONDS = 15 * 60;
const CODES_PER_ACCOUNT = 3;
const CODE_REQUESTS_PER_ADDRESS = 20;
const CODE_WINDOW_SECONDS = 15 * 60;
const INVALID_CODE = 'Invalid verification code provided, please try again.';

function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function passwordVersion(admin: AdminAuthRow): number {
  return new Date(admin.password_changed_at).getTime();
}

export function passwordExpired(admin: AdminAuthRow, maxAgeDays: number, now = Date.now()): boolean {
  if (maxAgeDays === 0 || admin.must_change_password) return false;
  return now - new Date(admin.password_changed_at).getTime() > maxAgeDays * 86_400_000;
}

export function createIdentityService(deps: IdentityDeps) {
  const { db, tokens, config, realtime } = deps;
  const box = createSecretBox(config.ENCRYPTION_KEY);

  /** After the password (and any challenge) is satisfied: the next challenge, or a session. */
  async function continueSignIn(
    tx: Queryable,
    admin: AdminAuthRow,
    ip: string,
    done: { newPassword?: boolean; mfa?: boolean },
  ): Promise<SignInOutcome> {
    if (admin.must_change_password && !done.newPassword) {
      const challenge_token = await tokens.signChallenge({
        sub: admin.id,
        purpose: 'newPassword',
        pwv: passwordVersion(admin),
      });
      return { result: { status: 'newPassword', challenge_token } };
    }
    if (admin.mfa_enabled && !done.mfa) {
      const challenge_token = await tokens.signChallenge({
        sub: admin.id,
        purpose: 'mfa',
        pwv: passwordVersion(admin),
      });
      return { result: { status: 'mfa', challenge_token } };
    }
    const scope = admin.hipaa_consented_at ? 'full' : 'hipaa';
    const session = await createSession(tx, { realm: 'staff', adminId: admin.id }, scope);
    await audit(tx, {
      actorAdminId: admin.id,
      action: 'auth.sign_in',
      subjectType: 'admin',
      subjectId: admin.id,
      ip,
    });
    const access_token = await tokens.signAccess({
      sub: admin.id,
      sid: session.publicId,
      realm: 'staff',
      scope,
    });
    if (scope === 'hipaa')
      return { result: { status: 'hipaa', access_token, expires_in: tokens.accessTtlSeconds } };
    const refreshToken = await issueRefreshToken(tx, session.id, config.REFRESH_TOKEN_TTL_DAYS);
    return {
      result: { status: 'signedIn', access_token, expires_in: tokens.accessTtlSeconds },
      refreshToken,
    };
  }

  /** One sign-in attempt counted under the per account+address and per address limits. */
  function takeSignInAttempt(email: string, ip: string): Promise<number[]> {
    return takeAttempt(db, [
      {
        key: `signin:${email}:${ip}`,
        max: FAILURES_PER_ACCOUNT_AND_ADDRESS,
        windowSeconds: FAILURE_WINDOW_SECONDS,
      },
      { key: `signin-ip:${ip}`, max: FAILURES_PER_ADDRESS, windowSeconds: FAILURE_WINDOW_SECONDS },
    ]);
  }

  async function challengedAdmin(token: string, purpose: 'newPassword' | 'mfa'): Promise<AdminAuthRow> {
    const claims = await tokens.verifyChallenge(token, purpose);
    const admin = claims && (await findAdminById(db, claims.sub));
    // A challenge dies with the password it was issued for, so it cannot be replayed after a change.
    if (!claims || !admin || admin.disabled_at || passwordVersion(admin) !== claims.pwv) {
      throw AppError.unauthenticated('Your sign-in session has expired. Please sign in again.');
    }
    return admin;
  }

  /**
   * Checks a code in its own transaction so a wrong guess is counted even though the caller's
   * use case then fails; a matching code is consumed by the caller's transaction.
   */
  async function checkCode(
    admin: AdminAuthRow,
    purpose: 'reset_password' | 'confirm_registration',
    code: string,
  ): Promise<number> {
    const verdict = await db.transaction(async (tx) => {
      const row = await liveCode(tx, admin.id, purpose);
      if (!row) return 'invalid' as const;
      if (row.attempts >= CODE_MAX_ATTEMPTS) return 'locked' as const;
      if (!sameHash(row.code_hash, sha256(`${admin.id}:${code}`))) {
        await tx.execute(sql`UPDATE auth_codes SET attempts = attempts + 1 WHERE id = ${row.id}`);
        return 'invalid' as const;
      }
      return row.id;
    });
    if (verdict === 'locked') throw AppError.rateLimited(CODE_TTL_MINUTES * 60);
    if (verdict === 'invalid') throw AppError.validation({ code: [INVALID_CODE] });
    return verdict;
  }

  async function consumeCode(tx: Queryable, codeId: number): Promise<void> {
    const res = await tx.execute(
      sql`UPDATE auth_codes SET used_at = now() WHERE id = ${codeId} AND used_at IS NULL`,
    );
    if (!res.rowCount) throw AppError.validation({ code: [INVALID_CODE] });
  }

  /** Issues a code unless this account or address asked too often; silently, so the answer stays uniform. */
  async function sendCode(
    tx: Queryable,
    admin: AdminAuthRow,
    purpose: 'reset_password' | 'confirm_registration',
    ip: string,
  ): Promise<void> {
    const accountKey = `code:${purpose}:${admin.id}`;
    await lockKey(tx, accountKey);
    const full = await limitReached(tx, {
      key: accountKey,
      max: CODES_PER_ACCOUNT,
      windowSeconds: CODE_WINDOW_SECONDS,
    });
    if (full) return;
    await tx.execute(sql`INSERT INTO rate_limit_events (key) VALUES (${accountKey})`);
    const code = newCode();
    await createCode(tx, admin.id, purpose, sha256(`${admin.id}:${code}`), CODE_TTL_MINUTES);
    const reset = purpose === 'reset_password';
    await enqueueEmail(tx, {
      to: admin.email,
      template: purpose,
      subject: reset ? 'Your CareDeck password reset code' : 'Confirm your CareDeck account',
      text: `Hello ${admin.given_name},\n\nYour ${reset ? 'password reset' : 'confirmation'} code is ${code}. It expires in ${CODE_TTL_MINUTES} minutes.\n\nIf you did not ask for it, ignore this message.\n\nCareDeck (request from ${ip})`,
    });
  }

  async function guardCodeRequests(ip: string): Promise<void> {
    await takeAttempt(db, [
      { key: `code-ip:${ip}`, max: CODE_REQUESTS_PER_ADDRESS, windowSeconds: CODE_WINDOW_SECONDS },
    ]);
  }

  return {
    async signIn(email: string, password: string, ip: string): Promise<SignInOutcome> {
      const attempt = await takeSignInAttempt(email, ip);
      const admin = await findAdminByEmail(db, email);
      const valid = await passwordMatches(admin?.password_hash, password);
      // A failure stays counted; a success clears this account's failures from this address.
      if (!admin || !valid || admin.disabled_at) {
        // Failures on a real account are audited (for its owner's and security's eyes); typed e-mails are not kept.
        if (admin) {
          await audit(db, {
            actorAdminId: null,
            action: 'auth.sign_in_failed',
            subjectType: 'admin',
            subjectId: admin.id,
            ip,
          });
        }
        throw AppError.unauthenticated(INVALID_CREDENTIALS);
      }
      await releaseAttempts(db, attempt);
      await clearEvents(db, `signin:${email}:${ip}`);
      if (!admin.email_confirmed_at) throw new AppError('forbidden', 'User is not confirmed.');
      if (passwordExpired(admin, config.PASSWORD_MAX_AGE_DAYS))
        throw new AppError('forbidden', PASSWORD_EXPIRED);
      return db.transaction((tx) => continueSignIn(tx, admin, ip, {}));
    },

    async completeNewPassword(challengeToken: string, password: string, ip: string): Promise<SignInOutcome> {
      const admin = await challengedAdmin(challengeToken, 'newPassword');
      const hashed = await hashPassword(password);
      return db.transaction(async (tx) => {
        await setPassword(tx, admin.id, hashed);
        await audit(tx, {
          actorAdminId: admin.id,
          action: 'auth.new_password',
          subjectType: 'admin',
          subjectId: admin.id,
          ip,
        });
        return continueSignIn(tx, { ...admin, must_change_password: false }, ip, { newPassword: true });
      });
    },

    async completeMfa(challengeToken: string, code: string, ip: string): Promise<SignInOutcome> {
      const admin = await challengedAdmin(challengeToken, 'mfa');
      const key = `mfa:${admin.id}`;
      const attempt = await takeAttempt(db, [
        { key, max: FAILURES_PER_ACCOUNT_AND_ADDRESS, windowSeconds: FAILURE_WINDOW_SECONDS },
      ]);
      if (!(await db.transaction((tx) => spendTotpCode(tx, box, admin.id, admin.mfa_secret, code)))) {
        throw AppError.validation({ code: ['Invalid code received for user.'] });
      }
      await releaseAttempts(db, attempt);
      await clearEvents(db, key);
      return db.transaction((tx) => continueSignIn(tx, admin, ip, { newPassword: true, mfa: true }));
    },

    async forgotPassword(email: string, ip: string): Promise<void> {
      await guardCodeRequests(ip);
      const admin = await findAdminByEmail(db, email);
      if (!admin || admin.disabled_at) return;
      await db.transaction((tx) => sendCode(tx, admin, 'reset_password', ip));
    },

    async resetPassword(email: string, code: string, password: string, ip: string): Promise<void> {
      const admin = await findAdminByEmail(db, email);
      if (!admin || admin.disabled_at) throw AppError.validation({ code: [INVALID_CODE] });
      const codeId = await checkCode(admin, 'reset_password', code);
      const hashed = await hashPassword(password);
      await db.transaction(async (tx) => {
        await consumeCode(tx, codeId);
        await setPassword(tx, admin.id, hashed);
        // A reset proves control of the mailbox, which is what confirmation asks for.
        await tx.execute(
          sql`UPDATE admins SET email_confirmed_at = coalesce(email_confirmed_at, now()) WHERE id = ${admin.id}`,
        );
        await revokeAllSessionsOf(tx, admin.id, 'password_reset');
        await audit(tx, {
          actorAdminId: admin.id,
          action: 'auth.reset_password',
          subjectType: 'admin',
          subjectId: admin.id,
          ip,
        });
      });
      realtime.disconnectUser(admin.id);
    },

    async register(
      body: { given_name: string; family_name: string; email: string; password: string },
      ip: string,
    ): Promise<void> {
      await guardCodeRequests(ip);
      const hashed = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        const existing = await findAdminByEmail(tx, body.email);
        if (existing) {
          // Same answer as a new registration; the owner of the address is told instead.
          if (!existing.email_confirmed_at) return sendCode(tx, existing, 'confirm_registration', ip);
          await enqueueEmail(tx, {
            to: existing.email,
            template: 'registration_exists',
            subject: 'Someone tried to register your CareDeck address',
            text: `Hello ${existing.given_name},\n\nSomeone tried to create a CareDeck account with this address, which already has one. If it was you, sign in or reset your password.\n\nCareDeck`,
          });
          return;
        }
        const res = await tx.execute<{ id: number }>(sql`
          INSERT INTO admins (email, given_name, family_name, password_hash)
          VALUES (${body.email}, ${body.given_name}, ${body.family_name}, ${hashed}) RETURNING id`);
        const admin = await findAdminById(tx, res.rows[0]!.id);
        await audit(tx, {
          actorAdminId: admin!.id,
          action: 'auth.register',
          subjectType: 'admin',
          subjectId: admin!.id,
          ip,
        });
        await sendCode(tx, admin!, 'confirm_registration', ip);
      });
    },

    async confirmRegistration(email: string, code: string, ip: string): Promise<void> {
      const admin = await findAdminByEmail(db, email);
      if (!admin || admin.disabled_at || admin.email_confirmed_at)
        throw AppError.validation({ code: [INVALID_CODE] });
      const codeId = await checkCode(admin, 'confirm_registration', code);
      await db.transaction(async (tx) => {
        await consumeCode(tx, codeId);
        await tx.execute(sql`UPDATE admins SET email_confirmed_at = now() WHERE id = ${admin.id}`);
        await audit(tx, {
          actorAdminId: admin.id,
          action: 'auth.confirm_registration',
          subjectType: 'admin',
          subjectId: admin.id,
          ip,
        });
      });
    },

    async refresh(presented: string | undefined): Promise<{ accessToken: string; refreshToken: string }> {
      if (!presented) throw AppError.unauthenticated();
      const rotated = await db.transaction((tx) =>
        rotateRefreshToken(tx, presented, config.REFRESH_TOKEN_TTL_DAYS, sessionLimits(config), 'staff'),
      );
      if (!rotated.ok) throw AppError.unauthenticated('Session expired.');
      const accessToken = await tokens.signAccess({
        sub: rotated.session.ownerId,
        sid: rotated.session.publicId,
        realm: 'staff',
        scope: 'full',
      });
      return { accessToken, refreshToken: rotated.refreshToken };
    },

    /** Ends the session named by the access token or, failing that, by the refresh cookie. */
    async signOut(
      sessionPublicId: string | null,
      refreshCookie: string | undefined,
      ip: string,
    ): Promise<void> {
      const ended = await db.transaction(async (tx) => {
        let sid: number | null = null;
        if (sessionPublicId) {
          const res = await tx.execute<{ id: number }>(
            sql`SELECT id FROM auth_sessions WHERE public_id = ${sessionPublicId}`,
          );
          sid = res.rows[0]?.id ?? null;
        }
        if (!sid && refreshCookie) {
          const res = await tx.execute<{ session_id: number }>(
            sql`SELECT session_id FROM refresh_tokens WHERE token_hash = ${sha256(refreshCookie)}`,
          );
          sid = res.rows[0]?.session_id ?? null;
        }
        if (!sid) return null;
        const owner = await tx.execute<{ admin_id: number | null }>(
          sql`SELECT admin_id FROM auth_sessions WHERE id = ${sid}`,
        );
        await revokeSession(tx, sid, 'sign_out');
        await audit(tx, {
          actorAdminId: owner.rows[0]?.admin_id ?? null,
          action: 'auth.sign_out',
          subjectType: 'session',
          subjectId: sid,
          ip,
        });
        return sid;
      });
      if (ended) realtime.endSession(ended);
    },

    /** HIPAA consent upgrades the limited session to a full one. */
    async consentHipaa(
      adminId: number,
      session: { id: number; publicId: string },
      ip: string,
    ): Promise<SignInOutcome> {
      const sessionId = session.id;
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`UPDATE admins SET hipaa_consented_at = coalesce(hipaa_consented_at, now()), updated_at = now() WHERE id = ${adminId}`,
        );
        await tx.execute(sql`UPDATE auth_sessions SET scope = 'full' WHERE id = ${sessionId}`);
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.consent_hipaa',
          subjectType: 'admin',
          subjectId: adminId,
          ip,
        });
        const access_token = await tokens.signAccess({
          sub: adminId,
          sid: session.publicId,
          realm: 'staff',
          scope: 'full',
        });
        const refreshToken = await issueRefreshToken(tx, sessionId, config.REFRESH_TOKEN_TTL_DAYS);
        return {
          result: { status: 'signedIn', access_token, expires_in: tokens.accessTtlSeconds },
          refreshToken,
        };
      });
    },

    async changePassword(
      adminId: number,
      sessionId: number,
      current: string,
      next: string,
      ip: string,
    ): Promise<void> {
      const admin = await findAdminById(db, adminId);
      if (!admin || !(await verifyPassword(admin.password_hash, current))) {
        throw AppError.validation({ current_password: ['The current password is incorrect.'] });
      }
      if (await verifyPassword(admin.password_hash, next)) {
        throw AppError.validation({ password: ['The new password must differ from the current one.'] });
      }
      const hashed = await hashPassword(next);
      await db.transaction(async (tx) => {
        await setPassword(tx, adminId, hashed);
        // Other sessions end; this one stays signed in.
        await tx.execute(sql`
          UPDATE auth_sessions SET revoked_at = now(), revoked_reason = 'password_changed'
          WHERE admin_id = ${adminId} AND id <> ${sessionId} AND revoked_at IS NULL`);
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.change_password',
          subjectType: 'admin',
          subjectId: adminId,
          ip,
        });
      });
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
