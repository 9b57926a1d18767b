import {
  kpiContract as c,
  dataViewsContract,
  kpiFileName,
  type RouteContract,
  routeUrl,
  summariesContract,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const token = { admin: '', enterprise: '', outsider: '' };
const program = { a: 0, b: 0, other: 0 };
let enterpriseId = 0;
const patients: number[] = [];

const url = (contract: RouteContract, params: Record<string, number | string>) => routeUrl(contract, params);
const get = (as: string, target: string) => app.inject({ method: 'GET', url: target, headers: bearer(as) });

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  enterpriseId = (await g.enterprise()).id;
  program.a = (await g.program({ enterpriseId })).id;
  program.b = (await g.program({ enterpriseId })).id;
  program.other = (await g.program()).id;
  // A: one adherent and one forgetful patient; B: one patient. 08:00 daily, lockout 120, from 1 June.
  const plan = [
    {
      programId: program.a,
      zone: 'America/New_York',
      taken: ['2026-06-02T08:10:00-04:00', '2026-06-03T08:20:00-04:00'],
    },
    { programId: program.a, zone: 'America/Chicago', taken: ['2026-06-02T09:30:00-05:00'] },
    { programId: program.b, zone: 'America/Denver', taken: ['2026-06-03T08:00:00-06:00'] },
  ];
  for (const p of plan) {
    const id = (await g.patient({ programId: p.programId, timeZone: p.zone })).id;
    patients.push(id);
    const regimenId = (
      await g.regimen({
        patientId: id,
        programId: p.programId,
        times: ['08:00'],
        lockoutTime: 120,
        unlockBefore: 30,
        scheduledAt: '2026-06-01T00:00:00Z',
      })
    ).id;
    await g.doses({ patientId: id, regimenId, at: p.taken });
  }
  const admin = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: program.a, role: 'admin' }],
  });
  token.admin = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  const ent = await g.admin({ hipaaConsented: true, enterpriseAdminOf: [enterpriseId] });
  token.enterprise = (await signIn(app, ent.email, FACTORY_PASSWORD)).token;
  const outsider = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: program.other, role: 'admin' }],
  });
  token.outsider = (await signIn(app, outsider.email, FACTORY_PASSWORD)).token;
});

