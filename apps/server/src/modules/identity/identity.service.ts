import { randomInt, timingSafeEqual } from 'node:crypto';
import { INVALID_CREDENTIALS, PASSWORD_EXPIRED, type SignInResult } from '@caredeck/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { PublicActor, StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../platform/auth/common-passwords';
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
  recordEvent,
  releaseAttempts,
  takeAttempt,
} from '../../platform/http/rate-limit';
import { enqueueEmail } from '../../platform/outbox/outbox';
import type { Realtime } from '../../platform/realtime/realtime';
import {
  type AdminAuthRow,
  applyRegistration,
  burnCodes,
  confirmEmail,
  countCodeAttempts,
  createCode,
  findAdminByEmail,
  findAdminById,
  insertRegisteredAdmin,
  type LiveCode,
  liveCodes,
  markCodeUsed,
  type RegistrationAttempt,
  recordHipaaConsent,
  revokeOtherSessions,
  sessionToEnd,
  setPassword,
} from './identity.queries';

export type IdentityDeps = {
  db: Database;
  tokens: TokenService;
  config: Config;
  realtime: Realtime;
  log?: FastifyBaseLogger;
};
/** What a sign-in step produces: the answer, and a refresh token to set as a cookie once fully signed in. */
export type SignInOutcome = { result: SignInResult; refreshToken?: string };

