import {
  dataViewsContract as c,
  type RouteContract,
  routeUrl,
  usageViewsContract as u,
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
const token = { nurse: '', outsider: '' };
let programId = 0;
let otherProgram = 0;
let patientId = 0;
let regimenId = 0;

const url = (
  contract: RouteContract,
  params: Record<string, number | string>,
  query?: Record<string, string>,
) => routeUrl(contract, params, query);
const get = (as: string, target: string) => app.inject({ method: 'GET', url: target, headers: bearer(as) });

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  programId = (await g.program()).id;
  otherProgram = (await g.program()).id;
  patientId = (await g.patient({ programId, timeZone: 'America/New_York' })).id;
  const signed = async (id: number) => {
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId: id, role: 'care_coordinator' }],
    });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.nurse = await signed(programId);
  token.outsider = await signed(otherProgram);
  // The worked example of docs/adherence.md.
  regimenId = (
    await g.regimen({
      patientId,
      programId,
      name: 'Lisinopril 10 mg',
      times: ['08:00', '20:00'],
      lockoutTime: 180,
      unlockBefore: 30,
      scheduledAt: '2026-06-01T00:00:00-04:00',
    })
  ).id;
  await g.doses({
    patientId,
    regimenId,
    at: [
      '2026-06-02T07:45:00-04:00',
      '2026-06-02T08:10:00-04:00',
      '2026-06-02T21:30:00-04:00',
      '2026-06-03T14:00:00-04:00',
    ],
  });
  await g.doses({ patientId, regimenId, at: ['2026-06-03T19:50:00-04:00'], kind: 'skipped' });
});

