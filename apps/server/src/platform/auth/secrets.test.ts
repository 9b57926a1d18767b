import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type Config, loadConfig } from '../../config';
import { createAdmin } from '../../modules/identity/identity.factories';
import { bearer, DEMO_PASSWORD, post, seedDemoData, signIn } from '../../test/flows';
import { testDatabase } from '../../test/harness';
import type { Database } from '../db/client';
import type { App } from '../http/types';
import { KEY_FILE_NAME, PUBLISHED_SECRETS } from './keys';
import { createSecretBox } from './secret-box';
import { createTokenService } from './tokens';
import { sealPlainTotpSecrets, totpContext } from './totp';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'caredeck-keys-'));
  dirs.push(dir);
  return dir;
}

let db: Database;
let app: App;
let config: Config;
let url: string;

beforeAll(async () => {
  ({ db } = await testDatabase());
  await seedDemoData(db);
  // The configuration `npm start` gets: no secret in the environment, a fresh data directory.
  config = {
    ...loadConfig({
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      DATA_DIR: await dataDir(),
      MQTT_PORT: '-1',
    }),
    WEB_DIST: '/nonexistent',
  };
  ({ app } = await buildApp({ config, db }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

describe('signing and encryption keys (issue 5 §2)', () => {
  it('generates random keys per data directory on first start, keeps them private and stable', async () => {
    const dir = path.dirname(path.resolve(config.DATA_DIR, KEY_FILE_NAME));
    const file = path.join(dir, KEY_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    expect(stored.JWT_SECRET).toBe(config.JWT_SECRET);
    expect(stored.ENCRYPTION_KEY).toBe(config.ENCRYPTION_KEY);
    expect(config.JWT_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loadConfig({ DATA_DIR: config.DATA_DIR }).JWT_SECRET).toBe(config.JWT_SECRET);
    expect(loadConfig({ DATA_DIR: await dataDir() }).JWT_SECRET).not.toBe(config.JWT_SECRET);
  });

  it('refuses published, short or repetitive secrets everywhere, and missing ones in production', () => {
    const dir = config.DATA_DIR;
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: PUBLISHED_SECRETS[0] })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() => loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: 'a'.repeat(40) })).toThrow(/repetitive/);
    const production = {
      NODE_ENV: 'production',
      DATA_DIR: dir,
      SMTP_URL: 'smtp://mail.example:25',
      PUBLIC_URL: 'https://caredeck.example',
    };
    expect(() => loadConfig(production)).toThrow(/JWT_SECRET: required in production/);
    expect(() =>
      loadConfig({ ...production, JWT_SECRET: config.JWT_SECRET, ENCRYPTION_KEY: config.ENCRYPTION_KEY }),
    ).not.toThrow();
    expect(() =>
      loadConfig({
        ...production,
        SMTP_URL: '',
        DEMO: '1',
        PUBLIC_URL: '',
        JWT_SECRET: config.JWT_SECRET,
        ENCRYPTION_KEY: config.ENCRYPTION_KEY,
      }),
    ).toThrow(/SMTP_URL[\s\S]*DEMO[\s\S]*PUBLIC_URL/);
  });

  it('refuses a token signed with the secret once published in the source', async () => {
    const forger = createTokenService(PUBLISHED_SECRETS[0]!, 600);
    const { token } = await signIn(app, 'admin@caredeck.demo');
    const forged = await forger.signAccess({ sub: 1, sid: decode(token).sid, realm: 'staff', scope: 'full' });
    const res = await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(forged) });
    expect(res.statusCode).toBe(401);
  });
});

