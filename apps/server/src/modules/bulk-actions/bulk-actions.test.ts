import { bulkActionsContract as c, BULK_ACTION_MESSAGES as M, routeUrl } from '@caredeck/contracts';
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
let program = 0;
let otherProgram = 0;
let coordinatorId = 0;
let patients: number[] = [];
let foreignPatient = 0;
const tokens: Record<string, string> = {};

const send = (as: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(tokens[as]!) });
const create = (as: string, body: Record<string, unknown>) =>
  send(as, 'POST', routeUrl(c.create, {}), { program_id: program, users_id: patients, ...body });
const statusOf = async (id: number) =>
  (await db.execute<{ status: string }>(sql`SELECT status FROM patients WHERE id = ${id}`)).rows[0]!.status;

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  const enterpriseId = (await g.enterprise()).id;
  program = (await g.program({ enterpriseId })).id;
  otherProgram = (await g.program({ enterpriseId })).id;
  const make = async (key: string, input: Parameters<typeof g.admin>[0]) => {
    const a = await g.admin({ hipaaConsented: true, ...input });
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
    return a.id;
  };
  coordinatorId = await make('nurse', { programRoles: [{ programId: program, role: 'care_coordinator' }] });
  await make('admin', { programRoles: [{ programId: program, role: 'admin' }] });
  await make('stranger', { programRoles: [{ programId: otherProgram, role: 'admin' }] });
  patients = await g.patients(
    ['Ames', 'Bell', 'Cole'].map((lastName) => ({ programId: program, lastName, status: 'active' as const })),
  );
  foreignPatient = (await g.patient({ programId: otherProgram })).id;
});