describe('KPI', () => {
  it('sums the engine numbers of every patient of the program, each in their own zone', async () => {
    const res = await get(
      token.admin,
      url(c.program, { programId: program.a, start: '2026-06-02', end: '2026-06-03' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const kpi = res.json();
    // Patient 1: on time twice; patient 2: late once (09:30 > 09:00), missed once.
    expect(kpi.doses).toMatchObject({
      due: 4,
      on_time: 2,
      late: 1,
      missed: 1,
      extra: 0,
      adherence: 75,
      compliance: 50,
    });
    expect(kpi.patients).toMatchObject({ enrolled: 2, with_doses_due: 2 });
    expect(kpi.adherence_bands).toEqual({ high: 1, medium: 1, low: 0 });
    expect(kpi.daily.map((d: { date: string; due: number }) => [d.date, d.due])).toEqual([
      ['2026-06-02', 2],
      ['2026-06-03', 2],
    ]);
    // The same numbers as the patient's own view.
    const one = await get(
      token.admin,
      url(dataViewsContract.adherenceRange, {
        programId: program.a,
        id: patients[1]!,
        start: '2026-06-02',
        end: '2026-06-03',
      }),
    );
    expect(one.json().total).toMatchObject({ late: 1, missed: 1 });
  });

  it('adds up every program of the enterprise for its administrator', async () => {
    const res = await get(
      token.enterprise,
      url(c.enterprise, { enterpriseId, start: '2026-06-02', end: '2026-06-03' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().programs.map((p: { id: number }) => p.id)).toEqual([program.a, program.b]);
    expect(res.json().doses).toMatchObject({ due: 6, on_time: 3, late: 1, missed: 2 });
    expect(res.json().patients.enrolled).toBe(3);
  });

  it('exports a real workbook named after the period', async () => {
    const res = await get(
      token.admin,
      url(c.export, { programId: program.a, start: '2026-06-02', end: '2026-06-03' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${kpiFileName('2026-06-02', '2026-06-03')}"`,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const values = new Map<string, unknown>();
    book
      .getWorksheet('KPI')!
      .eachRow((row) => values.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(values.get('Doses due')).toBe(4);
    expect(values.get('Adherence %')).toBe(75);
    expect(book.getWorksheet('Daily')!.rowCount).toBe(3);
  });

  it('answers 422 for bad periods and 404 outside the caller scope', async () => {
    expect(
      (
        await get(
          token.admin,
          url(c.program, { programId: program.a, start: '2026-06-05', end: '2026-06-01' }),
        )
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await get(
          token.admin,
          url(c.program, { programId: program.a, start: '2026-02-31', end: '2026-03-01' }),
        )
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await get(
          token.outsider,
          url(c.program, { programId: program.a, start: '2026-06-01', end: '2026-06-02' }),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await get(token.outsider, url(c.enterprise, { enterpriseId, start: '2026-06-01', end: '2026-06-02' })))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await get(
          token.outsider,
          url(c.export, { programId: program.a, start: '2026-06-01', end: '2026-06-02' }),
        )
      ).statusCode,
    ).toBe(404);
  });
});

describe('worklist summaries', () => {
  it("answers each page patient's adherence of the last 7 days, newest reading and open alerts, only inside the program", async () => {
    const g = given(db);
    const p = (await g.patient({ programId: program.a, timeZone: 'America/New_York' })).id;
    const regimenId = (
      await g.regimen({ patientId: p, programId: program.a, times: ['08:00'], lockoutTime: 120 })
    ).id;
    // Yesterday's 08:00 dose taken on time; the days before missed.
    const yesterday = new Date(Date.now() - 86_400_000);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(yesterday);
    await g.doses({ patientId: p, regimenId, at: [`${day}T08:05:00-05:00`] });
    await db.execute(sql`
      INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
      VALUES (${p}, ${program.a}, 'systolic', 132, 'mmHg', now() - interval '2 hours'),
             (${p}, ${program.a}, 'oxygen', 97, '%', now() - interval '1 hour')`);
    // Two unresolved alerts (one escalated), one resolved and one hidden: the worklist counts two.
    await db.execute(sql`
      INSERT INTO alerts (program_id, patient_id, type, condition_key, status, first_at, last_at, summary, reason,
        hidden, resolved_at)
      VALUES (${program.a}, ${p}, 'missed_dose', 'a', 'open', now(), now(), 'Missed', '{}', false, NULL),
             (${program.a}, ${p}, 'missed_dose', 'b', 'escalated', now(), now(), 'Missed', '{}', false, NULL),
             (${program.a}, ${p}, 'missed_dose', 'c', 'resolved', now(), now(), 'Missed', '{}', false, now()),
             (${program.a}, ${p}, 'missed_dose', 'd', 'open', now(), now(), 'Missed', '{}', true, NULL)`);
    const foreign = patients[2]!; // a patient of program B
    const res = await get(
      token.admin,
      routeUrl(summariesContract.summaries, { programId: program.a }, { ids: `${p},${foreign}` }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(1);
    const [summary] = res.json().data;
    expect(summary).toMatchObject({
      patient_id: p,
      last_reading: { type: 'oxygen', value: 97, unit: '%' },
      open_alerts: 2,
      escalated: true,
    });
    expect(summary.due).toBeGreaterThanOrEqual(6);
    expect(summary.missed).toBe(summary.due - 1);
    const bad = await get(
      token.admin,
      routeUrl(summariesContract.summaries, { programId: program.a }, { ids: 'all' }),
    );
    expect(bad.statusCode).toBe(422);
    const outsider = await get(
      token.outsider,
      routeUrl(summariesContract.summaries, { programId: program.a }, { ids: String(p) }),
    );
    expect(outsider.statusCode).toBe(404);
  });
});