describe('adherence views', () => {
  it('classifies each dose of a date range in the patient time zone (the worked example)', async () => {
    const res = await get(
      token.nurse,
      url(c.adherenceRange, { programId, id: patientId, start: '2026-06-02', end: '2026-06-03' }),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.time_zone).toBe('America/New_York');
    expect(
      body.doses.map((d: { date: string; time: string; state: string }) => `${d.date} ${d.time} ${d.state}`),
    ).toEqual([
      '2026-06-02 08:00 on_time',
      '2026-06-02 20:00 late',
      '2026-06-03 08:00 missed',
      '2026-06-03 20:00 skipped',
    ]);
    expect(body.doses[0]).toMatchObject({
      scheduled_at: '2026-06-02T12:00:00.000Z',
      window_open: '2026-06-02T11:30:00.000Z',
      window_close: '2026-06-02T15:00:00.000Z',
      taken_at: '2026-06-02T11:45:00.000Z',
    });
    expect(body.extra.map((e: { at: string }) => e.at)).toEqual([
      '2026-06-02T12:10:00.000Z',
      '2026-06-03T18:00:00.000Z',
    ]);
    expect(body.total).toMatchObject({
      due: 4,
      on_time: 1,
      late: 1,
      missed: 1,
      skipped: 1,
      adherence: 50,
      compliance: 25,
    });
    expect(body.regimens).toEqual([
      expect.objectContaining({ regimen_id: regimenId, name: 'Lisinopril 10 mg', due: 4 }),
    ]);
    expect(body.days.map((d: { date: string; adherence: number }) => [d.date, d.adherence])).toEqual([
      ['2026-06-02', 100],
      ['2026-06-03', 0],
    ]);
  });

  it('answers the compliance and users/{id} forms with the same numbers', async () => {
    const compliance = await get(
      token.nurse,
      url(c.complianceRange, { programId, id: patientId, start: '2026-06-02', end: '2026-06-03' }),
    );
    const byUser = await get(
      token.nurse,
      url(c.userAdherenceRange, { id: patientId, start: '2026-06-02', end: '2026-06-03' }),
    );
    expect(compliance.json().total).toEqual(byUser.json().total);
    expect(byUser.json().total.compliance).toBe(25);
    const recent = await get(token.nurse, url(c.userAdherence, { id: patientId }));
    expect(recent.statusCode).toBe(200);
    const days =
      (Date.parse(`${recent.json().end}T00:00:00Z`) - Date.parse(`${recent.json().start}T00:00:00Z`)) /
      86_400_000;
    expect(days).toBe(29);
    const graph = await get(token.nurse, url(c.userAdherenceGraph, { id: patientId }));
    expect(graph.statusCode).toBe(200);
    expect(graph.json()).toEqual(expect.objectContaining({ patient_id: patientId, days: expect.any(Array) }));
  });

  it('reads a device dose the same way as a recorded one', async () => {
    const g = given(db);
    const p = (await g.patient({ programId, timeZone: 'Europe/Berlin' })).id;
    const r = (
      await g.regimen({ patientId: p, programId, times: ['09:00'], scheduledAt: '2026-03-01T00:00:00Z' })
    ).id;
    await g.doses({ patientId: p, regimenId: r, at: ['2026-03-29T09:20:00+02:00'], source: 'dispenser' });
    // 29 March 2026 is the spring-forward day in Berlin: 09:00 is 07:00 UTC.
    const res = await get(
      token.nurse,
      url(c.adherenceRange, { programId, id: p, start: '2026-03-29', end: '2026-03-29' }),
    );
    expect(res.json().doses).toEqual([
      expect.objectContaining({ scheduled_at: '2026-03-29T07:00:00.000Z', state: 'on_time' }),
    ]);
  });

  it('answers 422 for dates that do not exist, reversed or too long ranges', async () => {
    for (const [start, end, field] of [
      ['2026-02-30', '2026-03-01', 'start'],
      ['yesterday', '2026-03-01', 'start'],
      ['2026-03-01', '2026-02-01', 'end'],
      ['2024-01-01', '2026-01-01', 'end'],
    ] as const) {
      const res = await get(token.nurse, url(c.adherenceRange, { programId, id: patientId, start, end }));
      expect(res.statusCode, `${start}..${end}`).toBe(422);
      expect(res.json().errors).toHaveProperty(field);
    }
  });

  it('answers 404 for a patient of another program and 401 without a session', async () => {
    const outsider = await get(token.outsider, url(c.userAdherence, { id: patientId }));
    expect(outsider.statusCode).toBe(404);
    const wrongProgram = await get(
      token.outsider,
      url(c.adherenceFrom, { programId: otherProgram, id: patientId, start: '2026-06-01' }),
    );
    expect(wrongProgram.statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: url(c.userAdherenceGraph, { id: patientId }) });
    expect(anonymous.statusCode).toBe(401);
  });

  it('records who viewed the adherence of a patient', async () => {
    const res = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM audit_events WHERE action = 'patient.adherence.view' AND subject_id = ${patientId}`);
    expect(res.rows[0]!.n).toBeGreaterThan(0);
  });
});

describe('measurement views', () => {
  let measured = 0;
  beforeAll(async () => {
    const g = given(db);
    measured = (await g.patient({ programId, timeZone: 'America/Chicago' })).id;
    const cuff = await g.device({ programId, patientId: measured, kind: 'bp_cuff' });
    await db.execute(sql`
      INSERT INTO measurements (patient_id, program_id, device_id, type, value, unit, measured_at)
      SELECT ${measured}, ${programId}, ${cuff.id}, t.type, t.value, t.unit, t.at::timestamptz
      FROM (VALUES ('systolic', 128, 'mmHg', '2026-06-02T08:00:00-05:00'),
                   ('diastolic', 84, 'mmHg', '2026-06-02T08:00:00-05:00'),
                   ('systolic', 151, 'mmHg', '2026-06-03T08:00:00-05:00'),
                   ('oxygen', 96, '%', '2026-06-03T09:00:00-05:00'),
                   ('weight', 81.5, 'kg', '2026-06-05T07:00:00-05:00')) AS t(type, value, unit, at)`);
  });

  it('groups a range by type, systolic and oxygen by default', async () => {
    const res = await get(
      token.nurse,
      url(c.measurementsGrouped, { programId, id: measured, start: '2026-06-01', end: '2026-06-04' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      systolic: [
        { value: 128, measured_at: '2026-06-02T13:00:00.000Z' },
        { value: 151, measured_at: '2026-06-03T13:00:00.000Z' },
      ],
      oxygen: [{ value: 96, measured_at: '2026-06-03T14:00:00.000Z' }],
    });
    expect(res.json().units).toEqual({ systolic: 'mmHg', oxygen: '%' });
    const chosen = await get(
      token.nurse,
      url(
        c.measurementsGrouped,
        { programId, id: measured, start: '2026-06-01', end: '2026-06-30' },
        { types: 'weight,diastolic' },
      ),
    );
    expect(Object.keys(chosen.json().data)).toEqual(['weight', 'diastolic']);
    const unknown = await get(
      token.nurse,
      url(
        c.measurementsGrouped,
        { programId, id: measured, start: '2026-06-01', end: '2026-06-30' },
        { types: 'mood' },
      ),
    );
    expect(unknown.statusCode).toBe(422);
  });

  it('answers every reading of the patient newest first with its devices (user/patients/{id}/all)', async () => {
    const res = await get(token.nurse, url(c.patientAll, { id: measured }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { type: string }) => m.type)).toEqual([
      'weight',
      'oxygen',
      'systolic',
      'diastolic',
      'systolic',
    ]);
    expect(res.json().devices).toEqual([expect.objectContaining({ kind: 'bp_cuff' })]);
    expect((await get(token.outsider, url(c.patientAll, { id: measured }))).statusCode).toBe(404);
  });

  it('pages one type newest first and filters a range by device kind', async () => {
    const page = await get(
      token.nurse,
      url(c.measurementsByType, { id: measured, type: 'systolic' }, { per_page: '1' }),
    );
    expect(page.json()).toMatchObject({ total: 2, last_page: 2, per_page: 1, data: [{ value: 151 }] });
    const byDevice = await get(
      token.nurse,
      url(
        c.measurementsRange,
        { id: measured, start: '2026-06-01', end: '2026-06-30' },
        { device_type: 'bp_cuff' },
      ),
    );
    expect(byDevice.json().data).toHaveLength(5);
    const none = await get(
      token.nurse,
      url(
        c.measurementsRange,
        { id: measured, start: '2026-06-01', end: '2026-06-30' },
        { device_type: 'scale' },
      ),
    );
    expect(none.json().data).toEqual([]);
    expect(
      (await get(token.outsider, url(c.measurementsByType, { id: measured, type: 'systolic' }))).statusCode,
    ).toBe(404);
  });
});

describe('usage, inhaler, activity and sleep views', () => {
  let p = 0;
  beforeAll(async () => {
    const g = given(db);
    p = (await g.patient({ programId, timeZone: 'America/Los_Angeles' })).id;
    const controller = (
      await g.regimen({
        patientId: p,
        programId,
        type: 'inhaler',
        name: 'Fluticasone',
        times: ['08:00'],
        scheduledAt: '2026-05-01T00:00:00Z',
      })
    ).id;
    const rescue = (
      await g.regimen({
        patientId: p,
        programId,
        type: 'inhaler',
        name: 'Albuterol',
        repeat: 'as_needed',
        times: [],
        scheduledAt: '2026-05-01T00:00:00Z',
      })
    ).id;
    await g.doses({
      patientId: p,
      regimenId: controller,
      at: ['2026-06-02T08:05:00-07:00', '2026-06-03T08:01:00-07:00'],
      source: 'inhaler',
    });
    // 23:30 local on 2 June is 3 June in UTC: it counts on 2 June.
    await g.doses({ patientId: p, regimenId: rescue, at: ['2026-06-02T23:30:00-07:00'], source: 'inhaler' });
    await db.execute(sql`
      INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
      SELECT ${p}, ${programId}, t.type, t.value, t.unit, t.at::timestamptz
      FROM (VALUES ('steps', 4000, 'steps', '2026-06-02T12:00:00-07:00'), ('steps', 2500, 'steps', '2026-06-02T18:00:00-07:00'),
                   ('active_minutes', 35, 'min', '2026-06-02T18:00:00-07:00'), ('steps', 8000, 'steps', '2026-06-04T20:00:00-07:00'),
                   ('sleep', 420, 'min', '2026-06-02T07:00:00-07:00'), ('sleep', 390, 'min', '2026-06-03T07:00:00-07:00'))
        AS t(type, value, unit, at)`);
  });

  it('lists the doses of a range with a daily count in the patient zone', async () => {
    const res = await get(
      token.nurse,
      url(u.usages, { programId, id: p, start: '2026-06-02', end: '2026-06-03' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((x: { regimen_name: string }) => x.regimen_name)).toEqual([
      'Fluticasone',
      'Albuterol',
      'Fluticasone',
    ]);
    expect(res.json().daily).toEqual([
      { date: '2026-06-02', doses: 2, servings: 2 },
      { date: '2026-06-03', doses: 1, servings: 1 },
    ]);
  });

  it('splits inhaler use into controller and rescue puffs per day', async () => {
    const res = await get(
      token.nurse,
      url(u.inhalerUsages, { programId, userId: p, start: '2026-06-02', end: '2026-06-03' }),
    );
    expect(res.json().daily).toEqual([
      { date: '2026-06-02', controller: 1, rescue: 1 },
      { date: '2026-06-03', controller: 1, rescue: 0 },
    ]);
    expect(res.json().data.map((x: { use: string }) => x.use)).toEqual([
      'controller',
      'rescue',
      'controller',
    ]);
  });

  it('sums activity per day without gaps and averages sleep', async () => {
    const act = await get(
      token.nurse,
      url(u.activitiesRange, { programId, id: p, start: '2026-06-02', end: '2026-06-04' }),
    );
    expect(act.json().data).toEqual([
      { date: '2026-06-02', steps: 6500, active_minutes: 35 },
      { date: '2026-06-03', steps: 0, active_minutes: 0 },
      { date: '2026-06-04', steps: 8000, active_minutes: 0 },
    ]);
    expect(act.json().totals).toEqual({ steps: 14500, active_minutes: 35, days_measured: 2 });
    const sleep = await get(
      token.nurse,
      url(u.sleepRange, { programId, id: p, start: '2026-06-01', end: '2026-06-30' }),
    );
    expect(sleep.json()).toMatchObject({
      data: [
        { date: '2026-06-02', minutes: 420 },
        { date: '2026-06-03', minutes: 390 },
      ],
      average_minutes: 405,
    });
    const bad = await get(token.nurse, url(u.sleepFrom, { programId, id: p, start: '2026-13-01' }));
    expect(bad.statusCode).toBe(422);
    const outsider = await get(
      token.outsider,
      url(u.activitiesFrom, { programId, id: p, start: '2026-06-01' }),
    );
    expect(outsider.statusCode).toBe(404);
  });
});
