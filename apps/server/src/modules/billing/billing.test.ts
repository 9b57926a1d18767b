import { billingContract as c, BILLING_MESSAGES as M, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { checkPeriod, monthOf } from './billing.service';

let app: App;
let db: Database;
let program = 0;
let foreignProgram = 0;
const patients = { full: 0, few: 0, foreign: 0 };
const tokens: Record<string, string> = {};

const send = (as: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(tokens[as]!) });

const OCT = { start: '2026-10-01', end: '2026-10-31' };
const report = (as: string, query = '', period = OCT) =>
  send(as, 'GET', `${routeUrl(c.report, period)}?program_id=${program}${query}`);

/** `minutes` of time from `at` (UTC), by `as`. */
const record = (
  as: string,
  patient: number,
  at: string,
  minutes: number,
  extra: Record<string, unknown> = {},
) =>
  send(as, 'POST', routeUrl(c.record, {}), {
    user_id: patient,
    program_id: program,
    started_at: at,
    ended_at: new Date(Date.parse(at) + minutes * 60_000).toISOString(),
    ...extra,
  });

/** One blood-pressure reading at noon UTC on each of `days` October days, starting on the `from`th. */
async function readings(patient: number, days: number, from = 1) {
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    SELECT ${patient}, ${program}, 'systolic', 120, 'mmHg', ('2026-10-01 12:00+00'::timestamptz + (d || ' days')::interval)
    FROM generate_series(${from - 1}::int, ${from - 2 + days}::int) d`);
}

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  const enterpriseId = (await g.enterprise()).id;
  program = (await g.program({ enterpriseId, name: 'Billing Heart' })).id;
  foreignProgram = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  const make = async (key: string, input: Parameters<typeof g.admin>[0]) => {
    const a = await g.admin({ hipaaConsented: true, ...input });
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  };
  await make('nurse', { programRoles: [{ programId: program, role: 'care_coordinator' }] });
  await make('nurse2', { programRoles: [{ programId: program, role: 'care_coordinator' }] });
  await make('doctor', { programRoles: [{ programId: program, role: 'physician' }] });
  await make('admin', { programRoles: [{ programId: program, role: 'admin' }] });
  await make('stranger', { programRoles: [{ programId: foreignProgram, role: 'admin' }] });
  const tz = 'America/New_York';
  patients.full = (
    await g.patient({ programId: program, firstName: 'Fay', lastName: 'Fullmonth', timeZone: tz })
  ).id;
  patients.few = (
    await g.patient({ programId: program, firstName: 'Fred', lastName: 'Fewdays', timeZone: tz })
  ).id;
  patients.foreign = (await g.patient({ programId: foreignProgram, lastName: 'Elsewhere' })).id;
  await readings(patients.full, 16);
  await readings(patients.few, 10);
});

describe('billing report', () => {
  it('turns days with readings and recorded minutes into codes, per patient and in the summary', async () => {
    // Fay: 16 days of readings (her first ever), 55 RPM minutes with an interactive call (30 of them a
    // physician's), 45 CCM minutes.
    expect(
      (await record('nurse', patients.full, '2026-10-05T14:00:00Z', 15, { interactive: true })).statusCode,
    ).toBe(201);
    await record('nurse', patients.full, '2026-10-06T14:00:00Z', 10, { activity: 'care_plan' });
    await record('nurse', patients.full, '2026-10-07T14:00:00Z', 45, {
      type: 'ccm',
      activity: 'coordination',
    });
    await record('doctor', patients.full, '2026-10-08T14:00:00Z', 30, { activity: 'data_review' });
    // Fred: 10 days of readings and 15 minutes without an interactive contact: nothing billable.
    await record('nurse', patients.few, '2026-10-09T14:00:00Z', 15);

    const res = await report('nurse');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const fay = body.data.find((r: { patient: { id: number } }) => r.patient.id === patients.full);
    expect(fay).toMatchObject({
      reading_days: 16,
      rpm_minutes: 55,
      rpm_interactive: true,
      physician_minutes: 30,
      ccm_minutes: 45,
      billable: true,
      status: 'billable',
    });
    expect(fay.codes).toEqual([
      { code: '99453', units: 1 },
      { code: '99454', units: 1 },
      { code: '99457', units: 1 },
      { code: '99458', units: 1 },
      { code: '99091', units: 1 },
      { code: '99490', units: 1 },
      { code: '99439', units: 1 },
    ]);
    const fred = body.data.find((r: { patient: { id: number } }) => r.patient.id === patients.few);
    expect(fred).toMatchObject({ reading_days: 10, rpm_minutes: 15, codes: [], billable: false });
    expect(body.summary).toMatchObject({
      patients: 2,
      billable_patients: 1,
      rpm_minutes: 70,
      ccm_minutes: 45,
    });
    expect(body.summary.codes['99454']).toBe(1);
    expect(body.total).toBe(2);
    // Only the earners, and search by name.
    expect((await report('nurse', '&only_billable=1')).json().data).toHaveLength(1);
    expect((await report('nurse', '&search=fewd')).json().data[0].patient.id).toBe(patients.few);
    // The month after: nothing recorded yet, and Fay's first reading was before it (no set-up code again).
    const nov = (await report('nurse', '', { start: '2026-11-01', end: '2026-11-30' })).json();
    expect(nov.summary).toMatchObject({ billable_patients: 0, rpm_minutes: 0 });
  });

  it('counts a reading on the day the patient lived it (their time zone, not UTC)', async () => {
    // 02:00 UTC on 1 November is still 31 October in New York.
    await db.execute(sql`
      INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
      VALUES (${patients.few}, ${program}, 'systolic', 118, 'mmHg', '2026-11-01 02:00+00')`);
    const fred = (await report('nurse', `&search=fewd`)).json().data[0];
    expect(fred.reading_days).toBe(11);
  });

  it('keeps time recorded as not billable out of the minutes and codes', async () => {
    const entry = await record('nurse', patients.few, '2026-10-14T15:00:00Z', 30, {
      billable: false,
      interactive: true,
    });
    expect(entry.json().data).toMatchObject({ billable: false, seconds: 1800 });
    const fred = (await report('nurse', `&search=fewd`)).json().data[0];
    expect(fred).toMatchObject({ rpm_minutes: 15, rpm_interactive: false, codes: [] });
  });

  it('answers 422 naming the date, 404 for a program of someone else, 403 to a role without billing', async () => {
    const bad = await send(
      'nurse',
      'GET',
      `${routeUrl(c.report, { start: '2026-13-01', end: '2026-12-31' })}?program_id=${program}`,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.start).toBeDefined();
    const reversed = await report('nurse', '', { start: '2026-10-31', end: '2026-10-01' });
    expect(reversed.json().errors.end).toEqual([M.periodOrder]);
    const long = await report('nurse', '', { start: '2026-01-01', end: '2026-06-30' });
    expect(long.json().errors.end).toEqual([M.periodTooLong]);
    expect((await report('stranger')).statusCode).toBe(404);
    expect(
      (await send('stranger', 'GET', routeUrl(c.programBillings, { programId: program }))).statusCode,
    ).toBe(404);
  });

  it('downloads the report as a real workbook with one row per patient and a summary sheet', async () => {
    const res = await send('nurse', 'GET', `${routeUrl(c.download, OCT)}?program_id=${program}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="billing_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.xlsx"/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Billing')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain('99457');
    const lastNames = [2, 3].map((i) => sheet.getRow(i).getCell(2).value);
    expect(lastNames.sort()).toEqual(['Fewdays', 'Fullmonth']);
    const summary = book.getWorksheet('Summary')!;
    expect(summary.getRow(2).values).toContain('2026-10-01 to 2026-10-31');
  });
});

