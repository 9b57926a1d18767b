import { INVALID_CREDENTIALS, PASSWORDS_DO_NOT_MATCH } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import {
  adminId,
  bearer,
  cookieOf,
  DEMO_PASSWORD,
  lastCodeSentTo,
  lastMailId,
  post,
  seedDemoData,
  signIn,
} from '../../test/flows';
import { testApp } from '../../test/harness';
import { createAdmin } from './identity.factories';

let app: App;
let db: Database;

beforeAll(async () => {
  ({ app, db } = await testApp());
  await seedDemoData(db);
});

const NEW_PASSWORD = 'Fresh-Password-2027';

describe('sign-in', () => {
  it('answers one message for a wrong password and for an unknown e-mail', async () => {
    const wrong = await post(app, '/api/auth/sign-in', {
      email: 'physician@caredeck.demo',
      password: 'nope-nope-nope',
    });
    const unknown = await post(app, '/api/auth/sign-in', {
      email: 'nobody@caredeck.demo',
      password: 'nope-nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: INVALID_CREDENTIALS });
    expect(unknown.json()).toEqual({ message: INVALID_CREDENTIALS });
    const audited = await db.execute<{ subject_id: number }>(
      sql`SELECT subject_id FROM audit_events WHERE action = 'auth.sign_in_failed'`,
    );
    expect(audited.rows.map((r) => r.subject_id)).toEqual([await adminId(db, 'physician@caredeck.demo')]);
  });

  it('lower-cases the e-mail and asks a user without HIPAA consent for it first', async () => {
    const res = await post(app, '/api/auth/sign-in', {
      email: '  Coordinator@CareDeck.demo ',
      password: DEMO_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('hipaa');
    expect(cookieOf(res)).toBeUndefined();
    const limited = bearer(body.access_token);

    // The limited token reads the user and gives consent, nothing else.
    const user = await app.inject({ method: 'GET', url: '/api/v1/user', headers: limited });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({ email: 'coordinator@caredeck.demo', hipaa_consented_at: null });
    const programs = await app.inject({ method: 'GET', url: '/api/v1/programs', headers: limited });
    expect(programs.statusCode).toBe(403);

    const consent = await app.inject({ method: 'PUT', url: '/api/v1/user/consent/hipaa', headers: limited });
    expect(consent.statusCode).toBe(200);
    expect(consent.json().status).toBe('signedIn');
    expect(cookieOf(consent)).toBeTruthy();
    const after = await app.inject({
      method: 'GET',
      url: '/api/v1/programs',
      headers: bearer(consent.json().access_token),
    });
    expect(after.statusCode).toBe(200);

    // Consent is remembered: the next sign-in goes straight in.
    const again = await post(app, '/api/auth/sign-in', {
      email: 'coordinator@caredeck.demo',
      password: DEMO_PASSWORD,
    });
    expect(again.json().status).toBe('signedIn');
  });

  it('answers 422 with an errors object for malformed input', async () => {
    const res = await post(app, '/api/auth/sign-in', { email: 'not-an-email', password: '' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'password']);
    expect(typeof body.message).toBe('string');
  });

  it('refuses an expired password with 403 password_expired, and not before the password is right', async () => {
    await createAdmin(db, {
      email: 'old@caredeck.demo',
      password: DEMO_PASSWORD,
      hipaaConsented: true,
      passwordChangedAt: new Date(Date.now() - 100 * 86_400_000),
    });
    const wrong = await post(app, '/api/auth/sign-in', {
      email: 'old@caredeck.demo',
      password: 'wrong-password-1',
    });
    expect(wrong.statusCode).toBe(401);
    const res = await post(app, '/api/auth/sign-in', { email: 'old@caredeck.demo', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('password_expired');
  });

  it('asks a user created with a temporary password for a new one, then signs in', async () => {
    await createAdmin(db, {
      email: 'temp@caredeck.demo',
      password: 'Temporary-Pass-1',
      mustChangePassword: true,
      hipaaConsented: true,
    });
    const res = await post(app, '/api/auth/sign-in', {
      email: 'temp@caredeck.demo',
      password: 'Temporary-Pass-1',
    });
    expect(res.json().status).toBe('newPassword');
    const challenge = res.json().challenge_token;

    const mismatch = await post(app, '/api/auth/new-password', {
      challenge_token: challenge,
      password: NEW_PASSWORD,
      password_confirmation: 'other',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password_confirmation).toEqual([PASSWORDS_DO_NOT_MATCH]);

    const done = await post(app, '/api/auth/new-password', {
      challenge_token: challenge,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().status).toBe('signedIn');
    // The challenge dies with the password it was issued for.
    const replay = await post(app, '/api/auth/new-password', {
      challenge_token: challenge,
      password: 'Another-Pass-2028',
      password_confirmation: 'Another-Pass-2028',
    });
    expect(replay.statusCode).toBe(401);
    const next = await post(app, '/api/auth/sign-in', {
      email: 'temp@caredeck.demo',
      password: NEW_PASSWORD,
    });
    expect(next.json().status).toBe('signedIn');
  });

  it('challenges a user with MFA for a TOTP code', async () => {
    await createAdmin(db, { email: 'mfa@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
    const { token } = await signIn(app, 'mfa@caredeck.demo');
    const setup = await post(app, '/api/v1/user/mfa/setup', undefined, bearer(token));
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json();
    expect(otpauth_url).toContain('otpauth://totp/');
    const bad = await post(app, '/api/v1/user/mfa/enable', { code: '000000' }, bearer(token));
    expect(bad.statusCode).toBe(422);
    const enabledWith = generateSync({ secret });
    const enable = await post(app, '/api/v1/user/mfa/enable', { code: enabledWith }, bearer(token));
    expect(enable.statusCode).toBe(204);

    const res = await post(app, '/api/auth/sign-in', { email: 'mfa@caredeck.demo', password: DEMO_PASSWORD });
    expect(res.json().status).toBe('mfa');
    // The code that turned MFA on is spent: it cannot sign in (RFC 6238 §5.2).
    const replay = await post(app, '/api/auth/mfa', {
      challenge_token: res.json().challenge_token,
      code: enabledWith,
    });
    expect(replay.statusCode).toBe(422);
    const wrong = await post(app, '/api/auth/mfa', {
      challenge_token: res.json().challenge_token,
      code: '12345',
    });
    expect(wrong.statusCode).toBe(422);
    // The next step's code (the user's clock a little ahead) is within tolerance and not yet spent.
    const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const ok = await post(app, '/api/auth/mfa', { challenge_token: res.json().challenge_token, code: next });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe('signedIn');
  });

  it('rate-limits failures per account and address without locking the owner out elsewhere', async () => {
    await createAdmin(db, { email: 'target@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
    const attacker = '203.0.113.7';
    for (let i = 0; i < 5; i++) {
      const r = await post(
        app,
        '/api/auth/sign-in',
        { email: 'target@caredeck.demo', password: `guess-${i}-xxxxx` },
        {},
        attacker,
      );
      expect(r.statusCode).toBe(401);
    }
    const blocked = await post(
      app,
      '/api/auth/sign-in',
      { email: 'target@caredeck.demo', password: DEMO_PASSWORD },
      {},
      attacker,
    );
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const owner = await post(
      app,
      '/api/auth/sign-in',
      { email: 'target@caredeck.demo', password: DEMO_PASSWORD },
      {},
      '198.51.100.20',
    );
    expect(owner.statusCode).toBe(200);
  });
});

it('holds the sign-in limit against parallel guesses', async () => {
  await createAdmin(db, { email: 'parallel@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
  const guesses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      post(
        app,
        '/api/auth/sign-in',
        { email: 'parallel@caredeck.demo', password: `guess-${i}-yyyyy` },
        {},
        '203.0.113.9',
      ),
    ),
  );
  const codes = guesses.map((g) => g.statusCode);
  expect(codes.filter((c) => c === 401)).toHaveLength(5);
  expect(codes.filter((c) => c === 429)).toHaveLength(7);
});

describe('session', () => {
  it('rotates the refresh token and revokes the session when a used one comes back', async () => {
    const { token, refresh } = await signIn(app, 'physician@caredeck.demo');
    const first = await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${refresh}` });
    expect(first.statusCode).toBe(200);
    const rotated = cookieOf(first)!;
    expect(rotated).not.toBe(refresh);
    expect(first.json().access_token).toBeTruthy();
    const cookieHeader = String(first.headers['set-cookie']);
    expect(cookieHeader).toMatch(/HttpOnly/i);
    expect(cookieHeader).toMatch(/SameSite=Strict/i);

    // Within seconds, the old token again is a second tab refreshing at once: it gets the same successor
    // (issue 5 §5), not a token of its own, so the session's tokens do not multiply.
    for (let i = 0; i < 3; i++) {
      const concurrent = await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${refresh}` });
      expect(concurrent.statusCode).toBe(200);
      expect(cookieOf(concurrent)).toBe(rotated);
    }
    const live = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id
          WHERE t.used_at IS NULL AND s.admin_id = ${await adminId(db, 'physician@caredeck.demo')} AND s.revoked_at IS NULL
            AND t.token_hash = encode(sha256(${rotated}::bytea), 'hex')`,
    );
    expect(live.rows[0]?.n).toBe(1);

    // Later, the old token again: theft is assumed and the whole session ends.
    await db.execute(
      sql`UPDATE refresh_tokens SET used_at = now() - interval '1 minute' WHERE used_at IS NOT NULL`,
    );
    const reuse = await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${refresh}` });
    expect(reuse.statusCode).toBe(401);
    const afterReuse = await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${rotated}` });
    expect(afterReuse.statusCode).toBe(401);
    const me = await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) });
    expect(me.statusCode).toBe(401);
  });

  it('answers the user with the new token when asked (?include=user), as GET /api/v1/user does', async () => {
    const { refresh } = await signIn(app, 'physician@caredeck.demo');
    const plain = await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${refresh}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().user).toBeUndefined();

    const withUser = await post(app, '/api/auth/refresh?include=user', undefined, {
      cookie: `cd_refresh=${cookieOf(plain)}`,
    });
    expect(withUser.statusCode).toBe(200);
    const me = await app.inject({
      method: 'GET',
      url: '/api/v1/user',
      headers: bearer(withUser.json().access_token),
    });
    expect(withUser.json().user).toEqual(me.json());

    const bad = await post(app, '/api/auth/refresh?include=everything', undefined, {
      cookie: `cd_refresh=${cookieOf(withUser)}`,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.include).toBeDefined();
    // No cookie at all (a first visit): nothing to renew, answered without an error status.
    const none = await post(app, '/api/auth/refresh?include=user');
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    // A cookie that is not a session's is refused.
    const forged = await post(app, '/api/auth/refresh?include=user', undefined, {
      cookie: 'cd_refresh=forged',
    });
    expect(forged.statusCode).toBe(401);
  });

  it('signs out: the access token and the refresh token stop working', async () => {
    const { token, refresh } = await signIn(app, 'physician@caredeck.demo');
    const out = await post(app, '/api/auth/sign-out', undefined, {
      ...bearer(token),
      cookie: `cd_refresh=${refresh}`,
    });
    expect(out.statusCode).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect(
      (await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${refresh}` })).statusCode,
    ).toBe(401);
  });

  it('expires a session idle past the time-out on the server', async () => {
    const { token, refresh } = await signIn(app, 'physician@caredeck.demo');
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) })).statusCode,
    ).toBe(200);
    await db.execute(
      sql`UPDATE auth_sessions SET last_activity_at = now() - interval '16 minutes' WHERE revoked_at IS NULL`,
    );
    const res = await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    expect(
      (await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${refresh}` })).statusCode,
    ).toBe(401);
  });

  it('ends an active session at the absolute lifetime', async () => {
    const { token, refresh } = await signIn(app, 'physician@caredeck.demo');
    await db.execute(
      sql`UPDATE auth_sessions SET created_at = now() - interval '13 hours' WHERE revoked_at IS NULL`,
    );
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect(
      (await post(app, '/api/auth/refresh', undefined, { cookie: `cd_refresh=${refresh}` })).statusCode,
    ).toBe(401);
  });

  it('revokes the sessions of a disabled user', async () => {
    const u = await createAdmin(db, {
      email: 'leaver@caredeck.demo',
      password: DEMO_PASSWORD,
      hipaaConsented: true,
    });
    const { token } = await signIn(app, u.email);
    await db.execute(sql`UPDATE admins SET disabled_at = now() WHERE id = ${u.id}`);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) })).statusCode,
    ).toBe(401);
    const again = await post(app, '/api/auth/sign-in', { email: u.email, password: DEMO_PASSWORD });
    expect(again.statusCode).toBe(401);
  });

  it('answers 401 without a token and with a forged one', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/user' })).statusCode).toBe(401);
    const forged = await app.inject({
      method: 'GET',
      url: '/api/v1/user',
      headers: bearer('eyJhbGciOiJIUzI1NiJ9.e30.x'),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toHaveProperty('message');
  });
});

describe('codes by e-mail', () => {
  it('resets a forgotten password with the e-mailed code; always answers 200', async () => {
    await createAdmin(db, {
      email: 'forgetful@caredeck.demo',
      password: DEMO_PASSWORD,
      hipaaConsented: true,
    });
    const unknown = await post(app, '/api/auth/forgot-password', { email: 'ghost@caredeck.demo' });
    const known = await post(app, '/api/auth/forgot-password', { email: 'forgetful@caredeck.demo' });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());

    const code = await lastCodeSentTo(db, 'forgetful@caredeck.demo');
    const wrongCode = code === '000000' ? '111111' : '000000';
    const bad = await post(app, '/api/auth/reset-password', {
      email: 'forgetful@caredeck.demo',
      code: wrongCode,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('code');
    const ok = await post(app, '/api/auth/reset-password', {
      email: 'forgetful@caredeck.demo',
      code,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(ok.statusCode).toBe(200);
    // Single use.
    const reuse = await post(app, '/api/auth/reset-password', {
      email: 'forgetful@caredeck.demo',
      code,
      password: 'Third-Password-99',
      password_confirmation: 'Third-Password-99',
    });
    expect(reuse.statusCode).toBe(422);
    expect(
      (await post(app, '/api/auth/sign-in', { email: 'forgetful@caredeck.demo', password: DEMO_PASSWORD }))
        .statusCode,
    ).toBe(401);
    expect(
      (await post(app, '/api/auth/sign-in', { email: 'forgetful@caredeck.demo', password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });

  it('expires codes and stops guessing after five wrong tries', async () => {
    await createAdmin(db, { email: 'guessed@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
    await post(app, '/api/auth/forgot-password', { email: 'guessed@caredeck.demo' });
    const code = await lastCodeSentTo(db, 'guessed@caredeck.demo');
    const wrong = code === '000000' ? '111111' : '000000';
    const body = {
      email: 'guessed@caredeck.demo',
      code: wrong,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    };
    for (let i = 0; i < 5; i++)
      expect((await post(app, '/api/auth/reset-password', body)).statusCode, `try ${i + 1}`).toBe(422);
    expect((await post(app, '/api/auth/reset-password', { ...body, code })).statusCode).toBe(429);

    // From another address the owner can still ask for a code and use it, until it expires.
    const before = await lastMailId(db);
    await post(app, '/api/auth/forgot-password', { email: 'guessed@caredeck.demo' }, {}, '10.9.9.9');
    const fresh = await lastCodeSentTo(db, 'guessed@caredeck.demo', before);
    await db.execute(sql`UPDATE auth_codes SET expires_at = now() - interval '1 minute'`);
    expect(
      (await post(app, '/api/auth/reset-password', { ...body, code: fresh }, {}, '10.9.9.9')).statusCode,
    ).toBe(422);
  });

  it('registers, refuses sign-in until confirmed, then confirms with the code', async () => {
    const reg = {
      given_name: 'Nora',
      family_name: 'Kim',
      email: 'Nora.Kim@Clinic.example',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    };
    const mismatch = await post(app, '/api/auth/register', { ...reg, password_confirmation: 'x' });
    expect(mismatch.statusCode).toBe(422);
    const res = await post(app, '/api/auth/register', reg);
    expect(res.statusCode).toBe(200);
    // The account is written just after the answer, with the code's mail.
    const code = await lastCodeSentTo(db, 'nora.kim@clinic.example');
    const early = await post(app, '/api/auth/sign-in', {
      email: 'nora.kim@clinic.example',
      password: NEW_PASSWORD,
    });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe('User is not confirmed.');
    const ok = await post(app, '/api/auth/confirm-registration', { email: 'nora.kim@clinic.example', code });
    expect(ok.statusCode).toBe(200);
    const signedIn = await post(app, '/api/auth/sign-in', {
      email: 'nora.kim@clinic.example',
      password: NEW_PASSWORD,
    });
    expect(signedIn.json().status).toBe('hipaa');
    // Registering an existing address answers the same, without a second account.
    const dup = await post(app, '/api/auth/register', reg);
    expect(dup.statusCode).toBe(200);
    expect(dup.json()).toEqual(res.json());
  });
});

describe('user calls', () => {
  it('records login and logout logs, only for the caller', async () => {
    const { token } = await signIn(app, 'physician@caredeck.demo');
    const log = await app.inject({ method: 'PUT', url: '/api/v1/user/login_log', headers: bearer(token) });
    expect(log.statusCode).toBe(200);
    const id = log.json().id;
    const other = await signIn(app, 'coordinator@caredeck.demo');
    expect(
      (await app.inject({ method: 'PUT', url: `/api/v1/logout_log/${id}`, headers: bearer(other.token) }))
        .statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'PUT', url: `/api/v1/logout_log/${id}`, headers: bearer(token) }))
        .statusCode,
    ).toBe(204);
    const row = await db.execute<{ logout_at: string | null }>(
      sql`SELECT logout_at FROM login_logs WHERE id = ${id}`,
    );
    expect(row.rows[0]?.logout_at).not.toBeNull();
  });

  it('updates the profile, validates it, and changes the password', async () => {
    await createAdmin(db, { email: 'profile@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
    const { token } = await signIn(app, 'profile@caredeck.demo');
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: bearer(token),
      payload: { given_name: '', family_name: 'X', tz: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['given_name', 'tz']);
    const ok = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: bearer(token),
      payload: {
        given_name: ' Ada ',
        family_name: 'Lovelace',
        tz: 'America/Detroit',
        language: 'de',
        theme: 'semi-dark',
      },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      given_name: 'Ada',
      tz: 'America/Detroit',
      settings: { language: 'de', theme: 'semi-dark' },
    });

    const wrong = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/password',
      headers: bearer(token),
      payload: { current_password: 'nope', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toHaveProperty('current_password');
    const weak = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/password',
      headers: bearer(token),
      payload: { current_password: DEMO_PASSWORD, password: 'short', password_confirmation: 'short' },
    });
    expect(weak.statusCode).toBe(422);
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/password',
      headers: bearer(token),
      payload: {
        current_password: DEMO_PASSWORD,
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(changed.statusCode).toBe(204);
    expect(
      (await post(app, '/api/auth/sign-in', { email: 'profile@caredeck.demo', password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });

  it('returns the v2 user with realtime keys and the internal-staff flag', async () => {
    const { token } = await signIn(app, 'admin@caredeck.demo');
    const v2 = await app.inject({ method: 'GET', url: '/api/v2/user', headers: bearer(token) });
    expect(v2.statusCode).toBe(200);
    const body = v2.json();
    expect(body.realtime).toEqual({
      key: expect.any(String),
      cluster: expect.any(String),
      path: '/socket.io',
    });
    expect(body.is_internal).toBe(true);
    expect(body.programs.map((p: { slug: string }) => p.slug)).toEqual(['caredeck', 'northwind-cardiology']);
    expect(body.roles).toContainEqual({ name: 'admin', program_id: 1, enterprise_id: null });
    expect(body.permissions).toContain('admins.manage');
  });

  it('lets an administrator restart the password age of staff they administer, and nobody their own (ADR 013)', async () => {
    const expire = (token: string, email: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/user/reset-password-expire',
        headers: bearer(token),
        payload: { email },
      });
    const physician = (await signIn(app, 'physician@caredeck.demo')).token;
    const admin = (await signIn(app, 'admin@caredeck.demo')).token;
    // Not an administrator: another account is not theirs to extend, and their own takes a password change.
    expect((await expire(physician, 'coordinator@caredeck.demo')).statusCode).toBe(404);
    expect((await expire(physician, 'physician@caredeck.demo')).statusCode).toBe(403);
    expect((await expire(admin, 'admin@caredeck.demo')).statusCode).toBe(403);
    // Staff of another enterprise and unknown addresses answer the same 404.
    const foreign = await expire(admin, 'outsider@caredeck.demo');
    const unknown = await expire(admin, 'nobody@caredeck.demo');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    await db.execute(
      sql`UPDATE admins SET password_changed_at = now() - interval '200 days' WHERE email = 'physician@caredeck.demo'`,
    );
    expect((await expire(admin, 'physician@caredeck.demo')).statusCode).toBe(204);
    const age = await db.execute<{ fresh: boolean }>(
      sql`SELECT password_changed_at > now() - interval '1 minute' AS fresh FROM admins WHERE email = 'physician@caredeck.demo'`,
    );
    expect(age.rows[0]?.fresh).toBe(true);
    const audit = await db.execute(
      sql`SELECT 1 FROM audit_events WHERE action = 'user.reset_password_expire'
          AND actor_admin_id = ${await adminId(db, 'admin@caredeck.demo')}
          AND subject_id = ${await adminId(db, 'physician@caredeck.demo')}`,
    );
    expect(audit.rowCount).toBe(1);
  });
});

describe('controller realm', () => {
  it('keeps controller and staff tokens apart', async () => {
    const controller = await post(app, '/api/auth/controller/sign-in', {
      email: 'controller@caredeck.demo',
      password: DEMO_PASSWORD,
    });
    expect(controller.statusCode).toBe(200);
    const ctoken = controller.json().access_token;
    const { token: staff } = await signIn(app, 'admin@caredeck.demo');
    expect(
      (await app.inject({ method: 'GET', url: '/api/controller/me', headers: bearer(ctoken) })).json(),
    ).toMatchObject({ email: 'controller@caredeck.demo' });
    expect(
      (await app.inject({ method: 'GET', url: '/api/controller/me', headers: bearer(staff) })).statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(ctoken) })).statusCode,
    ).toBe(401);
    // A staff login is not a controller login.
    expect(
      (
        await post(app, '/api/auth/controller/sign-in', {
          email: 'admin@caredeck.demo',
          password: DEMO_PASSWORD,
        })
      ).statusCode,
    ).toBe(401);
    const out = await post(app, '/api/auth/controller/sign-out', undefined, bearer(ctoken));
    expect(out.statusCode).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: '/api/controller/me', headers: bearer(ctoken) })).statusCode,
    ).toBe(401);
  });
});
