import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config';
import { bearer, seedDemoData, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { createTokenService } from '../auth/tokens';
import type { Database } from '../db/client';
import type { App } from '../http/types';
import { accessPlugin, MissingAccessRuleError } from './access.plugin';

let app: App;
let db: Database;

let outsider: string;

beforeAll(async () => {
  ({ app, db } = await testApp());
  await seedDemoData(db);
  outsider = (await signIn(app, 'outsider@caredeck.demo')).token;
});

/** A concrete URL for a route pattern: every path id is 1 (program 1 and enterprise 1 belong to Northwind). */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, '1');
}

const PUBLIC_PREFIXES = ['/api/auth/', '/healthz', '/readyz', '/api/config', '/api/docs', '/*'];

describe('route access matrix', () => {
  it('refuses to register a route that declares no access rule', async () => {
    const bare = Fastify();
    const config = testConfig();
    await bare.register(accessPlugin, { db, tokens: createTokenService(config.JWT_SECRET, 60), config });
    expect(() => bare.get('/api/v1/forgotten', async () => ({}))).toThrow(MissingAccessRuleError);
    await bare.close();
  });

  it('gives every route an access rule; only sign-in, health, config, docs and the console are public', () => {
    expect(app.accessTable.length).toBeGreaterThan(20);
    for (const route of app.accessTable) {
      if (route.access.kind !== 'public') continue;
      expect(
        PUBLIC_PREFIXES.some((p) => route.url.startsWith(p)),
        `${route.method} ${route.url} is public`,
      ).toBe(true);
    }
    const rule = (method: string, url: string) =>
      app.accessTable.find((r) => r.method === method && r.url === url)?.access;
    expect(rule('GET', '/api/v1/programs/:programId/users')).toEqual({ kind: 'program' });
    expect(rule('GET', '/api/v1/enterprises/:enterpriseId/patients')).toEqual({ kind: 'enterprise' });
    expect(rule('GET', '/api/controller/me')).toEqual({ kind: 'controller' });
    expect(rule('PUT', '/api/v1/user/consent/hipaa')).toEqual({ kind: 'staff', hipaaPending: true });
  });

  it('sends every program- or enterprise-scoped path through its path id', () => {
    for (const route of app.accessTable) {
      if (route.access.kind === 'program') expect(route.url, route.url).toContain(':programId');
      if (route.access.kind === 'enterprise') expect(route.url, route.url).toContain(':enterpriseId');
    }
  });
});

describe('every protected route, called for real', () => {
  const protectedRoutes = () =>
    app.accessTable.filter((r) => r.access.kind !== 'public' && r.method !== 'HEAD');

  it('answers 401 without a token', async () => {
    for (const route of protectedRoutes()) {
      const res = await app.inject({ method: route.method as 'GET', url: concrete(route.url) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json(), `${route.method} ${route.url}`).toHaveProperty('message');
    }
  });

  it("answers 404 to another enterprise's staff on program- and enterprise-scoped routes, even with a bad body", async () => {
    for (const route of protectedRoutes().filter(
      (r) => r.access.kind === 'program' || r.access.kind === 'enterprise',
    )) {
      const res = await app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: bearer(outsider),
        payload: route.method === 'GET' ? undefined : { unexpected: true },
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(404);
    }
  });

  it('refuses staff tokens on controller routes', async () => {
    for (const route of protectedRoutes().filter((r) => r.access.kind === 'controller')) {
      const res = await app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: bearer(outsider),
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });
});

describe('error shapes', () => {
  it('answers unknown API routes with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('message');
  });

  it('answers malformed JSON with 422 and an errors object', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toBeDefined();
  });

  it('answers an oversized body with 413', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2_000_000) }),
    });
    expect(res.statusCode).toBe(413);
  });

  it('is ready when the database is reachable and migrated', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});

describe('caching and content security (issue 5 §6)', () => {
  it('marks every API answer no-store, signed in or not, success or error; only the API docs are cacheable', async () => {
    const signedIn = (await signIn(app, 'admin@caredeck.demo')).token;
    for (const route of app.accessTable.filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/'))) {
      for (const headers of [{}, bearer(signedIn)]) {
        const res = await app.inject({ method: route.method as 'GET', url: concrete(route.url), headers });
        const expected = route.url.startsWith('/api/docs') ? undefined : 'no-store';
        expect(res.headers['cache-control'], `${route.method} ${route.url} → ${res.statusCode}`).toBe(
          expected,
        );
      }
    }
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(unknown.headers['cache-control']).toBe('no-store');
  });

  it("lets the console connect only to its own origin (websockets included, through 'self')", async () => {
    const res = await app.inject({ method: 'GET', url: '/api/config' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).not.toMatch(/ws:|wss:|\*/);
  });
});

describe('the read path (issue 6 §3)', () => {
  const lastActivity = async (token: string) => {
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
    const res = await db.execute<{ at: string }>(
      sql`SELECT last_activity_at::text AS at FROM auth_sessions WHERE public_id = ${sid}`,
    );
    return { sid: sid as string, at: res.rows[0]!.at };
  };

  it('records activity at most every 30 s, and expiry, revocation and disabling still act at once', async () => {
    const { token } = await signIn(app, 'coordinator@caredeck.demo');
    const call = () => app.inject({ method: 'GET', url: '/api/v1/programs/1/users', headers: bearer(token) });
    // A recent record is left alone: the request only reads.
    const { sid } = await lastActivity(token);
    await db.execute(
      sql`UPDATE auth_sessions SET last_activity_at = now() - interval '10 seconds' WHERE public_id = ${sid}`,
    );
    const before = (await lastActivity(token)).at;
    expect((await call()).statusCode).toBe(200);
    expect((await lastActivity(token)).at).toBe(before);
    // An older one is written again.
    await db.execute(
      sql`UPDATE auth_sessions SET last_activity_at = now() - interval '40 seconds' WHERE public_id = ${sid}`,
    );
    const stale = (await lastActivity(token)).at;
    expect((await call()).statusCode).toBe(200);
    expect((await lastActivity(token)).at > stale).toBe(true);
    // Idle past the time-out: refused, whatever the granularity.
    await db.execute(
      sql`UPDATE auth_sessions SET last_activity_at = now() - interval '1 hour' WHERE public_id = ${sid}`,
    );
    expect((await call()).statusCode).toBe(401);

    const second = await signIn(app, 'coordinator@caredeck.demo');
    await db.execute(
      sql`UPDATE auth_sessions SET revoked_at = now() WHERE public_id = ${(await lastActivity(second.token)).sid}`,
    );
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(second.token) })).statusCode,
    ).toBe(401);

    const third = await signIn(app, 'pharmacy@caredeck.demo');
    await db.execute(sql`UPDATE admins SET disabled_at = now() WHERE email = 'pharmacy@caredeck.demo'`);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(third.token) })).statusCode,
    ).toBe(401);
    await db.execute(sql`UPDATE admins SET disabled_at = NULL WHERE email = 'pharmacy@caredeck.demo'`);
  });
});