describe('time entries', () => {
  it('refuses overlapping minutes of the same person (409), bad times (422) and patients of another program (404)', async () => {
    const overlap = await record('nurse', patients.full, '2026-10-05T14:10:00Z', 10);
    expect(overlap.statusCode).toBe(409);
    // Another colleague may spend the same minutes on the patient.
    expect((await record('nurse2', patients.full, '2026-10-05T14:10:00Z', 10)).statusCode).toBe(201);
    const reversed = await send('nurse', 'POST', routeUrl(c.record, {}), {
      user_id: patients.full,
      program_id: program,
      started_at: '2026-10-10T10:00:00Z',
      ended_at: '2026-10-10T09:00:00Z',
    });
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().errors.ended_at).toEqual([M.endBeforeStart]);
    const tooLong = await record('nurse', patients.full, '2026-10-11T00:00:00Z', 9 * 60);
    expect(tooLong.json().errors.ended_at).toEqual([M.tooLong]);
    const future = await record('nurse', patients.full, new Date(Date.now() + 3_600_000).toISOString(), 10);
    expect(future.json().errors.ended_at).toEqual([M.inFuture]);
    expect((await record('nurse', patients.foreign, '2026-10-12T10:00:00Z', 10)).statusCode).toBe(404);
    expect((await record('stranger', patients.full, '2026-10-12T10:00:00Z', 10)).statusCode).toBe(404);
  });

  it("lists a patient's entries for a period with the figures and minutes per staff member", async () => {
    const res = await send(
      'nurse',
      'GET',
      `${routeUrl(c.patientPeriod, { id: patients.full, ...OCT })}?admin-interactions=1`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(5);
    expect(body.summary).toMatchObject({ reading_days: 16, ccm_minutes: 45 });
    expect(
      body.by_admin.map((a: { minutes: number }) => a.minutes).sort((a: number, b: number) => a - b),
    ).toEqual([10, 30, 70]);
    const ccm = await send(
      'nurse',
      'GET',
      `${routeUrl(c.patientPeriod, { id: patients.full, ...OCT })}?type=ccm`,
    );
    expect(ccm.json().data.map((e: { activity: string }) => e.activity)).toEqual(['coordination']);
    // This month (none yet), and nobody outside the program.
    expect((await send('nurse', 'GET', routeUrl(c.patient, { id: patients.full }))).json().period).toEqual(
      monthOf(new Date()),
    );
    expect((await send('stranger', 'GET', routeUrl(c.patient, { id: patients.full }))).statusCode).toBe(404);
  });

  it('lets its author or an administrator delete an entry, nobody else', async () => {
    const created = (await record('nurse', patients.few, '2026-10-20T10:00:00Z', 5)).json().data;
    const url = routeUrl(c.remove, { entryId: created.id });
    expect((await send('nurse2', 'DELETE', url)).statusCode).toBe(403);
    expect((await send('stranger', 'DELETE', url)).statusCode).toBe(404);
    expect((await send('admin', 'DELETE', url)).json()).toEqual({ message: M.deleted });
    expect((await send('nurse', 'DELETE', url)).statusCode).toBe(404);
  });
});

