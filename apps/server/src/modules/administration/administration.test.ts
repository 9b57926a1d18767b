import { administrationContract as c, ADMINISTRATION_MESSAGES as M, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { decodeLogo, slugify } from './administration.service';

let app: App;
let db: Database;
let enterpriseId = 0;
let otherEnterprise = 0;
let programA = 0;
let programB = 0;
let foreignProgram = 0;
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};

const send = (as: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(tokens[as]!) });

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const pngUrl = `data:image/png;base64,${PNG.toString('base64')}`;

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  enterpriseId = (await g.enterprise({ name: 'Lakeside Health' })).id;
  otherEnterprise = (await g.enterprise()).id;
  programA = (await g.program({ enterpriseId, name: 'Lakeside Heart' })).id;
  programB = (await g.program({ enterpriseId, name: 'Lakeside Lungs', type: 'pharmacy' })).id;
  foreignProgram = (await g.program({ enterpriseId: otherEnterprise })).id;
  const make = async (
    key: string,
    input: Parameters<typeof g.admin>[0],
    familyName = key[0]!.toUpperCase() + key.slice(1),
  ) => {
    const a = await g.admin({ hipaaConsented: true, givenName: 'Pat', familyName, ...input });
    ids[key] = a.id;
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  };
  await make('chief', { enterpriseAdminOf: [enterpriseId] });
  await make('admin', { programRoles: [{ programId: programA, role: 'admin' }] });
  await make('doctor', {
    programRoles: [
      { programId: programA, role: 'physician' },
      { programId: programB, role: 'physician' },
    ],
  });
  await make('nurse', { programRoles: [{ programId: programA, role: 'care_coordinator' }] });
  await make('stranger', { programRoles: [{ programId: foreignProgram, role: 'admin' }] });
});

describe('staff directory', () => {
  it('shows a colleague with the shared programs only, and nobody outside', async () => {
    const seen = await send('nurse', 'GET', routeUrl(c.admin, { id: ids.doctor! }));
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data).toMatchObject({ id: ids.doctor, disabled: false, can_manage: false });
    // The nurse works only in program A: the doctor's program B is not shown to them.
    expect(seen.json().data.programs.map((p: { id: number }) => p.id)).toEqual([programA]);
    const byChief = await send('chief', 'GET', routeUrl(c.admin, { id: ids.doctor! }));
    expect(
      byChief
        .json()
        .data.programs.map((p: { id: number }) => p.id)
        .sort(),
    ).toEqual([programA, programB].sort());
    expect(byChief.json().data.can_manage).toBe(true);
    // The program admin administers A but not B, where the doctor also works.
    expect((await send('admin', 'GET', routeUrl(c.admin, { id: ids.doctor! }))).json().data.can_manage).toBe(
      false,
    );
    const foreign = await send('nurse', 'GET', routeUrl(c.admin, { id: ids.stranger! }));
    const unknown = await send('nurse', 'GET', routeUrl(c.admin, { id: 999_999_999 }));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
  });

  it('lists staff paged with search, program, role and status filters', async () => {
    const all = await send('chief', 'GET', `${c.allAdmins.path}?per_page=100`);
    expect(all.statusCode).toBe(200);
    const names = all.json().data.map((a: { id: number }) => a.id);
    expect(names).toEqual(expect.arrayContaining([ids.chief, ids.admin, ids.doctor, ids.nurse]));
    expect(names).not.toContain(ids.stranger);
    const doctors = await send('chief', 'GET', `${c.allAdmins.path}?role=physician`);
    expect(doctors.json().data.map((a: { id: number }) => a.id)).toEqual([ids.doctor]);
    const inB = await send('chief', 'GET', `${c.allAdmins.path}?program_id=${programB}`);
    // One program: its staff and its enterprise's administrators.
    expect(inB.json().data.map((a: { id: number }) => a.id)).toEqual([ids.chief, ids.doctor]);
    const search = await send('nurse', 'GET', `${c.allAdmins.path}?search=Doct`);
    expect(search.json()).toMatchObject({ total: 1, data: [{ id: ids.doctor, roles: ['physician'] }] });
    const paged = await send('chief', 'GET', `${c.allAdmins.path}?per_page=2&page=2`);
    expect(paged.json()).toMatchObject({ current_page: 2, per_page: 2, total: 4, last_page: 2 });
    expect((await send('nurse', 'GET', `${c.allAdmins.path}?program_id=${foreignProgram}`)).statusCode).toBe(
      404,
    );
    expect((await send('nurse', 'GET', `${c.allAdmins.path}?status=gone`)).statusCode).toBe(422);

    const ofEnterprise = await send('chief', 'GET', routeUrl(c.enterpriseAdmins, { enterpriseId }));
    expect(ofEnterprise.json().data.find((a: { id: number }) => a.id === ids.chief).roles).toEqual([
      'enterprise_admin',
    ]);
    expect((await send('stranger', 'GET', routeUrl(c.enterpriseAdmins, { enterpriseId }))).statusCode).toBe(
      404,
    );

    const physicians = await send('nurse', 'GET', c.physicians.path);
    expect(physicians.json().data).toEqual([
      expect.objectContaining({ id: ids.doctor, program_ids: [programA] }),
    ]);
    expect((await send('nurse', 'GET', `${c.physicians.path}?program_id=${foreignProgram}`)).statusCode).toBe(
      404,
    );
  });
});

