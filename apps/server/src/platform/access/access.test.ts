import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Config, testConfig } from '../../config';
import { patientObject } from '../../modules/patients/patients.queries';
import { bearer, seedDemoData, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { createTokenService } from '../auth/tokens';
import type { Database } from '../db/client';
import type { App } from '../http/types';
import {
  accessPlugin,
  MissingAccessRuleError,
  programPathObjects,
  scopedObjectId,
  staffActor,
} from './access.plugin';
import { access } from './rules';

let app: App;
let db: Database;
let appConfig: Config;

let outsider: string;

beforeAll(async () => {
  ({ app, db, config: appConfig } = await testApp());
  await seedDemoData(db);
  outsider = (await signIn(app, 'outsider@caredeck.demo')).token;
});

/** A concrete URL for a route pattern: every path id is 1 (program 1 and enterprise 1 belong to Northwind). */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, '1');
}

// Vendor webhooks are public to the access hook: each delivery proves itself with its HMAC signature.
// The guest link check is public (rate-limited): it is how a guest proves the link they hold.
const PUBLIC_PREFIXES = [
  '/api/v1/messenger-external/link-verify',
  '/api/auth/',
  '/healthz',
  '/readyz',
  '/api/config',
  '/api/docs',
  '/api/v1/webhooks/',
  // FHIR's CapabilityStatement (it holds no data; clients read it before they authenticate).
  '/fhir/R4/metadata',
  // SMART Backend Services: discovery, and the token endpoint where a client proves itself with a signed assertion.
  '/fhir/R4/.well-known/smart-configuration',
  '/fhir/auth/token',
  '/*',
];

