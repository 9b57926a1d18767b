import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { fhirClientsContract as c, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/flows';
import { entries, fhirFixture } from './fhir.fixture';

let f: Awaited<ReturnType<typeof fhirFixture>>;
const TOKEN_URL = 'http://localhost:80/fhir/auth/token';
const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicJwk = (key: KeyObject, kid: string) => ({ ...key.export({ format: 'jwk' }), kid });

beforeAll(async () => {
  f = await fhirFixture();
});

async function register(who: 'entAdmin' | 'reader' | 'outsider', body: unknown, programId = f.ids.programA) {
  const token = await signInToken(who);
  return f.app.inject({
    method: 'POST',
    url: routeUrl(c.create, { programId }),
    headers: bearer(token),
    payload: body as object,
  });
}

/** The fixture's staff access token. */
async function signInToken(who: 'entAdmin' | 'reader' | 'outsider'): Promise<string> {
  return f.tokens[who];
}

async function assertion(
  clientId: string,
  key: KeyObject,
  opts: { alg?: 'ES384' | 'RS384'; kid?: string; aud?: string; exp?: string; jti?: string } = {},
) {
  return new SignJWT({})
    .setProtectedHeader({ alg: opts.alg ?? 'ES384', kid: opts.kid ?? 'ec-1', typ: 'JWT' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(opts.aud ?? TOKEN_URL)
    .setExpirationTime(opts.exp ?? '4m')
    .setJti(opts.jti ?? randomUUID())
    .sign(key);
}

function tokenRequest(form: Record<string, string>, remoteAddress?: string) {
  return f.app.inject({
    method: 'POST',
    url: '/fhir/auth/token',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

const grant = (clientAssertion: string, scope = 'system/*.rs') => ({
  grant_type: 'client_credentials',
  client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  client_assertion: clientAssertion,
  scope,
});

describe('SMART Backend Services clients', () => {
  it('are registered by the program’s administrators with public keys, and refused otherwise', async () => {
    const ok = await register('entAdmin', {
      name: 'Epic interface',
      jwks: { keys: [publicJwk(ec.publicKey, 'ec-1'), publicJwk(rsa.publicKey, 'rsa-1')] },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      name: 'Epic interface',
      scopes: ['system/*.rs'],
      key_ids: ['ec-1', 'rsa-1'],
      revoked_at: null,
    });
    expect(ok.json().client_id).toMatch(/^cdc_[A-Za-z0-9_-]{24}$/);
    expect(
      (await register('reader', { name: 'x', jwks: { keys: [publicJwk(ec.publicKey, 'k')] } })).statusCode,
    ).toBe(403);
    expect(
      (await register('outsider', { name: 'x', jwks: { keys: [publicJwk(ec.publicKey, 'k')] } })).statusCode,
    ).toBe(404);
    const privateKey = await register('entAdmin', {
      name: 'x',
      jwks: { keys: [{ ...ec.privateKey.export({ format: 'jwk' }), kid: 'p' }] },
    });
    expect(privateKey.statusCode).toBe(422);
    expect(privateKey.json().errors).toHaveProperty(['jwks.keys.0.d']);
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const short = await register('entAdmin', { name: 'x', jwks: { keys: [publicJwk(weak.publicKey, 'w')] } });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toHaveProperty(['jwks.keys.0']);
    const scope = await register('entAdmin', {
      name: 'x',
      jwks: { keys: [publicJwk(ec.publicKey, 'k')] },
      scopes: ['system/*.cruds'],
    });
    expect(scope.statusCode).toBe(422);
    const list = await f.app.inject({
      method: 'GET',
      url: routeUrl(c.list, { programId: f.ids.programA }),
      headers: bearer(await signInToken('entAdmin')),
    });
    expect(list.json()).toMatchObject({ total: 1, data: [{ name: 'Epic interface' }] });
  });

  it('get a short-lived token for a signed assertion, and read their program only with it', async () => {
    const client = (
      await register('entAdmin', {
        name: 'Warehouse',
        jwks: { keys: [publicJwk(ec.publicKey, 'ec-1'), publicJwk(rsa.publicKey, 'rsa-1')] },
      })
    ).json();
    for (const [key, alg, kid] of [
      [ec.privateKey, 'ES384', 'ec-1'],
      [rsa.privateKey, 'RS384', 'rsa-1'],
    ] as const) {
      const res = await tokenRequest(grant(await assertion(client.client_id, key, { alg, kid })));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ token_type: 'bearer', expires_in: 300, scope: 'system/*.rs' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const token = (await tokenRequest(grant(await assertion(client.client_id, ec.privateKey)))).json()
      .access_token;
    const read = (url: string) => f.app.inject({ method: 'GET', url, headers: bearer(token) });
    const patients = await read('/fhir/R4/Patient');
    expect(patients.statusCode, patients.body).toBe(200);
    expect(entries(patients.json()).map((p) => p.id)).toEqual([String(f.ids.patientA)]);
    expect((await read(`/fhir/R4/Patient/${f.ids.patientB}`)).statusCode).toBe(404);
    expect((await read(`/fhir/R4/Observation/${f.measurement(f.ids.patientB, 'weight')}`)).statusCode).toBe(
      404,
    );
    expect((await read(`/fhir/R4/Device/${f.ids.deviceB}`)).statusCode).toBe(404);
    expect(entries((await read('/fhir/R4/Organization')).json()).map((o) => o.id)).toEqual([
      `enterprise-${f.ids.e1}`,
      `program-${f.ids.programA}`,
    ]);
    // The client's token opens FHIR only: the staff API refuses it.
    expect((await read('/api/v1/programs')).statusCode).toBe(401);
    const rows = await f.db.execute<{
      action: string;
      actor_admin_id: number | null;
      actor_realm: string;
      details: Record<string, unknown>;
    }>(sql`
      SELECT action, actor_admin_id, actor_realm, details FROM audit_events
      WHERE action IN ('fhir_client.token', 'fhir.search') AND actor_realm = 'fhir_client' ORDER BY id`);
    expect(rows.rows.filter((r) => r.action === 'fhir_client.token').length).toBe(3);
    expect(rows.rows.find((r) => r.action === 'fhir.search')).toMatchObject({
      actor_admin_id: null,
      details: { resource_type: 'Patient', fhir_client_id: client.id },
    });
  });

  it('refuse a replayed, mistargeted, long-lived, foreign-signed or unknown assertion, and ungranted scopes', async () => {
    const client = (
      await register('entAdmin', {
        name: 'Strict',
        jwks: { keys: [publicJwk(ec.publicKey, 'ec-1')] },
        scopes: ['system/Observation.rs'],
      })
    ).json();
    const once = await assertion(client.client_id, ec.privateKey);
    expect((await tokenRequest(grant(once, 'system/Observation.rs'))).statusCode).toBe(200);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    for (const [name, form] of [
      ['replay', grant(once, 'system/Observation.rs')],
      [
        'audience',
        grant(await assertion(client.client_id, ec.privateKey, { aud: 'https://elsewhere/token' })),
      ],
      ['lifetime', grant(await assertion(client.client_id, ec.privateKey, { exp: '1h' }))],
      ['signature', grant(await assertion(client.client_id, other.privateKey))],
      ['unknown client', grant(await assertion('cdc_unknown', ec.privateKey))],
    ] as const) {
      const res = await tokenRequest(form);
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toMatchObject({ error: 'invalid_client' });
    }
    const json = await f.app.inject({
      method: 'POST',
      url: '/fhir/auth/token',
      payload: { ...grant(await assertion(client.client_id, ec.privateKey)), scope: 5 },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'invalid_request' });
    const wrongGrant = await tokenRequest({
      ...grant(await assertion(client.client_id, ec.privateKey)),
      grant_type: 'password',
    });
    expect(wrongGrant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const scope = await tokenRequest(
      grant(await assertion(client.client_id, ec.privateKey), 'system/Patient.rs'),
    );
    expect(scope.statusCode).toBe(400);
    expect(scope.json()).toMatchObject({ error: 'invalid_scope' });
    // A token for observations does not read patients.
    const token = (
      await tokenRequest(
        grant(await assertion(client.client_id, ec.privateKey), 'system/Observation.rs system/Patient.rs'),
      )
    ).json();
    expect(token.scope).toBe('system/Observation.rs');
    const patients = await f.app.inject({
      method: 'GET',
      url: '/fhir/R4/Patient',
      headers: bearer(token.access_token),
    });
    expect(patients.statusCode).toBe(403);
    expect(patients.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ code: 'forbidden' }],
    });
    const observations = await f.app.inject({
      method: 'GET',
      url: `/fhir/R4/Observation?patient=${f.ids.patientA}`,
      headers: bearer(token.access_token),
    });
    expect(observations.statusCode).toBe(200);
  });

  it('stop working at once when revoked', async () => {
    const client = (
      await register('entAdmin', { name: 'Old', jwks: { keys: [publicJwk(ec.publicKey, 'ec-1')] } })
    ).json();
    const token = (await tokenRequest(grant(await assertion(client.client_id, ec.privateKey)))).json()
      .access_token;
    const read = () => f.app.inject({ method: 'GET', url: '/fhir/R4/Patient', headers: bearer(token) });
    expect((await read()).statusCode).toBe(200);
    const revoke = await f.app.inject({
      method: 'DELETE',
      url: routeUrl(c.revoke, { programId: f.ids.programA, clientId: client.id }),
      headers: bearer(await signInToken('entAdmin')),
    });
    expect(revoke.statusCode).toBe(204);
    const after = await read();
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'login' }] });
    expect((await tokenRequest(grant(await assertion(client.client_id, ec.privateKey)))).statusCode).toBe(
      401,
    );
    const again = await f.app.inject({
      method: 'DELETE',
      url: routeUrl(c.revoke, { programId: f.ids.programA, clientId: client.id }),
      headers: bearer(await signInToken('entAdmin')),
    });
    expect(again.statusCode).toBe(404);
  });

  it('publishes the SMART configuration', async () => {
    const res = await f.get(null, '/fhir/R4/.well-known/smart-configuration');
    expect(res.json()).toMatchObject({
      token_endpoint: TOKEN_URL,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
    });
  });

  it('limits token requests from one address (last: it uses up that address’s allowance)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push((await tokenRequest({ grant_type: 'client_credentials' }, '203.0.113.9')).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    const limited = await tokenRequest({ grant_type: 'client_credentials' }, '203.0.113.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toMatchObject({ error: 'invalid_request' });
    expect((await tokenRequest({ grant_type: 'client_credentials' }, '203.0.113.10')).statusCode).toBe(400);
  });
});
