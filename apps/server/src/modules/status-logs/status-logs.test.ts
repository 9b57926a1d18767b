import {
  bulkActionsContract,
  statusLogsContract as c,
  STATUS_LOG_MESSAGES as M,
  patientRecordContract as records,
  routeUrl,
  type StatusLogEntry,
} from '@caredeck/contracts';
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
const program = { a: 0, b: 0, foreign: 0 };
let enterpriseId = 0;
let foreignEnterpriseId = 0;
const staff = { admin: 0, nurse: 0 };
const patient = { ada: 0, grace: 0, alan: 0, inB: 0, foreign: 0 };
const tokens: Record<string, string> = {};
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = dayOf(Date.now());

const send = (as: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(tokens[as]!) });
const log = (as: string, query: Record<string, string> = {}, programId = program.a) =>
  send(as, 'GET', routeUrl(c.list, { programId }, query));
const rows = (res: { json: () => { data: StatusLogEntry[] } }) => res.json().data;

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  enterpriseId = (await g.enterprise()).id;
  foreignEnterpriseId = (await g.enterprise()).id;
  program.a = (await g.program({ enterpriseId, name: 'Heart Failure' })).id;
  program.b = (await g.program({ enterpriseId, name: 'Diabetes' })).id;
  program.foreign = (await g.program({ enterpriseId: foreignEnterpriseId })).id;
  const make = async (key: string, input: Parameters<typeof g.admin>[0]) => {
    const a = await g.admin({ hipaaConsented: true, ...input });
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
    return a.id;
  };
  staff.admin = await make('admin', {
    givenName: 'Maria',
    familyName: 'Admin',
    programRoles: [
      { programId: program.a, role: 'admin' },
      { programId: program.b, role: 'admin' },
    ],
  });
  staff.nurse = await make('nurse', {
    givenName: 'Nina',
    familyName: 'Nurse',
    programRoles: [{ programId: program.a, role: 'care_coordinator' }],
  });
  await make('pharmacist', { programRoles: [{ programId: program.a, role: 'pharmacy' }] });
  await make('enterprise', { enterpriseAdminOf: [enterpriseId] });
  await make('stranger', { programRoles: [{ programId: program.foreign, role: 'admin' }] });
  const [ada, grace, alan] = await g.patients([
    { programId: program.a, firstName: 'Ada', lastName: 'Lovelace' },
    { programId: program.a, firstName: 'Grace', lastName: 'Hopper' },
    { programId: program.a, firstName: 'Alan', lastName: 'Turing' },
  ]);
  Object.assign(patient, { ada, grace, alan });
  await db.execute(sql`UPDATE patients SET mrn = 'HF-0042' WHERE id = ${patient.ada}`);
  patient.inB = (await g.patient({ programId: program.b, firstName: 'Bea', lastName: 'Bee' })).id;
  patient.foreign = (await g.patient({ programId: program.foreign, firstName: 'Far', lastName: 'Away' })).id;

  // The changes the log should show, made through the API as the console makes them.
  const single = await send('nurse', 'POST', routeUrl(records.setStatus, { id: patient.ada }), {
    value: 'pending',
  });
  expect(single.statusCode, single.body).toBe(200);
  const bulk = await send('admin', 'POST', routeUrl(records.bulkStatus, {}), {
    users_id: [patient.ada, patient.grace],
    value: 'discharged',
  });
  expect(bulk.json()).toEqual({ updated: 2 });
  const off = await send(
    'admin',
    'DELETE',
    routeUrl(records.deactivate, { id: patient.alan }, { program_id: program.a }),
  );
  expect(off.statusCode, off.body).toBe(200);
  await send('admin', 'POST', routeUrl(records.setStatus, { id: patient.inB }), { value: 'pending' });
  await g.statusChange({ patientId: patient.foreign, status: 'inactive', previousStatus: 'active' });
});