describe('route access matrix', () => {
  it('refuses to register a route that declares no access rule', async () => {
    const bare = Fastify();
    const config = testConfig();
    await bare.register(accessPlugin, { db, tokens: createTokenService(config.JWT_SECRET, 60), config });
    expect(() => bare.get('/api/v1/forgotten', async () => ({}))).toThrow(MissingAccessRuleError);
    await bare.close();
  });

  it('gives every route an access rule; only sign-in, health, config, docs, signed webhooks and the console are public', () => {
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
    // The guest channel: guest tokens only, checked by the guest service.
    for (const route of app.accessTable)
      if (route.url.startsWith('/api/v1/messenger-external/messenger/'))
        expect(route.access, route.url).toEqual({ kind: 'guest' });
  });

  it('sends every program- or enterprise-scoped path through its path id', () => {
    for (const route of app.accessTable) {
      if (route.access.kind === 'program') expect(route.url, route.url).toContain(':programId');
      if (route.access.kind === 'enterprise') expect(route.url, route.url).toContain(':enterpriseId');
      if (route.access.kind === 'object') expect(route.url, route.url).toContain(`:${route.access.param}`);
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
      // FHIR answers in its own terms (ADR 073): an OperationOutcome.
      if (route.url.startsWith('/fhir/'))
        expect(res.json(), route.url).toMatchObject({
          resourceType: 'OperationOutcome',
          issue: [{ code: 'login' }],
        });
      else expect(res.json(), `${route.method} ${route.url}`).toHaveProperty('message');
    }
  });

  it("answers 404 to another enterprise's staff on program-, object- and enterprise-scoped routes, even with a bad body", async () => {
    for (const route of protectedRoutes().filter(
      (r) => r.access.kind === 'program' || r.access.kind === 'object' || r.access.kind === 'enterprise',
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

  /** A program route's URL with `programId` and its path objects (the first of each table in `objectsOf`). */
  async function objectUrl(url: string, programId: number, objectsOf: number): Promise<string> {
    let concreteUrl = url.replace(':programId', String(programId));
    for (const { param, table } of programPathObjects(url)) {
      const res = await db.execute<{ id: number }>(
        sql`SELECT min(id)::int AS id FROM ${table} WHERE program_id = ${objectsOf}`,
      );
      concreteUrl = concreteUrl.replace(`:${param}`, String(res.rows[0]?.id ?? 999_999));
    }
    return concreteUrl.replace(/:[A-Za-z_]+/g, '1');
  }
  const withPathObjects = () =>
    protectedRoutes().filter(
      (r) =>
        r.access.kind === 'program' &&
        programPathObjects(r.url).length > 0 &&
        // Routes that validate some input (every route now has a strict query schema, empty when it takes none).
        (r.schema?.body !== undefined ||
          Object.keys((r.schema?.querystring as { shape?: object } | undefined)?.shape ?? {}).length > 0),
    );

  it("answers 404, not 422, when the path names another program's patient (or cohort, regimen…) under the caller's own program", async () => {
    const own = await db.execute<{ id: number }>(sql`
      SELECT r.program_id::int AS id FROM admin_program_roles r JOIN admins a ON a.id = r.admin_id
      WHERE a.email = 'outsider@caredeck.demo' LIMIT 1`);
    const outsiderProgram = own.rows[0]!.id;
    const routes = withPathObjects();
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const url = await objectUrl(route.url, outsiderProgram, 1);
      const res = await app.inject({
        method: route.method as 'GET',
        url,
        headers: bearer(outsider),
        payload: route.method === 'GET' ? undefined : [1],
      });
      expect(res.statusCode, `${route.method} ${url}`).toBe(404);
    }
  });

  it("still answers 422 for refused input about the caller's own program's objects", async () => {
    const coordinator = (await signIn(app, 'coordinator@caredeck.demo')).token;
    for (const route of withPathObjects().filter((r) => r.schema?.body !== undefined)) {
      const url = await objectUrl(route.url, 1, 1);
      if (url.includes('999999')) continue;
      const res = await app.inject({
        method: route.method as 'POST',
        url,
        headers: bearer(coordinator),
        payload: [1],
      });
      expect([403, 422], `${route.method} ${url} → ${res.statusCode} ${res.body}`).toContain(res.statusCode);
    }
    expect(programPathObjects('/api/v1/programs/:programId/users/:id/session')).toEqual([]);
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

describe('object rules (issue 6 §2)', () => {
  /**
   * A bare app with one object-scoped route, as a module declares it: the object's program is resolved in
   * the session statement and the actor's roles there decide.
   */
  it('resolves the program of a path object and answers 404 outside it, 403 without the role', async () => {
    // The app's own keys: tokens it issued must verify here.
    const config = appConfig;
    const tokens = createTokenService(config.JWT_SECRET, 60);
    const bare = Fastify();
    await bare.register(accessPlugin, { db, tokens, config });
    for (const [url, rule] of [
      ['/t/patients/:id', access.object(patientObject)],
      [
        '/t/admin-only/patients/:patientId',
        access.object(patientObject, { param: 'patientId', roles: ['admin'] }),
      ],
    ] as const) {
      bare.get(url, { config: { access: rule } }, async (req) => ({
        program: staffActor(req).program?.id,
        object: scopedObjectId(req),
      }));
    }
    await bare.ready();
    const inNorthwind = await db.execute<{ id: number; program_id: number }>(
      sql`SELECT id, program_id FROM patients WHERE program_id = 1 ORDER BY id LIMIT 1`,
    );
    const patient = inNorthwind.rows[0]!;
    const call = (url: string, token?: string) =>
      bare.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
    const physician = (await signIn(app, 'physician@caredeck.demo')).token;
    const admin = (await signIn(app, 'admin@caredeck.demo')).token;

    const ok = await call(`/t/patients/${patient.id}`, physician);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ program: patient.program_id, object: patient.id });
    // Another enterprise's staff, an unknown id and a non-id all get the same 404.
    expect((await call(`/t/patients/${patient.id}`, outsider)).statusCode).toBe(404);
    expect((await call('/t/patients/99999999', physician)).statusCode).toBe(404);
    expect((await call('/t/patients/1e3', physician)).statusCode).toBe(404);
    // The token is checked before anything is looked up.
    expect((await call('/t/patients/1e3')).statusCode).toBe(401);
    expect((await call(`/t/patients/${patient.id}`)).statusCode).toBe(401);
    // A role the rule asks for.
    expect((await call(`/t/admin-only/patients/${patient.id}`, physician)).statusCode).toBe(403);
    expect((await call(`/t/admin-only/patients/${patient.id}`, admin)).statusCode).toBe(200);
    await bare.close();
  });
});
