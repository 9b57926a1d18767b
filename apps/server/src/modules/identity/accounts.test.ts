import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../platform/auth/common-passwords';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { bearer, DEMO_PASSWORD, lastCodeSentTo, lastMailId, post, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { createAdmin } from './identity.factories';

let app: App;
let db: Database;
beforeAll(async () => {
  ({ app, db } = await testApp());
  await db.execute(
    sql`INSERT INTO controller_accounts (email, name, password_hash) SELECT 'c@x.example', 'C', 'x' WHERE false`,
  );
});

const OWNER_PASSWORD = 'Owner-Chose-This-7';
const ATTACKER_PASSWORD = 'Attacker-Knows-9';
const registration = (email: string, password: string, given_name = 'Ana') => ({
  given_name,
  family_name: 'Lind',
  email,
  password,
  password_confirmation: password,
});

describe('registration cannot be taken over (issue 5 §5)', () => {
  it('applies the password of the attempt whose mailbox code confirms, not an earlier stranger’s', async () => {
    const email = 'ana.lind@clinic.example';
    const attacker = await post(
      app,
      '/api/auth/register',
      registration(email, ATTACKER_PASSWORD, 'Mallory'),
      {},
      '10.0.0.66',
    );
    expect(attacker.statusCode).toBe(200);
    const attackerCode = await lastCodeSentTo(db, email);
    const before = await lastMailId(db);
    const owner = await post(app, '/api/auth/register', registration(email, OWNER_PASSWORD), {}, '10.0.0.7');
    expect(owner.json()).toEqual(attacker.json());
    const ownerCode = await lastCodeSentTo(db, email, before);
    expect(ownerCode).not.toBe(attackerCode);

    const confirm = await post(
      app,
      '/api/auth/confirm-registration',
      { email, code: ownerCode },
      {},
      '10.0.0.7',
    );
    expect(confirm.statusCode).toBe(200);
    const withAttackers = await post(app, '/api/auth/sign-in', { email, password: ATTACKER_PASSWORD });
    expect(withAttackers.statusCode).toBe(401);
    const withOwners = await post(app, '/api/auth/sign-in', { email, password: OWNER_PASSWORD });
    expect(withOwners.json().status).toBe('hipaa');
    const name = await db.execute<{ given_name: string }>(
      sql`SELECT given_name FROM admins WHERE email = ${email}`,
    );
    expect(name.rows[0]?.given_name).toBe('Ana');
    // The stranger's code died with the confirmation.
    const late = await post(
      app,
      '/api/auth/confirm-registration',
      { email, code: attackerCode },
      {},
      '10.0.0.66',
    );
    expect(late.statusCode).toBe(422);
  });
});