describe('status log', () => {
  it('lists the program’s status changes newest first: who, which patient, from → to, how, when', async () => {
    const res = await log('nurse');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ current_page: 1, last_page: 1, per_page: 10, total: 4 });
    const changes = rows(res).map((r) => [r.patient.id, r.from, r.to, r.source]);
    expect(changes[0]).toEqual([patient.alan, 'active', 'inactive', 'activation']);
    // One bulk change of two patients: same time, in either order.
    expect(changes.slice(1, 3)).toEqual(
      expect.arrayContaining([
        [patient.grace, 'active', 'discharged', 'bulk'],
        [patient.ada, 'pending', 'discharged', 'bulk'],
      ]),
    );
    expect(changes[3]).toEqual([patient.ada, 'active', 'pending', 'single']);
    const singleAda = rows(res)[3];
    const bulkAda = rows(res).find((r) => r.patient.id === patient.ada && r.source === 'bulk');
    expect(singleAda).toMatchObject({
      patient: { id: patient.ada, name: 'Ada Lovelace', mrn: 'HF-0042' },
      program: { id: program.a, name: 'Heart Failure' },
      changed_by: { id: staff.nurse, name: 'Nina Nurse' },
      reason: null,
    });
    expect(bulkAda!.changed_by).toEqual({ id: staff.admin, name: 'Maria Admin' });
    expect(Date.parse(singleAda!.at)).toBeGreaterThan(Date.now() - 60_000);
    // Anyone who sees the program's patients reads it; program B's and the foreign change never show.
    const pharmacy = await log('pharmacist');
    expect(pharmacy.statusCode).toBe(200);
    expect(rows(pharmacy).map((r) => r.patient.id)).not.toContain(patient.inB);
  });

  it('writes a PHI-view audit row for each read, without the search text', async () => {
    await log('nurse', { search: 'Lovelace' });
    const [row] = (
      await db.execute<{ program_id: number; details: Record<string, unknown> }>(sql`
        SELECT program_id, details FROM audit_events
        WHERE action = 'status_logs.list' AND actor_admin_id = ${staff.nurse} ORDER BY id DESC LIMIT 1`)
    ).rows;
    expect(row).toMatchObject({
      program_id: program.a,
      details: { filters: ['search'], page: 1, per_page: 10, returned: 2, end: today },
    });
    expect(JSON.stringify(row!.details)).not.toContain('Lovelace');
  });

  it('filters by status, staff member, how, patient name or MRN, and period', async () => {
    const ids = async (query: Record<string, string>) => rows(await log('admin', query)).map((r) => r.id);
    const all = rows(await log('admin'));
    const expected = (keep: (r: StatusLogEntry) => boolean) => all.filter(keep).map((r) => r.id);
    expect(await ids({ status: 'discharged' })).toEqual(expected((r) => r.to === 'discharged'));
    expect(await ids({ admin_id: String(staff.nurse) })).toEqual(
      expected((r) => r.changed_by?.id === staff.nurse),
    );
    expect(await ids({ source: 'activation' })).toEqual(expected((r) => r.patient.id === patient.alan));
    expect(await ids({ search: 'love' })).toEqual(expected((r) => r.patient.id === patient.ada));
    expect(await ids({ search: 'love' })).toHaveLength(2);
    expect(await ids({ search: 'ada love' })).toHaveLength(2);
    expect(await ids({ search: 'hf-0042' })).toHaveLength(2);
    expect(await ids({ search: 'nobody' })).toEqual([]);
    expect(await ids({ status: 'pending', search: 'grace' })).toEqual([]);

    // Older changes: outside the default 30 days, inside a period that names their day (end day included).
    const g = given(db);
    const old = Date.now() - 45 * DAY;
    const [early] = await g.statusChanges([
      { patientId: patient.grace, status: 'pending', previousStatus: 'active', at: new Date(old) },
    ]);
    expect(await ids({})).not.toContain(early);
    expect(await ids({ start: dayOf(old), end: dayOf(old) })).toEqual([early]);
    expect(await ids({ start: dayOf(old - 10 * DAY), end: dayOf(old - DAY) })).toEqual([]);
  });

  it('pages with the shared envelope', async () => {
    const first = await log('admin', { per_page: '3' });
    expect(first.json()).toMatchObject({ current_page: 1, last_page: 2, per_page: 3, total: 4 });
    const second = await log('admin', { per_page: '3', page: '2' });
    expect(second.json()).toMatchObject({ current_page: 2, last_page: 2, total: 4 });
    expect(rows(second)).toHaveLength(1);
    expect(rows(second)[0]!.id).not.toBe(rows(first)[2]!.id);
    expect(rows(await log('admin', { page: '9' }))).toEqual([]);
    // Oversized pages are capped, as every list.
    expect((await log('admin', { per_page: '1000' })).json().per_page).toBe(100);
  });

  it('shows a bulk action’s changes with its note as the reason', async () => {
    const g = given(db);
    const target = (await g.patient({ programId: program.a, firstName: 'Katherine', lastName: 'Johnson' }))
      .id;
    const created = await send('nurse', 'POST', routeUrl(bulkActionsContract.create, {}), {
      program_id: program.a,
      users_id: [target],
      action: 'patient_status',
      value: 'pending',
      note: 'Waiting for a device',
    });
    expect(created.statusCode, created.body).toBe(201);
    const approved = await send('admin', 'PUT', routeUrl(bulkActionsContract.approve, {}), {
      job_id: created.json().data.job_id,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(rows(await log('nurse', { search: 'Katherine' }))).toEqual([
      expect.objectContaining({
        from: 'active',
        to: 'pending',
        source: 'bulk_action',
        reason: 'Waiting for a device',
        changed_by: { id: staff.admin, name: 'Maria Admin' },
      }),
    ]);
  });

  it('records an enrolment, and follows a patient who moves to another program', async () => {
    const enrolled = await send('admin', 'POST', routeUrl(records.create, { programId: program.a }), {
      first_name: 'Mary',
      last_name: 'Jackson',
      dob: '1950-04-09',
      sex: 'female',
      status: 'pending',
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    const id = enrolled.json().id as number;
    expect(rows(await log('admin', { search: 'Jackson' }))).toEqual([
      expect.objectContaining({ from: null, to: 'pending', source: 'enrolment' }),
    ]);
    const moved = await send('admin', 'PUT', routeUrl(records.changeProgram, { id }), {
      old_program_id: program.a,
      new_program_id: program.b,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(rows(await log('admin', { search: 'Jackson' }))).toEqual([]);
    expect(rows(await log('admin', { search: 'Jackson' }, program.b))).toEqual([
      expect.objectContaining({
        patient: expect.objectContaining({ id }),
        program: { id: program.b, name: 'Diabetes' },
      }),
    ]);
  });

  it('reads across the enterprise’s programs, or one of them, never another enterprise’s', async () => {
    const url = (query: Record<string, string> = {}, id = enterpriseId) =>
      routeUrl(c.enterpriseList, { enterpriseId: id }, query);
    const all = await send('enterprise', 'GET', url({ per_page: '100' }));
    expect(all.statusCode, all.body).toBe(200);
    const programs = new Set(rows(all).map((r) => r.program.id));
    expect(programs).toEqual(new Set([program.a, program.b]));
    expect(rows(all).map((r) => r.patient.id)).not.toContain(patient.foreign);
    // Newest first across programs.
    const times = rows(all).map((r) => r.at);
    expect([...times].sort().reverse()).toEqual(times);
    const onlyB = await send('enterprise', 'GET', url({ program_id: String(program.b) }));
    expect(new Set(rows(onlyB).map((r) => r.program.id))).toEqual(new Set([program.b]));
    expect(onlyB.json().total).toBe(rows(onlyB).length);
    // Paging merges the programs' pages.
    const pageTwo = await send('enterprise', 'GET', url({ per_page: '2', page: '2' }));
    expect(rows(pageTwo).map((r) => r.id)).toEqual(
      rows(all)
        .slice(2, 4)
        .map((r) => r.id),
    );
    expect(pageTwo.json().total).toBe(all.json().total);

    const foreignProgram = await send('enterprise', 'GET', url({ program_id: String(program.foreign) }));
    expect(foreignProgram.statusCode).toBe(404);
    expect(foreignProgram.json().message).toBe(M.programNotFound);
    expect((await send('enterprise', 'GET', url({}, foreignEnterpriseId))).statusCode).toBe(404);
    expect((await send('stranger', 'GET', url())).statusCode).toBe(404);
  });

  it('answers 404 for another program, 401 without a session', async () => {
    expect((await log('stranger')).statusCode).toBe(404);
    expect((await log('nurse', {}, program.b)).statusCode).toBe(404);
    expect((await log('admin', {}, program.foreign)).statusCode).toBe(404);
    expect((await log('admin', {}, 987_654_321)).statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: routeUrl(c.list, { programId: program.a }) });
    expect(anonymous.statusCode).toBe(401);
    const anonymousEnterprise = await app.inject({
      method: 'GET',
      url: routeUrl(c.enterpriseList, { enterpriseId }),
    });
    expect(anonymousEnterprise.statusCode).toBe(401);
  });

  it('refuses bad parameters with 422 naming the field', async () => {
    const errors = async (query: Record<string, string>) => {
      const res = await log('admin', query);
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
      return Object.keys(res.json().errors);
    };
    expect(await errors({ start: '2026-13-01' })).toEqual(['start']);
    expect(await errors({ start: '2026-02-31' })).toEqual(['start']);
    expect(await errors({ end: 'yesterday' })).toEqual(['end']);
    expect(await errors({ start: today, end: dayOf(Date.now() - DAY) })).toEqual(['end']);
    expect(await errors({ start: dayOf(Date.now() - 400 * DAY), end: today })).toEqual(['end']);
    expect(await errors({ status: 'asleep' })).toEqual(['status']);
    expect(await errors({ source: 'magic' })).toEqual(['source']);
    expect(await errors({ admin_id: 'me' })).toEqual(['admin_id']);
    expect(await errors({ page: '0' })).toEqual(['page']);
    expect(await errors({ per_page: '-1' })).toEqual(['per_page']);
    expect(await errors({ search: 'a\u0000b' })).toEqual(['search']);
    expect(await errors({ search: 'x'.repeat(101) })).toEqual(['search']);
  });
});