describe('bulk actions', () => {
  it('waits for an administrator, then sets the status of every patient and keeps each outcome', async () => {
    const created = await create('nurse', {
      action: 'patient_status',
      value: 'pending',
      note: 'Re-enrolment',
    });
    expect(created.statusCode).toBe(201);
    const job = created.json().data;
    expect(created.json().message).toBe(M.created);
    expect(job).toMatchObject({
      state: 'assigned',
      action: 'patient_status',
      value: 'pending',
      note: 'Re-enrolment',
    });
    expect(job.counts).toEqual({ total: 3, done: 0, failed: 0, pending: 3 });
    // Nothing changes before approval; a coordinator may not approve.
    expect(await statusOf(patients[0]!)).toBe('active');
    expect((await send('nurse', 'PUT', routeUrl(c.approve, {}), { job_id: job.job_id })).statusCode).toBe(
      403,
    );
    expect((await send('stranger', 'PUT', routeUrl(c.approve, {}), { job_id: job.job_id })).statusCode).toBe(
      404,
    );

    // One patient leaves the program before the approval: that one fails, the others are done.
    await db.execute(sql`UPDATE patients SET program_id = ${otherProgram} WHERE id = ${patients[2]!}`);
    const approved = await send('admin', 'PUT', routeUrl(c.approve, {}), { job_id: job.job_id });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({
      state: 'approved',
      counts: { done: 2, failed: 1, pending: 0 },
    });
    expect(approved.json().patients[0]).toMatchObject({
      id: patients[2],
      outcome: 'failed',
      error: M.patientGone,
    });
    expect(await statusOf(patients[0]!)).toBe('pending');
    expect(await statusOf(patients[2]!)).toBe('active');
    // Approved once only; cancelling is too late.
    expect((await send('admin', 'PUT', routeUrl(c.approve, {}), { job_id: job.job_id })).statusCode).toBe(
      409,
    );
    expect((await send('admin', 'PUT', routeUrl(c.cancel, {}), { job_id: job.job_id })).json().message).toBe(
      M.notWaiting,
    );

    // Back in the program, the failed patient is run again on its own.
    await db.execute(sql`UPDATE patients SET program_id = ${program} WHERE id = ${patients[2]!}`);
    const retried = await send('admin', 'PUT', routeUrl(c.rerunFailed, { jobId: job.job_id }));
    expect(retried.json()).toMatchObject({ message: M.rerun, data: { counts: { done: 3, failed: 0 } } });
    expect(await statusOf(patients[2]!)).toBe('pending');
    const all = await send('admin', 'PUT', routeUrl(c.rerunAll, { jobId: job.job_id }));
    expect(all.json().data.counts.done).toBe(3);

    // The list shows it; with job_id, each patient's outcome.
    const list = await send('nurse', 'GET', `${routeUrl(c.list, {})}?program_id=${program}&state=approved`);
    expect(list.json().data.map((j: { job_id: string }) => j.job_id)).toContain(job.job_id);
    const one = await send(
      'nurse',
      'GET',
      `${routeUrl(c.list, {})}?program_id=${program}&job_id=${job.job_id}`,
    );
    expect(one.json().patients.map((p: { outcome: string }) => p.outcome)).toEqual(['done', 'done', 'done']);
  });

  it('cancels a waiting action without changing anything', async () => {
    const job = (await create('nurse', { action: 'billing_status', value: 'on_hold' })).json().data;
    const cancelled = await send('admin', 'PUT', routeUrl(c.cancel, {}), { job_id: job.job_id });
    expect(cancelled.json()).toMatchObject({ message: M.cancelled, data: { state: 'cancelled' } });
    const held = await db.execute(
      sql`SELECT 1 FROM patient_billing_status WHERE patient_id = ANY(${`{${patients.join(',')}}`}::bigint[])`,
    );
    expect(held.rowCount).toBe(0);
    expect((await send('admin', 'PUT', routeUrl(c.rerunAll, { jobId: job.job_id }))).statusCode).toBe(409);
  });

  it('adds patients to a cohort and assigns them to a colleague of the program', async () => {
    const cohort = await db.execute<{ id: number }>(sql`
      INSERT INTO groups (program_id, name) VALUES (${program}, 'Bulk cohort') RETURNING id`);
    const groupId = Number(cohort.rows[0]!.id);
    const toCohort = (await create('nurse', { action: 'add_to_cohort', value: groupId })).json().data;
    await send('admin', 'PUT', routeUrl(c.approve, {}), { job_id: toCohort.job_id });
    const members = await db.execute(sql`SELECT 1 FROM group_patients WHERE group_id = ${groupId}`);
    expect(members.rowCount).toBe(3);

    const assign = (await create('nurse', { action: 'assign_admin', value: coordinatorId })).json().data;
    await send('admin', 'PUT', routeUrl(c.approve, {}), { job_id: assign.job_id });
    const assigned = await db.execute(
      sql`SELECT 1 FROM patients WHERE assigned_admin_id = ${coordinatorId} AND id = ANY(${`{${patients.join(',')}}`}::bigint[])`,
    );
    expect(assigned.rowCount).toBe(3);
  });

  it('answers 422 for a value the action does not take, 404 for patients or jobs outside the program', async () => {
    const bad = await create('nurse', { action: 'patient_status', value: 'asleep' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.value).toEqual([M.badValue]);
    const noCohort = await create('nurse', { action: 'add_to_cohort', value: 999_999 });
    expect(noCohort.json().errors.value).toEqual([M.cohortGone]);
    expect((await create('nurse', { action: 'assign_admin', value: 999_999 })).json().errors.value).toEqual([
      M.staffGone,
    ]);
    expect(
      (await create('nurse', { action: 'patient_status', value: 'active', users_id: [] })).statusCode,
    ).toBe(422);
    const foreign = await create('nurse', {
      action: 'patient_status',
      value: 'active',
      users_id: [patients[0], foreignPatient],
    });
    expect(foreign.statusCode).toBe(404);
    expect((await create('stranger', { action: 'patient_status', value: 'active' })).statusCode).toBe(404);
    const job = (await create('nurse', { action: 'patient_status', value: 'active' })).json().data;
    expect((await send('stranger', 'PUT', routeUrl(c.cancel, {}), { job_id: job.job_id })).statusCode).toBe(
      404,
    );
    expect((await send('stranger', 'GET', `${routeUrl(c.list, {})}?program_id=${program}`)).statusCode).toBe(
      404,
    );
    expect(
      (await send('admin', 'PUT', routeUrl(c.rerunAll, { jobId: '00000000-0000-4000-8000-000000000000' })))
        .statusCode,
    ).toBe(404);
  });
});
