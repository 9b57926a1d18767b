import { logsContract as c, LOG_MESSAGES as M, routeUrl, tagsContract } from '@caredeck/contracts';
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
let programId = 0;
let admin = '';
let coordinator = '';
let coordinatorId = 0;
let outsiderId = 0;
const today = new Date().toISOString().slice(0, 10);

const get = (as: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(as) });

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  programId = (await g.program()).id;
  const a = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'admin' }] });
  const co = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'care_coordinator' }] });
  outsiderId = (await g.admin({ programRoles: [{ programId: (await g.program()).id, role: 'admin' }] })).id;
  coordinatorId = co.id;
  admin = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  coordinator = (await signIn(app, co.email, FACTORY_PASSWORD)).token;
  // The coordinator works: a tag created, a patient tagged, a page read for 90 s.
  const patient = await g.patient({ programId });
  const tag = await app.inject({
    method: 'POST',
    url: tagsContract.create.path,
    payload: { program_id: programId, name: 'Logged' },
    headers: bearer(coordinator),
  });
  await app.inject({
    method: 'PUT',
    url: routeUrl(tagsContract.setPatientTags, { id: String(patient.id) }),
    payload: { tag_ids: [tag.json().data.id] },
    headers: bearer(coordinator),
  });
  await db.execute(
    // An hour signed in that starts today (UTC) whatever the time of the run: `now() - 1 hour` began yesterday
    // between 00:00 and 01:00.
    sql`INSERT INTO login_logs (admin_id, login_at, logout_at)
      VALUES (${coordinatorId}, ${`${today}T00:00:30Z`}::timestamptz, ${`${today}T01:00:30Z`}::timestamptz)`,
  );
  await db.execute(
    sql`INSERT INTO page_sessions (admin_id, program_id, path, time_s) VALUES (${coordinatorId}, ${programId}, '/patients', 90)`,
  );
});

describe('logs', () => {
  it('shows an admin what each staff member did, day by day, the patients and the sign-ins', async () => {
    const list = await get(
      admin,
      routeUrl(c.adminLogs, { programId: String(programId) }, { admin_id: String(coordinatorId) }),
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((e: { action: string }) => e.action)).toContain('patient.tags');
    const summary = await get(
      admin,
      routeUrl(c.adminLogs, { programId: String(programId) }, { summary: '1' }),
    );
    expect(summary.json().data).toContainEqual(
      expect.objectContaining({
        admin: expect.objectContaining({ id: coordinatorId }),
        patients: 1,
        minutes: 1.5,
        sign_ins: 1,
      }),
    );
    const one = await get(
      admin,
      routeUrl(c.adminLog, { programId: String(programId), id: String(coordinatorId) }),
    );
    expect(one.json().data).toMatchObject({ by_action: { 'patient.tags': 1 }, patients: 1 });
    const days = await get(
      admin,
      routeUrl(
        c.dayWise,
        { programId: String(programId), id: String(coordinatorId) },
        { start: today, end: today },
      ),
    );
    expect(days.json().data).toEqual([expect.objectContaining({ date: today, patients: 1, minutes: 1.5 })]);
    const counts = await get(
      admin,
      routeUrl(c.patientCounts, {
        programId: String(programId),
        adminId: String(coordinatorId),
        start: today,
        end: today,
      }),
    );
    expect(counts.json().data).toEqual({ total: 1, days: [{ date: today, patients: 1 }] });
    const logins = await get(
      admin,
      routeUrl(c.loginLogoutLogs, {
        programId: String(programId),
        adminId: String(coordinatorId),
        start: today,
        end: today,
      }),
    );
    expect(logins.json()).toMatchObject({ data: [{ minutes: 60 }] });
  });

  it('lists the newest 500 sign-ins of a busy day and counts them all (issue 27)', async () => {
    await db.execute(sql`
      INSERT INTO login_logs (admin_id, login_at, logout_at)
      SELECT ${coordinatorId}, '2026-01-15T02:00:00Z'::timestamptz + i * interval '1 minute', NULL
      FROM generate_series(0, 599) i`);
    const logins = await get(
      admin,
      routeUrl(c.loginLogoutLogs, {
        programId: String(programId),
        adminId: String(coordinatorId),
        start: '2026-01-15',
        end: '2026-01-15',
      }),
    );
    expect(logins.json().total).toBe(600);
    expect(logins.json().data).toHaveLength(500);
    expect(logins.json().data[0].login_at).toBe('2026-01-15T11:59:00.000Z');
  });

  it('lets staff read only their own logs, refuses bad periods and strangers', async () => {
    const own = await get(
      coordinator,
      routeUrl(c.dayWise, { programId: String(programId), id: String(coordinatorId) }),
    );
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toHaveLength(30);
    const [adminRow] = (
      await db.execute<{ admin_id: number }>(sql`
      SELECT admin_id FROM admin_program_roles WHERE program_id = ${programId} AND role = 'admin'`)
    ).rows;
    expect(
      (
        await get(
          coordinator,
          routeUrl(c.dayWise, { programId: String(programId), id: String(adminRow!.admin_id) }),
        )
      ).statusCode,
    ).toBe(403);
    // A coordinator's list is their own actions whatever admin_id says.
    const mine = await get(
      coordinator,
      routeUrl(c.adminLogs, { programId: String(programId) }, { admin_id: String(adminRow!.admin_id) }),
    );
    expect(mine.json().data.every((e: { admin: { id: number } }) => e.admin.id === coordinatorId)).toBe(true);
    expect(
      (
        await get(admin, routeUrl(c.adminLog, { programId: String(programId), id: String(outsiderId) }))
      ).json(),
    ).toMatchObject({
      message: M.staffNotFound,
    });
    const backwards = await get(
      admin,
      routeUrl(c.loginLogoutLogs, {
        programId: String(programId),
        adminId: String(coordinatorId),
        start: today,
        end: '2020-01-01',
      }),
    );
    expect(backwards.json()).toMatchObject({ errors: { end: [M.badRange] } });
    expect(
      (
        await get(
          admin,
          routeUrl(c.patientCounts, {
            programId: String(programId),
            adminId: String(coordinatorId),
            start: '2026-13-01',
            end: today,
          }),
        )
      ).statusCode,
    ).toBe(422);
  });
});