describe('session ids carried by tokens (issue 5 §2)', () => {
  it('are random UUIDs, so even a leaked signing key does not open a session by counting', async () => {
    const { token } = await signIn(app, 'admin@caredeck.demo');
    const claims = decode(token);
    expect(claims.sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const rows = await db.execute<{ id: number }>(
      sql`SELECT id FROM auth_sessions WHERE public_id = ${claims.sid}`,
    );
    const internalId = rows.rows[0]!.id;
    // Worst case: the attacker has the key. The sequential row id, or its neighbours, name nothing.
    const keyHolder = createTokenService(config.JWT_SECRET, 600);
    for (const guess of [internalId, internalId - 1, internalId + 1]) {
      for (const sid of [guess, String(guess)]) {
        const forged = await keyHolder.signAccess({
          sub: claims.sub,
          sid: sid as unknown as string,
          realm: 'staff',
          scope: 'full',
        });
        const res = await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(forged) });
        expect(res.statusCode, `sid ${JSON.stringify(sid)}`).toBe(401);
      }
    }
    const neighbour = claims.sid.replace(/.$/, (c: string) => (c === '0' ? '1' : '0'));
    const forged = await keyHolder.signAccess({
      sub: claims.sub,
      sid: neighbour,
      realm: 'staff',
      scope: 'full',
    });
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(forged) })).statusCode,
    ).toBe(401);
    // The real token still works.
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) })).statusCode,
    ).toBe(200);
  });

  it('refuses guessed sessions on the controller realm and on socket.io too', async () => {
    const controller = await post(app, '/api/auth/controller/sign-in', {
      email: 'controller@caredeck.demo',
      password: DEMO_PASSWORD,
    });
    expect(controller.statusCode).toBe(200);
    const real = decode(controller.json().access_token);
    expect(real.sid).toMatch(/^[0-9a-f-]{36}$/);
    const keyHolder = createTokenService(config.JWT_SECRET, 600);
    const forgedController = await keyHolder.signAccess({
      sub: real.sub,
      sid: '1' as string,
      realm: 'controller',
      scope: 'full',
    });
    const me = await app.inject({
      method: 'GET',
      url: '/api/controller/me',
      headers: bearer(forgedController),
    });
    expect(me.statusCode).toBe(401);

    const forgedStaff = await keyHolder.signAccess({
      sub: 1,
      sid: '1' as string,
      realm: 'staff',
      scope: 'full',
    });
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(url, {
        path: '/socket.io',
        auth: { token: forgedStaff },
        transports: ['websocket'],
        reconnection: false,
      });
      socket.on('connect', () => {
        socket.disconnect();
        resolve('connected');
      });
      socket.on('connect_error', (err) => resolve(err.message));
    });
    expect(refused).toBe('unauthorized');
  });
});

describe('TOTP secrets at rest (issue 5 §2)', () => {
  it('stores the seed encrypted, bound to its account, and signs in with it', async () => {
    const admin = await createAdmin(db, {
      email: 'sealed@caredeck.demo',
      password: DEMO_PASSWORD,
      hipaaConsented: true,
    });
    const { token } = await signIn(app, 'sealed@caredeck.demo');
    const { secret } = (await post(app, '/api/v1/user/mfa/setup', undefined, bearer(token))).json();
    const stored = (
      await db.execute<{ mfa_secret: string }>(sql`SELECT mfa_secret FROM admins WHERE id = ${admin.id}`)
    ).rows[0]!.mfa_secret;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secret);
    const box = createSecretBox(config.ENCRYPTION_KEY);
    expect(box.open(stored, totpContext(admin.id))).toBe(secret);
    expect(box.open(stored, totpContext(admin.id + 1))).toBeNull();
    expect(createSecretBox(`${config.ENCRYPTION_KEY}x`).open(stored, totpContext(admin.id))).toBeNull();
    const enable = await post(
      app,
      '/api/v1/user/mfa/enable',
      { code: generateSync({ secret }) },
      bearer(token),
    );
    expect(enable.statusCode).toBe(204);
  });

  it('seals seeds stored in plain text by earlier versions, which then keep working', async () => {
    const admin = await createAdmin(db, {
      email: 'legacy@caredeck.demo',
      password: DEMO_PASSWORD,
      hipaaConsented: true,
    });
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await db.execute(
      sql`UPDATE admins SET mfa_secret = ${secret}, mfa_enabled = true WHERE id = ${admin.id}`,
    );
    const box = createSecretBox(config.ENCRYPTION_KEY);
    expect(await sealPlainTotpSecrets(db, box)).toBeGreaterThanOrEqual(1);
    expect(await sealPlainTotpSecrets(db, box)).toBe(0);
    const stored = (
      await db.execute<{ mfa_secret: string }>(sql`SELECT mfa_secret FROM admins WHERE id = ${admin.id}`)
    ).rows[0]!.mfa_secret;
    expect(stored).toMatch(/^v1\./);
    const challenge = await post(app, '/api/auth/sign-in', {
      email: 'legacy@caredeck.demo',
      password: DEMO_PASSWORD,
    });
    expect(challenge.json().status).toBe('mfa');
    const ok = await post(app, '/api/auth/mfa', {
      challenge_token: challenge.json().challenge_token,
      code: generateSync({ secret }),
    });
    expect(ok.statusCode).toBe(200);
  });
});
