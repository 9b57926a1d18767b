import {
  patientRecordContract as c,
  PATIENT_MESSAGES,
  type RouteContract,
  routeUrl,
  statusLogsContract,
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
/** Tokens: a coordinator of programs A and B, a physician of A, a pharma user of A, staff of another enterprise. */
const token = { coordinator: '', physician: '', pharma: '', outsider: '' };
const program = { a: 0, b: 0, foreign: 0, otherEnterprise: 0 };
const staff = { coordinator: 0, physician: 0, outsider: 0 };

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  const enterprise = await g.enterprise();
  const other = await g.enterprise();
  program.a = (await g.program({ enterpriseId: enterprise.id })).id;
  program.b = (await g.program({ enterpriseId: enterprise.id })).id;
  program.otherEnterprise = (await g.program({ enterpriseId: other.id })).id;
  program.foreign = program.otherEnterprise;
  const make = async (
    roles: { programId: number; role: 'admin' | 'physician' | 'care_coordinator' | 'pharma' }[],
  ) => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: roles });
    return { id: admin.id, token: (await signIn(app, admin.email, FACTORY_PASSWORD)).token };
  };
  const coordinator = await make([
    { programId: program.a, role: 'care_coordinator' },
    { programId: program.b, role: 'care_coordinator' },
  ]);
  const physician = await make([{ programId: program.a, role: 'physician' }]);
  const pharma = await make([{ programId: program.a, role: 'pharma' }]);
  const outsider = await make([
    { programId: program.otherEnterprise, role: 'admin' },
    { programId: program.otherEnterprise, role: 'care_coordinator' },
  ]);
  Object.assign(token, {
    coordinator: coordinator.token,
    physician: physician.token,
    pharma: pharma.token,
    outsider: outsider.token,
  });
  Object.assign(staff, { coordinator: coordinator.id, physician: physician.id, outsider: outsider.id });
});

const url = (
  contract: RouteContract,
  input: { params?: Record<string, number>; query?: Record<string, string> } = {},
) => routeUrl(contract, input.params, input.query);

type Call = { method: string; url: string; payload?: unknown };
const call = (as: string, req: Call) =>
  app.inject({
    method: req.method as 'GET',
    url: req.url,
    payload: req.payload as object,
    headers: bearer(as),
  });

const ada = () => ({
  first_name: ' Ada ',
  last_name: 'Lovelace',
  dob: '1954-04-01',
  sex: 'female',
  mrn: `MRN-${Math.random().toString(36).slice(2, 8)}`,
  email: 'Ada.Lovelace@Example.com',
  phone_number: '(215) 555-0142',
  address_line1: '12 Market St',
  city: 'Philadelphia',
  state: 'PA',
  zip: '19106',
  time_zone: 'America/New_York',
  race: 'White',
  ethnicity: 'Not Hispanic or Latino',
  income: '50k_75k',
  consent_at: '2026-11-02',
  consent_method: 'written',
});

