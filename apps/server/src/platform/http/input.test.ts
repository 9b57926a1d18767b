import { errorBody } from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ZodObject } from 'zod';
import { bearer, seedDemoData, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import type { App } from './types';

let app: App;
let token: string;
beforeAll(async () => {
  const built = await testApp();
  app = built.app;
  await seedDemoData(built.db);
  token = (await signIn(app, 'admin@caredeck.demo')).token;
});

/** The exact contract shape of an error answer: no framework keys (`error`, `code`, `statusCode`). */
function expectContractError(res: { statusCode: number; body: string }, where: string) {
  expect(res.statusCode, where).not.toBe(500);
  const body = JSON.parse(res.body);
  expect(errorBody.strict().safeParse(body).success, `${where}: ${res.body}`).toBe(true);
}

const fieldsOf = (schema: unknown): string[] => {
  const shape = (schema as ZodObject | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
};

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1');
const routes = () =>
  app.accessTable.filter(
    (r) => r.method !== 'HEAD' && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'),
  );

describe('control characters in any text (issue 5 §4)', () => {
  const hostile = ['a\u0000b', 'a\u0007b', 'a\u009bb', 'a\ud800b'];

  it('answers 422 with the errors object for a NUL, a control character or a lone surrogate in any body field', async () => {
    let checked = 0;
    for (const route of routes()) {
      for (const field of fieldsOf(route.schema?.body)) {
        for (const value of hostile) {
          const res = await app.inject({
            method: route.method as 'POST',
            url: concrete(route.url),
            headers: bearer(token),
            payload: { [field]: value },
          });
          const where = `${route.method} ${route.url} body.${field}=${JSON.stringify(value)}`;
          expectContractError(res, where);
          if (res.statusCode === 422) expect(res.json().errors[field], where).toBeDefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  }, 120_000);

  it('refuses them in every query parameter and path segment, never with a 500', async () => {
    for (const route of routes()) {
      for (const field of fieldsOf(route.schema?.querystring)) {
        const res = await app.inject({
          method: route.method as 'GET',
          url: `${concrete(route.url)}?${field}=${encodeURIComponent('a\u0000b')}`,
          headers: bearer(token),
        });
        const where = `${route.method} ${route.url}?${field}`;
        expectContractError(res, where);
        expect([401, 403, 404, 422], where).toContain(res.statusCode);
        // Fastify checks the body before the query: a route with a required body names the body's fields first.
        if (res.statusCode === 422 && !route.schema?.body)
          expect(res.json().errors[field], where).toBeDefined();
        if (res.statusCode === 422) expect(Object.keys(res.json().errors).length, where).toBeGreaterThan(0);
      }
      if (route.url.includes(':')) {
        const res = await app.inject({
          method: route.method as 'GET',
          url: route.url.replace(/:[A-Za-z]+/g, '%00'),
          headers: bearer(token),
        });
        expectContractError(res, `${route.method} ${route.url} with %00 ids`);
        expect(res.statusCode, route.url).toBe(404);
      }
    }
  }, 120_000);

  it('names the offending character class in the field message', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/programs/1/users?name=${encodeURIComponent('Smi\u0000th')}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toEqual(['The text contains characters that are not allowed.']);
  });

  it('accepts tabs and line breaks where text may span lines, and refuses them in a single line', async () => {
    const put = (payload: object) =>
      app.inject({ method: 'PUT', url: '/api/v1/user', headers: bearer(token), payload });
    const ok = await put({ given_name: 'Ada', family_name: 'Admin', about: 'Line one\n\tLine two\r\n' });
    expect(ok.statusCode).toBe(200);
    const bad = await put({ given_name: 'Ada\nAdmin', family_name: 'Admin' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.given_name).toEqual(['The text contains characters that are not allowed.']);
  });
});

describe('ids and numbers are what they say (issue 5 §4)', () => {
  it('resolves a path id only from plain digits: 1.0, 01, +1, 0x1, 1e0 name nothing', async () => {
    for (const id of ['1.0', '01', '+1', '0x1', '1e0', '%201', '1%20', '-1', '0', '9'.repeat(17)]) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/programs/${id}/users`,
        headers: bearer(token),
      });
      expect(res.statusCode, id).toBe(404);
      const check = await app.inject({
        method: 'GET',
        url: `/api/v1/programs/1/users/${id}/check-access`,
        headers: bearer(token),
      });
      expect(check.statusCode, `check-access ${id}`).toBe(404);
      expectContractError(check, id);
    }
  });

  it('takes body ids and numbers as JSON numbers only', async () => {
    const roles = (program_id: unknown) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/admins/1',
        headers: bearer(token),
        payload: { program_id, roles: ['admin'] },
      });
    for (const bad of [true, [2], '1e0', '1', 1.5, 0, -1, null, '']) {
      const res = await roles(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().errors.program_id, JSON.stringify(bad)).toBeDefined();
    }
    const me = (await app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) })).json().id;
    const session = (time_s: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/programs/1/users/${me}/session`,
        headers: bearer(token),
        payload: { path: '/patients', time_s },
      });
    for (const bad of [[], null, '', '5', true, 1.5]) {
      const res = await session(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
    }
    expect((await session(5)).statusCode).toBe(201);
  });

  it('takes query numbers as digits only', async () => {
    for (const bad of ['1.5', '+1', '0x2', '1e1', ' 2', '-1']) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/programs/1/users?page=${encodeURIComponent(bad)}`,
        headers: bearer(token),
      });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().errors.page, bad).toBeDefined();
    }
  });
});

describe('every error has the contract shape (issue 5 §4)', () => {
  it('for framework-level failures too', async () => {
    const cases: {
      name: string;
      method: 'GET' | 'POST' | 'PATCH';
      url: string;
      headers?: Record<string, string>;
      payload?: string;
      status: number;
    }[] = [
      {
        name: 'path parameter over the router limit',
        method: 'GET',
        url: `/api/v1/programs/${'1'.repeat(150)}/users`,
        status: 404,
      },
      {
        name: 'malformed percent-encoding',
        method: 'GET',
        url: '/api/v1/programs/%E0%A4%A/users',
        status: 404,
      },
      { name: 'bare percent sign', method: 'GET', url: '/api/v1/%', status: 404 },
      { name: 'unknown route', method: 'GET', url: '/api/v1/nothing-here', status: 404 },
      { name: 'unknown method', method: 'PATCH', url: '/api/v1/user', status: 404 },
      {
        name: 'malformed JSON',
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
        status: 422,
      },
      {
        name: 'empty JSON body',
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'content-type': 'application/json' },
        payload: '',
        status: 422,
      },
      {
        name: 'unsupported media type',
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'content-type': 'application/xml' },
        payload: '<a/>',
        status: 415,
      },
      {
        name: 'body over the limit',
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2_000_000) }),
        status: 413,
      },
    ];
    for (const c of cases) {
      const res = await app.inject({ method: c.method, url: c.url, headers: c.headers, payload: c.payload });
      expect(res.statusCode, c.name).toBe(c.status);
      expectContractError(res, c.name);
      expect(res.body, c.name).not.toMatch(/FST_|"error":|statusCode/);
    }
  });
});

describe('query parameters are what the contract names (issue 28 item 4)', () => {
  const get = (url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });

  it('refuses an unknown parameter, a bracket form and a repeated parameter with 422 naming it', async () => {
    const unknown = await get('/api/v1/tags?program_id=1&bogus=1');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ bogus: ['This parameter is not accepted.'] });
    const bracket = await get('/api/v1/tags?program_id=1&program_id[]=2');
    expect(bracket.statusCode).toBe(422);
    expect(bracket.json().errors['program_id[]']).toEqual(['This parameter is not accepted.']);
    const twice = await get('/api/v1/tags?program_id=1&program_id=2');
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.program_id).toEqual(['Give this parameter once.']);
    // A route whose contract takes no query takes none.
    const none = await get('/api/v1/user?_=1');
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({ _: ['This parameter is not accepted.'] });
    for (const res of [unknown, bracket, twice, none]) expectContractError(res, res.body);
  });

  it('still answers the same call without them', async () => {
    expect((await get('/api/v1/tags?program_id=1')).statusCode).toBe(200);
    expect((await get('/api/v1/user')).statusCode).toBe(200);
  });
});
