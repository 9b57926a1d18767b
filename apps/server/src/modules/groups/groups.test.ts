import { groupsContract as c, GROUP_MESSAGES, type RouteContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const token = { coordinator: '', pharma: '', outsider: '' };
const program = { a: 0, b: 0, other: 0 };
const patients = { a: [] as number[], b: [] as number[], other: [] as number[] };

const url = (contract: RouteContract, params?: Record<string, number>, query?: Record<string, string>) =>
  routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  const enterprise = await g.enterprise();
  program.a = (await g.program({ enterpriseId: enterprise.id })).id;
  program.b = (await g.program({ enterpriseId: enterprise.id })).id;
  program.other = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  for (const key of ['a', 'b', 'other'] as const)
    patients[key] = await g.patients(
      ['Avery', 'Blake', 'Casey'].map((lastName) => ({
        programId: program[key],
        firstName: 'Pat',
        lastName,
      })),
    );
  const signed = async (
    programRoles: { programId: number; role: 'care_coordinator' | 'pharma' | 'admin' }[],
  ) => {
    const admin = await g.admin({ hipaaConsented: true, programRoles });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.coordinator = await signed([
    { programId: program.a, role: 'care_coordinator' },
    { programId: program.b, role: 'care_coordinator' },
  ]);
  token.pharma = await signed([{ programId: program.a, role: 'pharma' }]);
  token.outsider = await signed([{ programId: program.other, role: 'admin' }]);
});

describe('cohorts', () => {
  it('creates a cohort with patients, lists it with its count, and finds it by name or keyword', async () => {
    const res = await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), {
      name: ' Heart failure, high risk ',
      description: 'Weight gain alerts in the last 30 days',
      users: [patients.a[0], patients.a[1], patients.a[1]],
    });
    expect(res.statusCode, res.body).toBe(201);
    const group = res.json();
    expect(group).toMatchObject({ name: 'Heart failure, high risk', users_count: 2, program_id: program.a });
    expect(group.users.map((u: { last_name: string }) => u.last_name)).toEqual(['Avery', 'Blake']);
    await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), {
      name: 'COPD follow-up',
    });

    const list = await call(
      token.coordinator,
      'GET',
      url(c.list, { programId: program.a }, { keyword: 'weight' }),
    );
    expect(list.json()).toMatchObject({ total: 1, data: [{ id: group.id, users_count: 2 }] });
    const byName = await call(
      token.coordinator,
      'GET',
      url(c.list, { programId: program.a }, { name: 'copd' }),
    );
    expect(byName.json().data.map((g: { name: string }) => g.name)).toEqual(['COPD follow-up']);
    const all = await call(
      token.pharma,
      'GET',
      url(c.list, { programId: program.a }, { per_page: '1', page: '2' }),
    );
    expect(all.json()).toMatchObject({ total: 2, last_page: 2, current_page: 2 });
    expect(all.json().data[0].name).toBe('Heart failure, high risk');
  });

  it('refuses a duplicate name (422) and patients of another program (404, nothing saved)', async () => {
    await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), { name: 'Diabetes' });
    const dup = await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), {
      name: 'DIABETES',
    });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toEqual({ name: [GROUP_MESSAGES.nameTaken] });
    const foreign = await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), {
      name: 'Mixed',
      users: [patients.a[0], patients.b[0]],
    });
    expect(foreign.statusCode).toBe(404);
    const saved = await db.execute(sql`SELECT 1 FROM groups WHERE name = 'Mixed'`);
    expect(saved.rowCount).toBe(0);
    const empty = await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), {
      name: '  ',
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toHaveProperty('name');
  });

  it('updates, adds and removes patients one by one or many at once', async () => {
    const { id } = await given(db).group({ programId: program.b });
    const renamed = await call(token.coordinator, 'PUT', url(c.update, { programId: program.b, id }), {
      name: 'Renamed',
    });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', users_count: 0 });
    const one = await call(
      token.coordinator,
      'POST',
      url(c.addUser, { programId: program.b, groupId: id, userId: patients.b[2]! }),
    );
    expect(one.json().users_count).toBe(1);
    const many = await call(token.coordinator, 'POST', url(c.addUsers, { id }), { users: patients.b });
    expect(many.json().users_count).toBe(3);
    const removed = await call(
      token.coordinator,
      'DELETE',
      url(c.removeUser, { programId: program.b, groupId: id, userId: patients.b[0]! }),
    );
    expect(removed.json().users_count).toBe(2);
    const again = await call(
      token.coordinator,
      'DELETE',
      url(c.removeUser, { programId: program.b, groupId: id, userId: patients.b[0]! }),
    );
    expect(again.statusCode).toBe(404);
    // A cohort of program B through program A's path does not exist.
    const wrongPath = await call(token.coordinator, 'PUT', url(c.update, { programId: program.a, id }), {
      name: 'X',
    });
    expect(wrongPath.statusCode).toBe(404);
    const foreignPatient = await call(token.coordinator, 'POST', url(c.addUsers, { id }), {
      users: [patients.other[0]],
    });
    expect(foreignPatient.statusCode).toBe(404);
  });

  it("opens a cohort with its patients, lists a patient's cohorts, and deletes a cohort but not its patients", async () => {
    const { id } = await given(db).group({
      programId: program.a,
      name: 'Open me',
      patientIds: [patients.a[2]!],
    });
    const detail = await call(token.pharma, 'GET', url(c.get, { id }));
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      name: 'Open me',
      users: [{ id: patients.a[2], last_name: 'Casey' }],
    });
    const views = await db.execute(
      sql`SELECT 1 FROM audit_events WHERE action = 'group.view' AND subject_id = ${id}`,
    );
    expect(views.rowCount).toBe(1);
    const ofPatient = await call(
      token.coordinator,
      'GET',
      url(c.patientGroups, undefined, { patient_id: String(patients.a[2]) }),
    );
    expect(ofPatient.json().data.map((g: { name: string }) => g.name)).toContain('Open me');
    expect(
      (
        await call(
          token.outsider,
          'GET',
          url(c.patientGroups, undefined, { patient_id: String(patients.a[2]) }),
        )
      ).statusCode,
    ).toBe(404);
    expect((await call(token.pharma, 'DELETE', url(c.delete, { id }))).statusCode).toBe(403);
    expect((await call(token.outsider, 'DELETE', url(c.delete, { id }))).statusCode).toBe(404);
    expect((await call(token.coordinator, 'DELETE', url(c.delete, { id }))).statusCode).toBe(204);
    expect((await call(token.coordinator, 'GET', url(c.get, { id }))).statusCode).toBe(404);
    const kept = await db.execute(sql`SELECT 1 FROM patients WHERE id = ${patients.a[2]!}`);
    expect(kept.rowCount).toBe(1);
  });

  it('answers 401 signed out and 404 to staff of another enterprise', async () => {
    const { id } = await given(db).group({ programId: program.a });
    expect((await app.inject({ method: 'GET', url: url(c.get, { id }) })).statusCode).toBe(401);
    expect((await call(token.outsider, 'GET', url(c.get, { id }))).statusCode).toBe(404);
    expect((await call(token.outsider, 'GET', url(c.list, { programId: program.a }))).statusCode).toBe(404);
  });
});