async function enrol(programId = program.a, overrides: Record<string, unknown> = {}) {
  const res = await call(token.coordinator, {
    method: 'POST',
    url: url(c.create, { params: { programId } }),
    payload: { ...ada(), physician_id: staff.physician, ...overrides },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const auditRows = async (patientId: number) =>
  (
    await db.execute<{ action: string; details: Record<string, unknown> | null }>(
      sql`SELECT action, details FROM audit_events WHERE subject_type = 'patient' AND subject_id = ${patientId} ORDER BY id`,
    )
  ).rows;

describe('POST programs/{p}/users (enrolment)', () => {
  it('enrols a patient with normalised fields, a status history and an audit row without PHI', async () => {
    const patient = await enrol();
    expect(patient).toMatchObject({
      program_id: program.a,
      programs: [{ id: program.a }],
      first_name: 'Ada',
      name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
      phone_number: '+12155550142',
      state: 'PA',
      status: 'active',
      active: true,
      consent_at: '2026-11-02',
      physician: { id: staff.physician },
      notification_settings: { sms: true, email: true, push: true, voice: false },
      has_app_password: false,
    });
    expect(patient.age).toBeGreaterThanOrEqual(71);
    const status = await call(token.physician, {
      method: 'GET',
      url: url(c.status, { params: { id: patient.id } }),
    });
    expect(status.json()).toMatchObject({
      status: 'active',
      history: [{ status: 'active', by: { id: staff.coordinator } }],
    });
    const rows = await auditRows(patient.id);
    expect(rows[0]).toEqual({ action: 'patient.create', details: null });
    expect(JSON.stringify(rows)).not.toContain('Lovelace');
  });

  it('answers 422 with every field error at once, and saves nothing', async () => {
    const before = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients`);
    const res = await call(token.coordinator, {
      method: 'POST',
      url: url(c.create, { params: { programId: program.a } }),
      payload: {
        first_name: '',
        last_name: 'X',
        dob: '2999-01-01',
        sex: 'female',
        phone_number: '555',
        zip: '1910',
        state: 'XX',
        time_zone: 'Mars/Olympus',
        consent_method: 'verbal',
      },
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(Object.keys(errors).sort()).toEqual([
      'dob',
      'first_name',
      'phone_number',
      'state',
      'time_zone',
      'zip',
    ]);
    expect(errors.dob).toEqual([PATIENT_MESSAGES.dobFuture]);
    expect(errors.phone_number).toEqual([PATIENT_MESSAGES.phone]);
    const after = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('refuses a taken MRN and staff who do not work in the program (422)', async () => {
    const first = await enrol();
    const res = await call(token.coordinator, {
      method: 'POST',
      url: url(c.create, { params: { programId: program.a } }),
      payload: { ...ada(), mrn: first.mrn.toLowerCase(), assigned_admin_id: staff.outsider },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      mrn: [PATIENT_MESSAGES.mrnTaken],
      assigned_admin_id: ['Choose a staff member of this program.'],
    });
    // The same MRN is free in another program.
    await enrol(program.b, { mrn: first.mrn, physician_id: null });
    // A consent method needs the date consent was obtained.
    const consent = await call(token.coordinator, {
      method: 'POST',
      url: url(c.create, { params: { programId: program.a } }),
      payload: { ...ada(), consent_at: null },
    });
    expect(consent.json().errors).toEqual({ consent_at: [PATIENT_MESSAGES.consentDate] });
  });

  it('answers 401 signed out, 404 to another enterprise and 403 to a role that does not look after patients', async () => {
    const target = url(c.create, { params: { programId: program.a } });
    expect((await app.inject({ method: 'POST', url: target, payload: ada() })).statusCode).toBe(401);
    expect((await call(token.outsider, { method: 'POST', url: target, payload: ada() })).statusCode).toBe(
      404,
    );
    expect((await call(token.pharma, { method: 'POST', url: target, payload: ada() })).statusCode).toBe(403);
  });
});

describe('the patient record', () => {
  it('answers the record to staff of its program, audits the view, and 404 elsewhere', async () => {
    const patient = await enrol();
    const res = await call(token.pharma, {
      method: 'GET',
      url: url(c.get, { params: { programId: program.a, id: patient.id } }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(patient.id);
    expect((await auditRows(patient.id)).map((r) => r.action)).toContain('patient.view');
    // Through another program's path, even one the user works in, the patient does not exist.
    const viaB = await call(token.coordinator, {
      method: 'GET',
      url: url(c.get, { params: { programId: program.b, id: patient.id } }),
    });
    expect(viaB.statusCode).toBe(404);
    const outsider = await call(token.outsider, {
      method: 'GET',
      url: url(c.get, { params: { programId: program.otherEnterprise, id: patient.id } }),
    });
    expect(outsider.statusCode).toBe(404);
  });

  it('edits only the fields sent, records which fields changed, and 404s for staff of another enterprise', async () => {
    const patient = await enrol();
    const target = url(c.update, { params: { id: patient.id } });
    const res = await call(token.physician, {
      method: 'POST',
      url: target,
      payload: { city: 'Pittsburgh', zip: '15222' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      city: 'Pittsburgh',
      zip: '15222',
      first_name: 'Ada',
      mrn: patient.mrn,
    });
    const rows = await auditRows(patient.id);
    expect(rows.at(-1)).toEqual({ action: 'patient.update', details: { fields: ['city', 'zip'] } });
    expect(
      (await call(token.outsider, { method: 'POST', url: target, payload: { city: 'X' } })).statusCode,
    ).toBe(404);
    expect(
      (await call(token.pharma, { method: 'POST', url: target, payload: { city: 'X' } })).statusCode,
    ).toBe(403);
    expect(
      (await call(token.physician, { method: 'POST', url: '/api/v1/users/99999999', payload: { city: 'X' } }))
        .statusCode,
    ).toBe(404);
    const bad = await call(token.physician, {
      method: 'POST',
      url: target,
      payload: { email: 'not-an-email' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('email');
  });

  it('finds possible duplicates by name and birth date, e-mail, phone or MRN, never the patient itself', async () => {
    const patient = await enrol();
    const probe = (patientId: number, query: Record<string, string>) =>
      call(token.coordinator, {
        method: 'GET',
        url: url(c.checkExists, { params: { programId: program.a, patientId }, query }),
      });
    const byName = await probe(0, { first_name: 'ada', last_name: 'LOVELACE', dob: '1954-04-01' });
    expect(byName.statusCode).toBe(200);
    const match = byName.json().matches.find((m: { id: number }) => m.id === patient.id);
    expect(match).toMatchObject({ reasons: ['name_dob'], program: { id: program.a } });
    const byPhone = await probe(0, { phone_number: '215.555.0142', mrn: patient.mrn });
    expect(byPhone.json().matches.find((m: { id: number }) => m.id === patient.id).reasons).toEqual([
      'phone',
      'mrn',
    ]);
    const self = await probe(patient.id, { mrn: patient.mrn });
    expect(self.json()).toEqual({ exists: false, matches: [] });
    // The spec's spelling of the path ends with a slash (01 §7): it answers the same.
    const slash = await call(token.coordinator, {
      method: 'GET',
      url: `${url(c.checkExists, { params: { programId: program.a, patientId: 0 } })}/?mrn=${patient.mrn}`,
    });
    expect(slash.statusCode, slash.body).toBe(200);
    expect(slash.json().matches.map((m: { id: number }) => m.id)).toContain(patient.id);
    // Another program's patient, as the one being edited: 404, like every other patient path.
    const foreign = await given(db).patient({ programId: program.otherEnterprise });
    expect((await probe(foreign.id, { mrn: patient.mrn })).statusCode).toBe(404);
  });

  it('moves a patient to another program of the enterprise, and the old program no longer finds it', async () => {
    const patient = await enrol();
    const target = url(c.changeProgram, { params: { id: patient.id } });
    const foreign = await call(token.coordinator, {
      method: 'PUT',
      url: target,
      payload: { old_program_id: program.a, new_program_id: program.otherEnterprise },
    });
    expect(foreign.statusCode).toBe(404);
    const stale = await call(token.coordinator, {
      method: 'PUT',
      url: target,
      payload: { old_program_id: program.b, new_program_id: program.a },
    });
    expect(stale.statusCode).toBe(422);
    const res = await call(token.coordinator, {
      method: 'PUT',
      url: target,
      payload: { old_program_id: program.a, new_program_id: program.b },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ program_id: program.b, programs: [{ id: program.b }] });
    // The physician works in A only: the patient is now outside their scope.
    const gone = await call(token.physician, {
      method: 'GET',
      url: url(c.status, { params: { id: patient.id } }),
    });
    expect(gone.statusCode).toBe(404);
  });

  it('enrols a patient in several programs, keeping the home program', async () => {
    const patient = await enrol();
    const target = url(c.setPrograms, { params: { id: patient.id } });
    const res = await call(token.coordinator, {
      method: 'PUT',
      url: target,
      payload: { programs: [program.a, program.b] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().programs.map((p: { id: number }) => p.id)).toEqual([program.a, program.b]);
    const dropHome = await call(token.coordinator, {
      method: 'PUT',
      url: target,
      payload: { programs: [program.b] },
    });
    expect(dropHome.statusCode).toBe(422);
    expect(dropHome.json().errors.programs).toEqual([PATIENT_MESSAGES.homeProgramKept]);
    const foreign = await call(token.coordinator, {
      method: 'PUT',
      url: target,
      payload: { programs: [program.a, program.otherEnterprise] },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("inactivates and activates, answering 'User not found in current Program.' outside it", async () => {
    const patient = await enrol();
    const off = await call(token.coordinator, {
      method: 'DELETE',
      url: url(c.deactivate, { params: { id: patient.id }, query: { program_id: String(program.a) } }),
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ active: false, status: 'inactive' });
    expect(off.json().deactivated_at).toBeTruthy();
    const wrongProgram = await call(token.coordinator, {
      method: 'PUT',
      url: url(c.activate, { params: { id: patient.id }, query: { program_id: String(program.b) } }),
    });
    expect(wrongProgram.statusCode).toBe(404);
    expect(wrongProgram.json().message).toBe(PATIENT_MESSAGES.notInProgram);
    const outsider = await call(token.outsider, {
      method: 'PUT',
      url: url(c.activate, { params: { id: patient.id } }),
    });
    expect(outsider.json()).toMatchObject({ message: PATIENT_MESSAGES.notInProgram });
    const on = await call(token.coordinator, {
      method: 'PUT',
      url: url(c.activate, { params: { id: patient.id } }),
    });
    expect(on.json()).toMatchObject({ active: true, status: 'active', deactivated_at: null });
    const history = await call(token.coordinator, {
      method: 'GET',
      url: url(c.status, { params: { id: patient.id } }),
    });
    expect(history.json().history.map((h: { status: string }) => h.status)).toEqual([
      'active',
      'inactive',
      'active',
    ]);
  });

  it('changes notification settings field by field', async () => {
    const patient = await enrol();
    const res = await call(token.coordinator, {
      method: 'PUT',
      url: url(c.notificationSettings, { params: { id: patient.id } }),
      payload: { sms: false },
    });
    expect(res.json()).toEqual({ sms: false, email: true, push: true, voice: false });
    const bad = await call(token.coordinator, {
      method: 'PUT',
      url: url(c.notificationSettings, { params: { id: patient.id } }),
      payload: { sms: 'no' },
    });
    expect(bad.statusCode).toBe(422);
  });
});

describe('status', () => {
  it('sets one status, and many at once all or nothing', async () => {
    const [one, two, foreign] = [
      await enrol(),
      await enrol(),
      await given(db).patient({ programId: program.otherEnterprise }),
    ];
    const set = await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: one.id } }),
      payload: { value: 'pending' },
    });
    expect(set.json()).toMatchObject({
      status: 'pending',
      history: [{ status: 'pending' }, { status: 'active' }],
    });
    const refused = await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'discharged', users_id: [one.id, two.id, foreign.id] },
    });
    expect(refused.statusCode).toBe(404);
    const unchanged = await call(token.coordinator, {
      method: 'GET',
      url: url(c.status, { params: { id: two.id } }),
    });
    expect(unchanged.json().status).toBe('active');
    const bulk = await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'discharged', users_id: [one.id, two.id, two.id] },
    });
    expect(bulk.json()).toEqual({ updated: 2 });
    const bad = await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'asleep', users_id: [] },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['users_id', 'value']);
  });

  it('refuses the bulk change to roles that may not change one patient (issue 28 item 1), changing nothing', async () => {
    const patient = await enrol();
    const single = await call(token.pharma, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: patient.id } }),
      payload: { value: 'inactive' },
    });
    expect(single.statusCode).toBe(403);
    const bulk = await call(token.pharma, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'inactive', users_id: [patient.id] },
    });
    expect(bulk.statusCode, bulk.body).toBe(403);
    // Refused for the role before the body is judged too: an invalid value still answers 403, not 422.
    const invalid = await call(token.pharma, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'inactive', users_id: [patient.id], reason: 'x'.repeat(501) },
    });
    expect(invalid.statusCode).toBe(403);
    const status = await call(token.physician, {
      method: 'GET',
      url: url(c.status, { params: { id: patient.id } }),
    });
    expect(status.json().status).toBe('active');
    // Another enterprise's staff: the patients are not there (404), whatever their role.
    const outsider = await call(token.outsider, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'inactive', users_id: [patient.id] },
    });
    expect(outsider.statusCode).toBe(404);
  });
});

describe('status reasons (ADR 052)', () => {
  const history = async (patientId: number) =>
    (
      await db.execute<{ status: string; source: string; reason: string | null }>(
        sql`SELECT status, source, reason FROM patient_status_history WHERE patient_id = ${patientId} ORDER BY id`,
      )
    ).rows;
  const lastAudit = async (action: string) =>
    (
      await db.execute<{ details: Record<string, unknown> | null }>(
        sql`SELECT details FROM audit_events WHERE action = ${action} ORDER BY id DESC LIMIT 1`,
      )
    ).rows[0]?.details;

  it('keeps the reason of a single change in the history, trimmed, and audits only that one was given', async () => {
    const patient = await enrol();
    const set = await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: patient.id } }),
      payload: { value: 'pending', reason: '  Hospitalised: waiting for discharge papers\n ' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await history(patient.id)).toEqual([
      { status: 'active', source: 'enrolment', reason: null },
      { status: 'pending', source: 'single', reason: 'Hospitalised: waiting for discharge papers' },
    ]);
    const audited = (await auditRows(patient.id)).filter((r) => r.action === 'patient.status');
    expect(audited.map((r) => r.details)).toEqual([{ status: 'pending', reason_given: true }]);
    expect(JSON.stringify(audited)).not.toContain('Hospitalised');
    // The program's status log shows it.
    const log = await call(token.physician, {
      method: 'GET',
      url: routeUrl(statusLogsContract.list, { programId: program.a }, { search: patient.mrn }),
    });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data[0]).toMatchObject({
      patient: { id: patient.id },
      source: 'single',
      reason: 'Hospitalised: waiting for discharge papers',
    });
  });

  it('records no reason when none is given, or only blanks', async () => {
    const [one, two] = [await enrol(), await enrol()];
    await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: one.id } }),
      payload: { value: 'pending' },
    });
    await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: two.id } }),
      payload: { value: 'pending', reason: '   ' },
    });
    await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: two.id } }),
      payload: { value: 'active', reason: null },
    });
    expect((await history(one.id)).at(-1)).toEqual({ status: 'pending', source: 'single', reason: null });
    expect((await history(two.id)).slice(1).map((h) => h.reason)).toEqual([null, null]);
    expect(await lastAudit('patient.status')).toEqual({ status: 'active' });
  });

  it('gives every patient of a bulk change the reason, and audits only that one was given', async () => {
    const [one, two, three] = [await enrol(), await enrol(), await enrol()];
    const bulk = await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'discharged', users_id: [one.id, two.id], reason: 'Programme year ended' },
    });
    expect(bulk.json()).toEqual({ updated: 2 });
    for (const id of [one.id, two.id])
      expect((await history(id)).at(-1)).toEqual({
        status: 'discharged',
        source: 'bulk',
        reason: 'Programme year ended',
      });
    const details = await lastAudit('patient.bulk_status');
    expect(details).toEqual({ status: 'discharged', patients: 2, updated: 2, reason_given: true });
    const plain = await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'pending', users_id: [three.id] },
    });
    expect(plain.json()).toEqual({ updated: 1 });
    expect((await history(three.id)).at(-1)).toEqual({ status: 'pending', source: 'bulk', reason: null });
    expect(await lastAudit('patient.bulk_status')).toEqual({ status: 'pending', patients: 1, updated: 1 });
  });

  it('refuses a reason over 500 characters with 422, and changes nothing', async () => {
    const patient = await enrol();
    const long = 'x'.repeat(501);
    const single = await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: patient.id } }),
      payload: { value: 'pending', reason: long },
    });
    expect(single.statusCode).toBe(422);
    expect(single.json().errors).toEqual({ reason: [PATIENT_MESSAGES.reasonTooLong] });
    const bulk = await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'pending', users_id: [patient.id], reason: long },
    });
    expect(bulk.statusCode).toBe(422);
    expect(Object.keys(bulk.json().errors)).toEqual(['reason']);
    // Exactly 500 after trimming is fine.
    const edge = await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: patient.id } }),
      payload: { value: 'discharged', reason: ` ${'y'.repeat(500)} ` },
    });
    expect(edge.statusCode, edge.body).toBe(200);
    expect((await history(patient.id)).map((h) => h.status)).toEqual(['active', 'discharged']);
  });

  it("returns each change's reason and how it was made in the patient's history, and audits the read", async () => {
    const patient = await enrol();
    await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: patient.id } }),
      payload: { value: 'pending', reason: ' Hospitalised\nback next week ' },
    });
    await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'active', users_id: [patient.id] },
    });
    const res = await call(token.pharma, {
      method: 'GET',
      url: url(c.status, { params: { id: patient.id } }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().history).toEqual([
      {
        status: 'active',
        at: expect.any(String),
        by: { id: staff.coordinator, name: expect.any(String) },
        source: 'bulk',
        reason: null,
      },
      {
        status: 'pending',
        at: expect.any(String),
        by: { id: staff.physician, name: expect.any(String) },
        source: 'single',
        reason: 'Hospitalised\nback next week',
      },
      {
        status: 'active',
        at: expect.any(String),
        by: { id: staff.coordinator, name: expect.any(String) },
        source: 'enrolment',
        reason: null,
      },
    ]);
    // The answer of the change itself carries the same history.
    const set = await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: patient.id } }),
      payload: { value: 'discharged', reason: 'Moved away' },
    });
    expect(set.json().history[0]).toMatchObject({
      status: 'discharged',
      source: 'single',
      reason: 'Moved away',
    });
    // A reason may be PHI: the read is a PHI view in the audit trail, without the text.
    const views = (await auditRows(patient.id)).filter((r) => r.action === 'patient.status_history_view');
    expect(views).toEqual([{ action: 'patient.status_history_view', details: null }]);
  });

  it("answers 404 for another program's patient's history, and audits no view", async () => {
    const foreign = await given(db).patient({ programId: program.otherEnterprise });
    await db.execute(sql`
      INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, reason)
      VALUES (${foreign.id}, ${program.otherEnterprise}, 'active', 'pending', 'single', 'Kept private')`);
    const res = await call(token.physician, {
      method: 'GET',
      url: url(c.status, { params: { id: foreign.id } }),
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Kept private');
    expect(await auditRows(foreign.id)).toEqual([]);
  });

  it("answers 404 for another program's patient, with or without a reason, and records nothing", async () => {
    const foreign = await given(db).patient({ programId: program.otherEnterprise });
    const single = await call(token.physician, {
      method: 'POST',
      url: url(c.setStatus, { params: { id: foreign.id } }),
      payload: { value: 'discharged', reason: 'Not mine' },
    });
    expect(single.statusCode).toBe(404);
    const bulk = await call(token.coordinator, {
      method: 'POST',
      url: url(c.bulkStatus),
      payload: { value: 'discharged', users_id: [foreign.id], reason: 'Not mine' },
    });
    expect(bulk.statusCode).toBe(404);
    const reasons = await db.execute(
      sql`SELECT 1 FROM patient_status_history WHERE patient_id = ${foreign.id} AND reason IS NOT NULL`,
    );
    expect(reasons.rows).toEqual([]);
  });
});

describe('history, search and the full list', () => {
  it('records profile views and lists the audit history newest first, paged', async () => {
    const patient = await enrol();
    const viewed = await call(token.physician, {
      method: 'PUT',
      url: url(c.profileViewed, { params: { id: patient.id } }),
    });
    expect(viewed.statusCode).toBe(204);
    await call(token.physician, {
      method: 'POST',
      url: url(c.update, { params: { id: patient.id } }),
      payload: { city: 'Erie' },
    });
    const res = await call(token.physician, {
      method: 'GET',
      url: url(c.auditHistory, {
        params: { programId: program.a, patientId: patient.id },
        query: { per_page: '2' },
      }),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, per_page: 2, last_page: 2 });
    expect(body.data.map((r: { action: string }) => r.action)).toEqual([
      'patient.update',
      'patient.profile_viewed',
    ]);
    expect(body.data[0].actor).toEqual({ id: staff.physician, name: expect.any(String) });
    const outsider = await call(token.outsider, {
      method: 'PUT',
      url: url(c.profileViewed, { params: { id: patient.id } }),
    });
    expect(outsider.statusCode).toBe(404);
  });

  it('finds patients by name words, MRN or birth date across the programs the user works in only', async () => {
    const patient = await enrol(program.b, {
      first_name: 'Zelda',
      last_name: 'Quixotica',
      physician_id: null,
    });
    await given(db).patient({
      programId: program.otherEnterprise,
      firstName: 'Zelda',
      lastName: 'Quixotica',
    });
    const find = (as: string, search: string) =>
      call(as, { method: 'GET', url: url(c.search, { query: { search } }) });
    const byName = await find(token.coordinator, 'quix zel');
    expect(byName.json().data).toEqual([
      expect.objectContaining({ id: patient.id, program: expect.objectContaining({ id: program.b }) }),
    ]);
    // As the patient list shows the name.
    expect(
      (await find(token.coordinator, 'Quixotica, Zelda')).json().data.map((p: { id: number }) => p.id),
    ).toEqual([patient.id]);
    expect((await find(token.coordinator, patient.mrn)).json().data.map((p: { id: number }) => p.id)).toEqual(
      [patient.id],
    );
    // The start of an MRN, from three characters.
    await db.execute(sql`UPDATE patients SET mrn = 'QX-550127' WHERE id = ${patient.id}`);
    expect((await find(token.coordinator, 'qx-5501')).json().data.map((p: { id: number }) => p.id)).toEqual([
      patient.id,
    ]);
    // The physician works in A only.
    expect((await find(token.physician, 'quixotica')).json().data).toEqual([]);
    expect((await find(token.outsider, 'quixotica')).json().data).toHaveLength(1);
    expect((await find(token.coordinator, '%')).json().data).toEqual([]);
  });

  it('answers every patient of the program in one list', async () => {
    const patient = await enrol();
    const res = await call(token.physician, {
      method: 'GET',
      url: url(c.allPatients, { params: { programId: program.a } }),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(body.data.length);
    expect(body.data.some((p: { id: number }) => p.id === patient.id)).toBe(true);
    const outsider = await call(token.outsider, {
      method: 'GET',
      url: url(c.allPatients, { params: { programId: program.a } }),
    });
    expect(outsider.statusCode).toBe(404);
  });
});