describe('billing status', () => {
  it('takes a patient out of billing and counts each status', async () => {
    const url = routeUrl(c.setStatus, { programId: program, userId: patients.full });
    const set = await send('nurse', 'POST', url, { status: 'on_hold', reason: 'Hospital stay' });
    expect(set.json()).toEqual({
      message: M.statusUpdated,
      data: { patient_id: patients.full, status: 'on_hold', reason: 'Hospital stay' },
    });
    const fay = (await report('nurse', '&search=fullm')).json();
    expect(fay.data[0]).toMatchObject({ status: 'on_hold', billable: false });
    expect(fay.summary.billable_patients).toBe(0);
    const counts = (await send('nurse', 'GET', routeUrl(c.statuses, { programId: program }))).json().data;
    expect(counts).toEqual([
      { status: 'billable', patients: 1 },
      { status: 'not_billable', patients: 0 },
      { status: 'on_hold', patients: 1 },
    ]);
    const foreign = routeUrl(c.setStatus, { programId: program, userId: patients.foreign });
    expect((await send('nurse', 'POST', foreign, { status: 'billable' })).statusCode).toBe(404);
    expect((await send('nurse', 'POST', url, { status: 'paid' })).statusCode).toBe(422);
  });

  it('publishes the codes and their rules', async () => {
    const codes = (await send('nurse', 'GET', routeUrl(c.codes, { programId: program }))).json().data;
    expect(codes.map((x: { code: string }) => x.code)).toEqual([
      '99453',
      '99454',
      '99457',
      '99458',
      '99091',
      '99490',
      '99439',
    ]);
  });
});

describe('periods', () => {
  it('accepts real days up to 93 long', () => {
    expect(() => checkPeriod('2026-10-01', '2026-12-31')).not.toThrow();
    expect(() => checkPeriod('2026-02-30', '2026-03-01')).toThrow();
    expect(monthOf(new Date('2026-02-10T00:00:00Z'))).toEqual({ start: '2026-02-01', end: '2026-02-28' });
  });
});
