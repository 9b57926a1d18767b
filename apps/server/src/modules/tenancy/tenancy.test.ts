import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { adminId, bearer, seedDemoData, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  ({ app, db } = await testApp());
  await seedDemoData(db);
  for (const who of ['admin', 'physician', 'coordinator', 'enterprise', 'pharma', 'outsider']) {
    tokens[who] = (await signIn(app, `${who}@caredeck.demo`)).token;
  }
});

const get = (url: string, who: string) => app.inject({ method: 'GET', url, headers: bearer(tokens[who]!) });

async function patientOf(programId: number): Promise<number> {
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM patients WHERE program_id = ${programId} LIMIT 1`,
  );
  return res.rows[0]!.id;
}

describe('programs and enterprises', () => {
  it('lists the programs each user may work in, default slug first', async () => {
    const slugs = async (who: string) =>
      (await get('/api/v1/programs', who)).json().data.map((p: { slug: string }) => p.slug);
    expect(await slugs('admin')).toEqual(['caredeck', 'northwind-cardiology']);
    expect(await slugs('enterprise')).toEqual(['caredeck', 'northwind-cardiology']);
    expect(await slugs('physician')).toEqual(['caredeck']);
    expect(await slugs('outsider')).toEqual(['harbor-adherence']);
  });

  it('lists enterprises through roles', async () => {
    expect(
      (await get('/api/v1/enterprises', 'outsider')).json().data.map((e: { slug: string }) => e.slug),
    ).toEqual(['harbor-clinics']);
    expect(
      (await get('/api/v1/enterprises', 'enterprise')).json().data.map((e: { slug: string }) => e.slug),
    ).toEqual(['northwind-health']);
  });

  it('answers the auto-role list per program type and 422 for an unknown type', async () => {
    expect((await get('/api/v1/programs/auto-roles?type=pharma', 'admin')).json()).toEqual({
      type: 'pharma',
      roles: ['pharma'],
    });
    expect((await get('/api/v1/programs/auto-roles?type=monitoring', 'admin')).json().roles).toEqual([
      'care_coordinator',
    ]);
    const bad = await get('/api/v1/programs/auto-roles?type=retail', 'admin');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('type');
  });
});

describe('per-patient access checks', () => {
  it('allows a patient of the program, 404 for one of another program or enterprise', async () => {
    const own = await patientOf(1);
    const foreign = await patientOf(3);
    expect((await get(`/api/v1/programs/1/users/${own}/check-access`, 'physician')).json()).toEqual({
      access: true,
    });
    expect((await get(`/api/v1/programs/1/users/${foreign}/check-access`, 'physician')).statusCode).toBe(404);
    expect((await get(`/api/v1/programs/1/users/${own}/check-access`, 'outsider')).statusCode).toBe(404);
    expect((await get(`/api/v1/programs/3/users/${foreign}/check-access`, 'outsider')).statusCode).toBe(200);
  });

  it('checks enterprise access across the enterprise programs', async () => {
    const cardiology = await patientOf(2);
    const harbor = await patientOf(3);
    expect(
      (await get(`/api/v1/enterprises/1/users/${cardiology}/check-enterprise-access`, 'enterprise'))
        .statusCode,
    ).toBe(200);
    expect(
      (await get(`/api/v1/enterprises/1/users/${harbor}/check-enterprise-access`, 'enterprise')).statusCode,
    ).toBe(404);
    expect(
      (await get(`/api/v1/enterprises/1/users/${cardiology}/check-enterprise-access`, 'outsider')).statusCode,
    ).toBe(404);
    // The physician works only in program 1: the cardiology patient is not theirs to see.
    expect(
      (await get(`/api/v1/enterprises/1/users/${cardiology}/check-enterprise-access`, 'physician'))
        .statusCode,
    ).toBe(404);
  });
});

describe('program roles', () => {
  it('lets a program admin change roles, refuses others, and audits the change', async () => {
    const physicianId = await adminId(db, 'physician@caredeck.demo');
    const put = (who: string, body: unknown, id = physicianId) =>
      app.inject({
        method: 'PUT',
        url: `/api/v1/admins/${id}`,
        headers: bearer(tokens[who]!),
        payload: body as object,
      });

    expect((await put('coordinator', { program_id: 1, roles: ['admin'] })).statusCode).toBe(403);
    expect((await put('outsider', { program_id: 1, roles: ['admin'] })).statusCode).toBe(404);
    expect((await put('admin', { program_id: 1, roles: ['superuser'] })).statusCode).toBe(422);
    // Staff of another enterprise answer exactly like an unknown id, and get no role (issue 5 §3).
    const foreign = await put(
      'admin',
      { program_id: 1, roles: ['physician'] },
      await adminId(db, 'outsider@caredeck.demo'),
    );
    const unknown = await put('admin', { program_id: 1, roles: ['physician'] }, 999_999);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    const granted = await db.execute(
      sql`SELECT 1 FROM admin_program_roles WHERE admin_id = ${await adminId(db, 'outsider@caredeck.demo')} AND program_id = 1`,
    );
    expect(granted.rowCount).toBe(0);

    const ok = await put('admin', { program_id: 1, roles: ['physician', 'care_coordinator'] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().roles).toEqual(['care_coordinator', 'physician']);
    const me = await get('/api/v1/user', 'physician');
    expect(
      me
        .json()
        .roles.filter((r: { program_id: number }) => r.program_id === 1)
        .map((r: { name: string }) => r.name)
        .sort(),
    ).toEqual(['care_coordinator', 'physician']);
    const audit = await db.execute(
      sql`SELECT 1 FROM audit_events WHERE action = 'admin.update_program_roles' AND subject_id = ${physicianId}`,
    );
    expect(audit.rowCount).toBe(1);
  });
});

describe('page-time sessions', () => {
  it('records the page time of the caller in the active program', async () => {
    const me = await adminId(db, 'coordinator@caredeck.demo');
    const post = (id: number, body: unknown, programId = 1) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/programs/${programId}/users/${id}/session`,
        headers: bearer(tokens.coordinator!),
        payload: body as object,
      });
    expect(
      (await post(me, { path: '/patients', time_s: 42, name: 'patients', subject_id: null })).statusCode,
    ).toBe(201);
    expect((await post(me, { path: '/patients', time_s: -1 })).statusCode).toBe(422);
    expect((await post(me + 1, { path: '/patients', time_s: 1 })).statusCode).toBe(404);
    expect((await post(me, { path: '/patients', time_s: 1 }, 3)).statusCode).toBe(404);
    // Ids inside the body are checked like path ids: a patient of another program is not a subject here.
    const own = await db.execute<{ id: number }>(sql`SELECT id FROM patients WHERE program_id = 1 LIMIT 1`);
    const other = await db.execute<{ id: number }>(sql`SELECT id FROM patients WHERE program_id = 3 LIMIT 1`);
    expect((await post(me, { path: '/patient', time_s: 5, subject_id: other.rows[0]!.id })).statusCode).toBe(
      404,
    );
    expect((await post(me, { path: '/patient', time_s: 5, subject_id: 999_999_999 })).statusCode).toBe(404);
    expect((await post(me, { path: '/patient', time_s: 7, subject_id: own.rows[0]!.id })).statusCode).toBe(
      201,
    );
    const rows = await db.execute<{ time_s: number }>(
      sql`SELECT time_s FROM page_sessions WHERE admin_id = ${me} ORDER BY id`,
    );
    expect(rows.rows.map((r) => r.time_s)).toEqual([42, 7]);
  });
});

describe('GET programs/{p}/admins', () => {
  it('lists the staff who work in the program with their roles there, and nothing to another enterprise', async () => {
    const g = given(db);
    const program = await g.program();
    const physician = await g.admin({
      givenName: 'Rosa',
      familyName: 'Adams',
      hipaaConsented: true,
      programRoles: [{ programId: program.id, role: 'physician' }],
    });
    await g.admin({
      familyName: 'Elsewhere',
      programRoles: [{ programId: (await g.program()).id, role: 'admin' }],
    });
    const token = (await signIn(app, physician.email, FACTORY_PASSWORD)).token;
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/programs/${program.id}/admins`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: physician.id,
        given_name: 'Rosa',
        family_name: 'Adams',
        name: 'Rosa Adams',
        title: null,
        roles: ['physician'],
      },
    ]);
    const outsider = (await signIn(app, 'outsider@caredeck.demo')).token;
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/api/v1/programs/${program.id}/admins`,
          headers: bearer(outsider),
        })
      ).statusCode,
    ).toBe(404);
  });
});