describe('staff accounts', () => {
  it('changes roles, the profile and the account state, only for those who administer every place', async () => {
    const url = routeUrl(c.updateAdmin, { id: ids.nurse! });
    // The route declares the administrator roles in the named program (ADR 063): refused before the service.
    expect((await send('nurse', 'PUT', url, { program_id: programA, roles: ['admin'] })).statusCode).toBe(
      403,
    );
    expect((await send('doctor', 'PUT', url, { program_id: programA, roles: ['admin'] })).statusCode).toBe(
      403,
    );
    expect((await send('admin', 'PUT', url, { roles: ['physician'] })).json().errors.program_id).toEqual([
      M.rolesNeedProgram,
    ]);
    const roles = await send('admin', 'PUT', url, {
      program_id: programA,
      roles: ['physician', 'care_coordinator'],
    });
    expect(roles.statusCode).toBe(200);
    expect(roles.json()).toMatchObject({
      message: M.adminUpdated,
      program_id: programA,
      roles: ['care_coordinator', 'physician'],
    });
    const renamed = await send('admin', 'PUT', url, {
      title: 'RN, charge nurse',
      family_name: 'Nightingale',
    });
    expect(renamed.json().data).toMatchObject({ title: 'RN, charge nurse', family_name: 'Nightingale' });

    // The doctor also works in B, which the program admin does not administer: no disabling from A.
    const doctorUrl = routeUrl(c.updateAdmin, { id: ids.doctor! });
    const refused = await send('admin', 'PUT', doctorUrl, { disabled: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(M.notAdministered);
    expect(
      (await send('chief', 'PUT', routeUrl(c.updateAdmin, { id: ids.chief! }), { disabled: true })).json(),
    ).toMatchObject({ errors: { disabled: [M.selfDisable] } });

    // The enterprise admin disables the doctor: the doctor's session ends at once, audited.
    const disabled = await send('chief', 'PUT', doctorUrl, { disabled: true });
    expect(disabled.json().data.disabled).toBe(true);
    expect((await send('doctor', 'GET', '/api/v1/user')).statusCode).toBe(401);
    expect(
      (await send('chief', 'GET', `${c.allAdmins.path}?status=disabled`))
        .json()
        .data.map((a: { id: number }) => a.id),
    ).toEqual([ids.doctor]);
    const enabled = await send('chief', 'PUT', doctorUrl, { disabled: false });
    expect(enabled.json().data.disabled).toBe(false);
    const trail = await db.execute<{ action: string }>(
      sql`SELECT action FROM audit_events WHERE subject_type = 'admin' AND subject_id = ${ids.doctor} AND action LIKE 'admin.%' ORDER BY id`,
    );
    expect(trail.rows.map((r) => r.action)).toEqual(['admin.disable', 'admin.enable']);
    expect((await send('stranger', 'PUT', doctorUrl, { disabled: true })).statusCode).toBe(404);
  });

  it('assigns staff of the enterprise to a program with its auto-roles', async () => {
    const body = { program_id: programB, admin_ids: [ids.nurse!] };
    expect((await send('admin', 'POST', c.assignAdmins.path, body)).statusCode).toBe(404);
    const ok = await send('chief', 'POST', c.assignAdmins.path, body);
    expect(ok.json()).toMatchObject({
      message: M.programUsersUpdated,
      roles: ['pharmacy'],
      added: [ids.nurse],
    });
    const again = await send('chief', 'POST', c.assignAdmins.path, body);
    expect(again.json().added).toEqual([]);
    const foreign = await send('chief', 'POST', c.assignAdmins.path, {
      program_id: programB,
      admin_ids: [ids.stranger],
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await send('chief', 'POST', c.assignAdmins.path, { program_id: programB, admin_ids: [] })).statusCode,
    ).toBe(422);
  });
});

describe('programs and enterprises', () => {
  it('creates, shows and updates programs with a logo, for their administrators', async () => {
    expect(slugify('Lakeside Kidney Care!')).toBe('lakeside-kidney-care');
    const create = await send('chief', 'POST', c.createProgram.path, {
      name: 'Lakeside Kidney Care',
      type: 'monitoring',
      image: pngUrl,
    });
    expect(create.statusCode).toBe(201);
    expect(create.json()).toMatchObject({
      message: M.programCreated,
      data: {
        slug: 'lakeside-kidney-care',
        enterprise: { id: enterpriseId },
        has_image: true,
        can_manage: true,
      },
    });
    const id = create.json().data.id as number;
    const twice = await send('chief', 'POST', c.createProgram.path, { name: 'Lakeside Kidney Care' });
    expect(twice.json().data.slug).toBe('lakeside-kidney-care-2');
    expect(
      (await send('chief', 'POST', c.createProgram.path, { name: 'X1', slug: 'lakeside-kidney-care' })).json()
        .errors.slug,
    ).toEqual([M.slugTaken]);
    expect((await send('admin', 'POST', c.createProgram.path, { name: 'Mine' })).statusCode).toBe(403);
    expect(
      (await send('chief', 'POST', c.createProgram.path, { name: 'Theirs', enterprise_id: otherEnterprise }))
        .statusCode,
    ).toBe(404);
    // A picture that is not what it says is refused, and nothing is written.
    const fake = await send('chief', 'POST', c.createProgram.path, {
      name: 'Fake logo',
      image: `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`,
    });
    expect(fake.json().errors.image).toEqual([M.badImage]);
    expect((await db.execute(sql`SELECT 1 FROM programs WHERE name = 'Fake logo'`)).rowCount).toBe(0);

    const image = await send('chief', 'GET', routeUrl(c.programImage, { programId: id }));
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const show = await send('chief', 'GET', routeUrl(c.showProgram, { programId: id }));
    expect(show.json().data).toMatchObject({
      name: 'Lakeside Kidney Care',
      counts: { patients: 0, staff: 1 },
    });
    expect((await send('stranger', 'GET', routeUrl(c.showProgram, { programId: id }))).statusCode).toBe(404);

    const update = await send('chief', 'POST', routeUrl(c.updateProgram, { programId: id }), {
      name: 'Lakeside Renal',
      modules: ['patients', 'alerts'],
      image: null,
    });
    expect(update.json()).toMatchObject({
      message: M.programUpdated,
      data: { name: 'Lakeside Renal', modules: ['patients', 'alerts'], has_image: false },
    });
    expect((await send('chief', 'GET', routeUrl(c.programImage, { programId: id }))).statusCode).toBe(404);
    expect(
      (await send('nurse', 'POST', routeUrl(c.updateProgram, { programId: programA }), { name: 'Nope' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await send('admin', 'POST', routeUrl(c.updateProgram, { programId: programA }), {})).statusCode,
    ).toBe(422);
  });

  it('shows and updates the enterprise, with its history and logo', async () => {
    const detail = await send(
      'nurse',
      'GET',
      `${routeUrl(c.enterprise, { enterpriseId })}?withRelations=true`,
    );
    expect(detail.json().data).toMatchObject({ name: 'Lakeside Health', can_manage: false });
    // The nurse sees their own programs of the enterprise only.
    expect(detail.json().data.programs.map((p: { id: number }) => p.id)).toContain(programA);
    expect((await send('stranger', 'GET', routeUrl(c.enterprise, { enterpriseId }))).statusCode).toBe(404);
    expect(
      (await send('nurse', 'POST', routeUrl(c.updateEnterprise, { enterpriseId }), { name: 'Mine' }))
        .statusCode,
    ).toBe(403);
    const update = await send('chief', 'POST', routeUrl(c.updateEnterprise, { enterpriseId }), {
      name: 'Lakeside Health System',
      image: pngUrl,
    });
    expect(update.json()).toMatchObject({ message: M.enterpriseUpdated, data: { has_image: true } });
    const logo = await send('nurse', 'GET', routeUrl(c.enterpriseImage, { enterpriseId }));
    expect(logo.rawPayload.equals(PNG)).toBe(true);

    const history = await send('chief', 'GET', routeUrl(c.enterpriseHistory, { enterpriseId }));
    expect(history.statusCode).toBe(200);
    const actions = history.json().data.map((h: { action: string }) => h.action);
    expect(actions[0]).toBe('enterprise.update');
    expect(actions).toEqual(expect.arrayContaining(['program.create', 'admin.assign', 'admin.disable']));
    expect(history.json().data[0].actor).toMatchObject({ id: ids.chief });
    expect((await send('nurse', 'GET', routeUrl(c.enterpriseHistory, { enterpriseId }))).statusCode).toBe(
      403,
    );

    const ofProgram = await send('nurse', 'GET', routeUrl(c.programEnterprise, { programId: programA }));
    expect(ofProgram.json().data).toMatchObject({ id: enterpriseId, name: 'Lakeside Health System' });
    const withRelations = await send('nurse', 'GET', '/api/v1/enterprises?withRelations=true');
    const mine = withRelations.json().data.find((e: { id: number }) => e.id === enterpriseId);
    expect(mine.programs.map((p: { id: number }) => p.id)).toContain(programA);
  });

  it('reads logos by their bytes, not their label', () => {
    expect(decodeLogo(pngUrl)?.contentType).toBe('image/png');
    expect(() => decodeLogo(`data:image/jpeg;base64,${PNG.toString('base64')}`)).toThrow();
    expect(decodeLogo(null)).toBeNull();
  });
});