describe('code limits that strangers cannot use against an owner (issue 5 §5)', () => {
  it('keeps the owner’s reset-code quota their own', async () => {
    const email = 'quota@caredeck.demo';
    await createAdmin(db, { email, password: DEMO_PASSWORD, hipaaConsented: true });
    for (let i = 0; i < 6; i++) await post(app, '/api/auth/forgot-password', { email }, {}, '10.1.0.1');
    await app.inject({ method: 'GET', url: '/healthz' });
    const before = await lastMailId(db);
    expect((await post(app, '/api/auth/forgot-password', { email }, {}, '10.1.0.2')).statusCode).toBe(200);
    const code = await lastCodeSentTo(db, email, before);
    const reset = await post(
      app,
      '/api/auth/reset-password',
      { email, code, password: 'Fresh-Owner-Pass-3', password_confirmation: 'Fresh-Owner-Pass-3' },
      {},
      '10.1.0.2',
    );
    expect(reset.statusCode).toBe(200);
  });

  it('limits wrong codes the same way for real and unknown addresses', async () => {
    await createAdmin(db, { email: 'real@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
    await post(app, '/api/auth/forgot-password', { email: 'real@caredeck.demo' }, {}, '10.2.0.1');
    await lastCodeSentTo(db, 'real@caredeck.demo');
    const answers: Record<string, number[]> = {};
    for (const [email, ip] of [
      ['real@caredeck.demo', '10.2.0.2'],
      ['nobody@caredeck.demo', '10.2.0.3'],
    ] as const) {
      answers[email] = [];
      for (let i = 0; i < 6; i++) {
        for (const path of ['/api/auth/reset-password'] as const) {
          const res = await post(
            app,
            path,
            {
              email,
              code: '000001',
              password: 'Fresh-Owner-Pass-3',
              password_confirmation: 'Fresh-Owner-Pass-3',
            },
            {},
            ip,
          );
          answers[email]!.push(res.statusCode);
        }
      }
    }
    expect(answers['real@caredeck.demo']).toEqual([422, 422, 422, 422, 422, 429]);
    expect(answers['nobody@caredeck.demo']).toEqual(answers['real@caredeck.demo']);
    const confirmUnknown: number[] = [];
    for (let i = 0; i < 6; i++)
      confirmUnknown.push(
        (
          await post(
            app,
            '/api/auth/confirm-registration',
            { email: 'ghost@caredeck.demo', code: '123456' },
            {},
            '10.2.0.4',
          )
        ).statusCode,
      );
    expect(confirmUnknown).toEqual([422, 422, 422, 422, 422, 429]);
  });
});

describe('every guessable secret is rate limited (issue 5 §5)', () => {
  it('limits wrong current passwords on a password change', async () => {
    await createAdmin(db, { email: 'changer@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
    const { token } = await signIn(app, 'changer@caredeck.demo');
    const change = (current_password: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/user/password',
        headers: bearer(token),
        payload: {
          current_password,
          password: 'Another-Strong-8',
          password_confirmation: 'Another-Strong-8',
        },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await change(`wrong-guess-${i}`)).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422, 422]);
    const limited = await change(DEMO_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('limits controller sign-in per address across accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await post(
        app,
        '/api/auth/controller/sign-in',
        { email: `probe${i}@caredeck.demo`, password: 'not-it-at-all' },
        {},
        '10.3.0.1',
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('common passwords (issue 5 §5)', () => {
  it('knows the common ones and their decorated forms, not strong ones', () => {
    for (const p of ['Password1!', 'Qwerty12345', 'password123', 'ILOVEYOU123', '!!Sunshine2026'])
      expect(isCommonPassword(p), p).toBe(true);
    for (const p of ['Owner-Chose-This-7', 'Correct-Horse-Battery-9', 'k7#Vq2!pLm9x'])
      expect(isCommonPassword(p), p).toBe(false);
  });

  it('refuses them everywhere a password is set', async () => {
    const register = await post(
      app,
      '/api/auth/register',
      registration('common@clinic.example', 'Password1!'),
    );
    expect(register.statusCode).toBe(422);
    expect(register.json().errors.password).toEqual([COMMON_PASSWORD_MESSAGE]);

    await createAdmin(db, { email: 'weak@caredeck.demo', password: DEMO_PASSWORD, hipaaConsented: true });
    const { token } = await signIn(app, 'weak@caredeck.demo');
    const change = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/password',
      headers: bearer(token),
      payload: {
        current_password: DEMO_PASSWORD,
        password: 'Qwerty12345',
        password_confirmation: 'Qwerty12345',
      },
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().errors.password).toEqual([COMMON_PASSWORD_MESSAGE]);

    await post(app, '/api/auth/forgot-password', { email: 'weak@caredeck.demo' }, {}, '10.4.0.1');
    const code = await lastCodeSentTo(db, 'weak@caredeck.demo');
    const reset = await post(
      app,
      '/api/auth/reset-password',
      { email: 'weak@caredeck.demo', code, password: 'Password123!', password_confirmation: 'Password123!' },
      {},
      '10.4.0.1',
    );
    expect(reset.statusCode).toBe(422);
    expect(reset.json().errors.password).toEqual([COMMON_PASSWORD_MESSAGE]);
  });
});

describe('behind a proxy (issue 5 §5)', () => {
  it('trusts only the configured hops of X-Forwarded-For, so a spoofed entry changes nothing', async () => {
    const { app: proxied, db: proxiedDb } = await testApp({ TRUST_PROXY: 1 });
    await createAdmin(proxiedDb, {
      email: 'proxied@caredeck.demo',
      password: DEMO_PASSWORD,
      hipaaConsented: true,
    });
    for (const spoofed of ['6.6.6.6', '7.7.7.7']) {
      await proxied.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: 'proxied@caredeck.demo', password: 'wrong-password-1' },
        headers: { 'x-forwarded-for': `${spoofed}, 198.51.100.20` },
        remoteAddress: '10.0.0.1',
      });
    }
    const seen = await proxiedDb.execute<{ ip: string }>(
      sql`SELECT DISTINCT ip FROM audit_events WHERE action = 'auth.sign_in_failed'`,
    );
    expect(seen.rows.map((r) => r.ip)).toEqual(['198.51.100.20']);
  });
});
