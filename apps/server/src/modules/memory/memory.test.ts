import { memoryContract as c, MEMORY_MESSAGES, routeUrl } from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
const token = { a: '', b: '' };
let programId = 0;
let other = 0;

const call = (as: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(as) });

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  const g = given(t.db);
  programId = (await g.program()).id;
  other = (await g.program()).id;
  for (const who of ['a', 'b'] as const) {
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId, role: 'care_coordinator' }],
    });
    token[who] = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  }
});

describe('user memory', () => {
  it('keeps, merges and forgets a user own settings per module and program', async () => {
    const get = () =>
      call(
        token.a,
        'GET',
        routeUrl(c.get, undefined, { module_name: 'messenger', program_id: String(programId) }),
      );
    expect((await get()).json()).toEqual({ data: null });
    const saved = await call(token.a, 'POST', c.save.path, {
      module_name: 'messenger',
      program_id: programId,
      default_settings: { sound: true, sort: 'unread' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().message).toBe(MEMORY_MESSAGES.stored);
    const merged = await call(token.a, 'POST', c.updateDefault.path, {
      module_name: 'messenger',
      program_id: programId,
      default_settings: { sound: false },
    });
    expect(merged.json().data.default_settings).toEqual({ sound: false, sort: 'unread' });
    // Another user of the same program keeps their own.
    const theirs = await call(
      token.b,
      'GET',
      routeUrl(c.get, undefined, { module_name: 'messenger', program_id: String(programId) }),
    );
    expect(theirs.json()).toEqual({ data: null });
    const removed = await call(token.a, 'POST', c.remove.path, {
      module_name: 'messenger',
      program_id: programId,
    });
    expect(removed.json()).toEqual({ message: MEMORY_MESSAGES.deleted });
    expect((await get()).json()).toEqual({ data: null });
  });

  it('answers 422 for unknown modules and oversized settings, 404 for a program of someone else', async () => {
    const bad = await call(token.a, 'POST', c.save.path, {
      module_name: 'alerts',
      program_id: programId,
      default_settings: {},
    });
    expect(bad.statusCode).toBe(422);
    const big = await call(token.a, 'POST', c.save.path, {
      module_name: 'patients',
      program_id: programId,
      default_settings: { blob: 'x'.repeat(20_000) },
    });
    expect(big.statusCode).toBe(422);
    const foreign = await call(token.a, 'POST', c.save.path, {
      module_name: 'patients',
      program_id: other,
      default_settings: {},
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: routeUrl(c.get, undefined, { module_name: 'patients', program_id: '1' }),
        })
      ).statusCode,
    ).toBe(401);
  });
});