const CODE_TTL_MINUTES = 15;
/** Wrong guesses after which a code is spent (answering 422 like any wrong code, never 429). */
const CODE_MAX_ATTEMPTS = 10;
const FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
const FAILURES_PER_ADDRESS = 30;
const FAILURE_WINDOW_SECONDS = 15 * 60;
/** Codes one address may have sent to one account per window: a stranger's requests never use the owner's. */
const CODES_PER_ACCOUNT_AND_ADDRESS = 3;
const CODE_REQUESTS_PER_ADDRESS = 20;
/** Code guesses per e-mail and address, and per address: counted alike for real and unknown e-mails. */
const CODE_GUESSES_PER_EMAIL_AND_ADDRESS = 5;
const CODE_GUESSES_PER_ADDRESS = 30;
/** Wrong current passwords per account before PUT user/password answers 429. */
const PASSWORD_CHECKS_PER_ACCOUNT = 5;
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
   * Checks a code. Guesses are limited per e-mail and address and per address, the same way for an
   * unknown e-mail as for a real one, so neither the 429 nor its timing tells whether an account
   * exists. A wrong guess is counted on every live code of the account in its own transaction (so it
   * stays counted although the use case fails); a code with too many wrong guesses is spent.
   */
  async function checkCode(
    email: string,
    admin: AdminAuthRow | null,
    purpose: 'reset_password' | 'confirm_registration',
    code: string,
    ip: string,
  ): Promise<LiveCode> {
    const attempt = await takeAttempt(db, [
      {
        key: `code-guess:${purpose}:${email}:${ip}`,
        max: CODE_GUESSES_PER_EMAIL_AND_ADDRESS,
        windowSeconds: CODE_WINDOW_SECONDS,
      },
      { key: `code-guess-ip:${ip}`, max: CODE_GUESSES_PER_ADDRESS, windowSeconds: CODE_WINDOW_SECONDS },
    ]);
    const match = admin
      ? await db.transaction(async (tx) => {
          const rows = await liveCodes(tx, admin.id, purpose);
          const hash = sha256(`${admin.id}:${code}`);
          const found = rows.find((r) => r.attempts < CODE_MAX_ATTEMPTS && sameHash(r.code_hash, hash));
          if (!found)
            await countCodeAttempts(
              tx,
              rows.map((r) => r.id),
            );
          return found ?? null;
        })
      : null;
    if (!match) throw AppError.validation({ code: [INVALID_CODE] });
    await releaseAttempts(db, attempt);
    return match;
  }

  async function consumeCode(tx: Queryable, codeId: number): Promise<void> {
    if (!(await markCodeUsed(tx, codeId))) throw AppError.validation({ code: [INVALID_CODE] });
  }

  /**
   * Issues a code unless this address already asked this account for three in the window: silently,
   * so the answer stays uniform. The quota is per address and account, so a stranger's requests never
   * use up the owner's.
   */
  async function sendCode(
    tx: Queryable,
    admin: AdminAuthRow,
    purpose: 'reset_password' | 'confirm_registration',
    ip: string,
    registration: RegistrationAttempt | null = null,
  ): Promise<void> {
    const quotaKey = `code:${purpose}:${admin.id}:${ip}`;
    await lockKey(tx, quotaKey);
    const full = await limitReached(tx, {
      key: quotaKey,
      max: CODES_PER_ACCOUNT_AND_ADDRESS,
      windowSeconds: CODE_WINDOW_SECONDS,
    });
    if (full) return;
    await recordEvent(tx, quotaKey);
    const code = newCode();
    await createCode(tx, admin.id, purpose, sha256(`${admin.id}:${code}`), CODE_TTL_MINUTES, registration);
    const reset = purpose === 'reset_password';
    await enqueueEmail(tx, {
      to: admin.email,
      template: purpose,
      subject: reset ? 'Your CareDeck password reset code' : 'Confirm your CareDeck account',
      text: `Hello ${registration?.given_name ?? admin.given_name},\n\nYour ${reset ? 'password reset' : 'confirmation'} code is ${code}. It expires in ${CODE_TTL_MINUTES} minutes.${reset ? '' : ' It confirms the registration made with the password chosen at the time of this request.'}\n\nIf you did not ask for it, ignore this message.\n\nCareDeck (request from ${ip})`,
    });
  }

  /** Unhurried work of a request (looking up an account, issuing a code, mailing it) done after the answer. */
  const pending = new Set<Promise<void>>();
  function afterAnswer(work: () => Promise<void>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: Error) => deps.log?.warn({ err: { type: err.name } }, 'account mail work failed'))
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  function refuseCommonPassword(password: string): void {
    if (isCommonPassword(password)) throw AppError.validation({ password: [COMMON_PASSWORD_MESSAGE] });
  }

  async function guardCodeRequests(ip: string): Promise<void> {
    await takeAttempt(db, [
      { key: `code-ip:${ip}`, max: CODE_REQUESTS_PER_ADDRESS, windowSeconds: CODE_WINDOW_SECONDS },
    ]);
  }

  async function registerAfterAnswer(email: string, attempt: RegistrationAttempt, ip: string): Promise<void> {
    await db.transaction(async (tx) => {
      await lockKey(tx, `register:${email}`);
      const existing = await findAdminByEmail(tx, email);
      if (existing) {
        // Same answer as a new registration; an unconfirmed account gets a code for this attempt, a
        // confirmed one's owner is told.
        if (!existing.email_confirmed_at) return sendCode(tx, existing, 'confirm_registration', ip, attempt);
        await enqueueEmail(tx, {
          to: existing.email,
          template: 'registration_exists',
          subject: 'Someone tried to register your CareDeck address',
          text: `Hello ${existing.given_name},\n\nSomeone tried to create a CareDeck account with this address, which already has one. If it was you, sign in or reset your password.\n\nCareDeck`,
        });
        return;
      }
      const admin = await findAdminById(tx, await insertRegisteredAdmin(tx, email, attempt));
      await audit(tx, {
        actorAdminId: admin!.id,
        action: 'auth.register',
        subjectType: 'admin',
        subjectId: admin!.id,
        ip,
      });
      await sendCode(tx, admin!, 'confirm_registration', ip, attempt);
    });
  }

  return {
    /** Resolves when the work started after earlier answers is done (tests, graceful shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    async signIn(actor: PublicActor, input: { email: string; password: string }): Promise<SignInOutcome> {
      const { email, password } = input;
      const { ip } = actor;
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

    async completeNewPassword(
      actor: PublicActor,
      input: { challenge_token: string; password: string },
    ): Promise<SignInOutcome> {
      const { challenge_token: challengeToken, password } = input;
      const { ip } = actor;
      const admin = await challengedAdmin(challengeToken, 'newPassword');
      refuseCommonPassword(password);
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

    async completeMfa(
      actor: PublicActor,
      input: { challenge_token: string; code: string },
    ): Promise<SignInOutcome> {
      const { challenge_token: challengeToken, code } = input;
      const { ip } = actor;
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

    /** Answers the same at once for any address; the account's code is issued after the answer. */
    async forgotPassword(actor: PublicActor, input: { email: string }): Promise<void> {
      const { email } = input;
      const { ip } = actor;
      await guardCodeRequests(ip);
      afterAnswer(async () => {
        const admin = await findAdminByEmail(db, email);
        if (!admin || admin.disabled_at) return;
        await db.transaction((tx) => sendCode(tx, admin, 'reset_password', ip));
      });
    },

    async resetPassword(
      actor: PublicActor,
      input: { email: string; code: string; password: string },
    ): Promise<void> {
      const { email, code, password } = input;
      const { ip } = actor;
      const found = await findAdminByEmail(db, email);
      const admin = found && !found.disabled_at ? found : null;
      const codeRow = await checkCode(email, admin, 'reset_password', code, ip);
      refuseCommonPassword(password);
      const hashed = await hashPassword(password);
      if (!admin) throw AppError.validation({ code: [INVALID_CODE] });
      await db.transaction(async (tx) => {
        await consumeCode(tx, codeRow.id);
        await setPassword(tx, admin.id, hashed);
        // A reset proves control of the mailbox, which is what confirmation asks for.
        await confirmEmail(tx, admin.id);
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

    /**
     * Answers the same, at the same speed, for a new and a known address: the password is checked and
     * hashed on the request path, everything that depends on the address after the answer. Each
     * attempt's code carries that attempt's name and password: confirming applies them (issue 5 §5).
     */
    async register(
      actor: PublicActor,
      body: { given_name: string; family_name: string; email: string; password: string },
    ): Promise<void> {
      const { ip } = actor;
      await guardCodeRequests(ip);
      refuseCommonPassword(body.password);
      const hashed = await hashPassword(body.password);
      const attempt: RegistrationAttempt = {
        given_name: body.given_name,
        family_name: body.family_name,
        password_hash: hashed,
      };
      afterAnswer(() => registerAfterAnswer(body.email, attempt, ip));
    },

    async confirmRegistration(actor: PublicActor, input: { email: string; code: string }): Promise<void> {
      const { email, code } = input;
      const { ip } = actor;
      const found = await findAdminByEmail(db, email);
      const admin = found && !found.disabled_at && !found.email_confirmed_at ? found : null;
      const codeRow = await checkCode(email, admin, 'confirm_registration', code, ip);
      if (!admin) throw AppError.validation({ code: [INVALID_CODE] });
      await db.transaction(async (tx) => {
        await consumeCode(tx, codeRow.id);
        const chosen = codeRow.registration;
        if (chosen) await applyRegistration(tx, admin.id, chosen);
        // The other attempts' codes die with the confirmation.
        await burnCodes(tx, admin.id, 'confirm_registration');
        await confirmEmail(tx, admin.id);
        await audit(tx, {
          actorAdminId: admin.id,
          action: 'auth.confirm_registration',
          subjectType: 'admin',
          subjectId: admin.id,
          ip,
        });
      });
    },

    async refresh(
      _actor: PublicActor,
      input: { refreshToken: string | undefined },
    ): Promise<{ accessToken: string; refreshToken: string; adminId: number }> {
      const presented = input.refreshToken;
      if (!presented) throw AppError.unauthenticated();
      const rotated = await db.transaction((tx) =>
        rotateRefreshToken(tx, presented, {
          ttlDays: config.REFRESH_TOKEN_TTL_DAYS,
          limits: sessionLimits(config),
          realm: 'staff',
          successorKey: config.ENCRYPTION_KEY,
        }),
      );
      if (!rotated.ok) {
        // A replayed refresh token revoked its session as stolen: its sockets close now, on every process.
        if (rotated.reason === 'reused') realtime.endSession(rotated.sessionId);
        throw AppError.unauthenticated('Session expired.');
      }
      const accessToken = await tokens.signAccess({
        sub: rotated.session.ownerId,
        sid: rotated.session.publicId,
        realm: 'staff',
        scope: 'full',
      });
      return { accessToken, refreshToken: rotated.refreshToken, adminId: rotated.session.ownerId };
    },

    /** Ends the session named by the access token or, failing that, by the refresh cookie. */
    async signOut(
      actor: PublicActor,
      input: { sessionPublicId: string | null; refreshToken: string | undefined },
    ): Promise<void> {
      const { sessionPublicId, refreshToken: refreshCookie } = input;
      const { ip } = actor;
      const ended = await db.transaction(async (tx) => {
        const session = await sessionToEnd(tx, {
          publicId: sessionPublicId,
          refreshHash: refreshCookie ? sha256(refreshCookie) : null,
        });
        if (!session) return null;
        const sid = session.id;
        await revokeSession(tx, sid, 'sign_out');
        await audit(tx, {
          actorAdminId: session.admin_id,
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
    async consentHipaa(actor: StaffActor): Promise<SignInOutcome> {
      const { adminId, sessionId, ip } = actor;
      const session = { id: sessionId, publicId: actor.sessionPublicId };
      return db.transaction(async (tx) => {
        await recordHipaaConsent(tx, adminId, sessionId);
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
      actor: StaffActor,
      input: { current_password: string; password: string },
    ): Promise<void> {
      const { adminId, sessionId, ip } = actor;
      const { current_password: current, password: next } = input;
      const key = `password-check:${adminId}`;
      const attempt = await takeAttempt(db, [
        { key, max: PASSWORD_CHECKS_PER_ACCOUNT, windowSeconds: FAILURE_WINDOW_SECONDS },
        { key: `password-check-ip:${ip}`, max: FAILURES_PER_ADDRESS, windowSeconds: FAILURE_WINDOW_SECONDS },
      ]);
      const admin = await findAdminById(db, adminId);
      if (!admin || !(await verifyPassword(admin.password_hash, current))) {
        throw AppError.validation({ current_password: ['The current password is incorrect.'] });
      }
      await releaseAttempts(db, attempt);
      await clearEvents(db, key);
      refuseCommonPassword(next);
      if (await verifyPassword(admin.password_hash, next)) {
        throw AppError.validation({ password: ['The new password must differ from the current one.'] });
      }
      const hashed = await hashPassword(next);
      const ended = await db.transaction(async (tx) => {
        await setPassword(tx, adminId, hashed);
        // Other sessions end; this one stays signed in.
        const others = await revokeOtherSessions(tx, adminId, sessionId, 'password_changed');
        await audit(tx, {
          actorAdminId: adminId,
          action: 'user.change_password',
          subjectType: 'admin',
          subjectId: adminId,
          ip,
        });
        return others;
      });
      // Their sockets close now, on every process (as at sign-out), before the answer: not at the next check.
      for (const id of ended) realtime.endSession(id);
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
