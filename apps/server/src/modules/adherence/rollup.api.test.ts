import {
  dataViewsContract,
  kpiContract,
  medicationsContract,
  type RouteContract,
  routeUrl,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { ingestBatch } from '../devices/ingest.queries';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

/**
 * The KPI routes over the daily rollup (ADR 046), through the whole app: the job run as the timer runs it,
 * device events written by the gateway's batch statement (late and out of order), regimens edited and
 * ended through the API. After each, the KPI is the sum of the calendars the same routes answer.
 */

const DAY = 86_400_000;
const COUNTS = ['due', 'on_time', 'late', 'missed', 'skipped', 'partial', 'pending'] as const;
type Totals = Record<(typeof COUNTS)[number], number>;

let app: App;
let db: Database;
let token = '';
let enterpriseToken = '';
let enterpriseId = 0;
const programs = { a: 0, b: 0 };
const patients: { id: number; programId: number; regimenId: number }[] = [];
let dispenser = 0;
let seq = 0;
const start = new Date(Date.now() - 9 * DAY).toISOString().slice(0, 10);
const end = new Date(Date.now() + DAY).toISOString().slice(0, 10);

const get = (as: string, contract: RouteContract, params: Record<string, number | string>) =>
  app.inject({ method: 'GET', url: routeUrl(contract, params), headers: bearer(as) });

async function calendars(programIds: number[]) {
  const total: Totals = { due: 0, on_time: 0, late: 0, missed: 0, skipped: 0, partial: 0, pending: 0 };
  let extra = 0;
  let withDosesDue = 0;
  const daily = new Map<string, number>();
  for (const p of patients.filter((x) => programIds.includes(x.programId))) {
    const as = p.programId === programs.a ? token : enterpriseToken;
    const res = await get(as, dataViewsContract.adherenceRange, {
      programId: p.programId,
      id: p.id,
      start,
      end,
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    for (const k of COUNTS) total[k] += r.total[k];
    extra += r.extra.length;
    if (r.total.due > 0) withDosesDue++;
    for (const d of r.days as (Totals & { date: string })[])
      daily.set(d.date, (daily.get(d.date) ?? 0) + d.due);
  }
  return { total, extra, withDosesDue, daily: [...daily.entries()].sort(([x], [y]) => x.localeCompare(y)) };
}

async function expectKpiIsCalendars(label: string) {
  const res = await get(token, kpiContract.program, { programId: programs.a, start, end });
  expect(res.statusCode, res.body).toBe(200);
  const kpi = res.json();
  const sum = await calendars([programs.a]);
  for (const k of COUNTS) expect(kpi.doses[k], `${label}: ${k}`).toBe(sum.total[k]);
  expect(kpi.doses.extra, `${label}: extra`).toBe(sum.extra);
  expect(kpi.patients.with_doses_due, `${label}: with doses due`).toBe(sum.withDosesDue);
  expect(
    kpi.daily.map((d: { date: string; due: number }) => [d.date, d.due]),
    `${label}: daily`,
  ).toEqual(sum.daily);
  return kpi;
}

const dirtyOf = async (patientId: number) =>
  (
    await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM adherence_dirty WHERE patient_id = ${patientId}`,
    )
  ).rows[0]!.n;

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  enterpriseId = (await g.enterprise()).id;
  programs.a = (await g.program({ enterpriseId })).id;
  programs.b = (await g.program({ enterpriseId })).id;
  const plan = [
    { programId: programs.a, zone: 'America/New_York', times: ['08:00', '20:00'] },
    { programId: programs.a, zone: 'Asia/Kolkata', times: ['09:00'] },
    { programId: programs.a, zone: 'Pacific/Auckland', times: ['07:00', '13:00', '19:00'] },
    { programId: programs.b, zone: 'Europe/Berlin', times: ['08:00'] },
  ];
  for (const [i, p] of plan.entries()) {
    const id = (await g.patient({ programId: p.programId, timeZone: p.zone })).id;
    const regimenId = (
      await g.regimen({
        patientId: id,
        programId: p.programId,
        times: p.times,
        lockoutTime: 120,
        unlockBefore: 30,
        scheduledAt: new Date(Date.now() - 12 * DAY).toISOString(),
      })
    ).id;
    // Some doses on time, some late, one a day skipped for the second patient, an extra for the first.
    const at: string[] = [];
    for (let d = 11; d >= 0; d--)
      if ((d + i) % 3 !== 0) at.push(new Date(Date.now() - d * DAY - (i + 1) * 3_600_000).toISOString());
    await g.doses({ patientId: id, regimenId, at });
    patients.push({ id, programId: p.programId, regimenId });
  }
  dispenser = (await g.device({ programId: programs.a, patientId: patients[0]!.id, kind: 'dispenser' })).id;
  const admin = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: programs.a, role: 'admin' }],
  });
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  const ent = await g.admin({ hipaaConsented: true, enterpriseAdminOf: [enterpriseId] });
  enterpriseToken = (await signIn(app, ent.email, FACTORY_PASSWORD)).token;
});

describe('KPI over the daily rollup', () => {
  it('reads what the job rolled up: the sum of the calendars, for a program and an enterprise', async () => {
    expect(await app.adherenceRollup.run()).toBeGreaterThanOrEqual(patients.length);
    for (const p of patients) expect(await dirtyOf(p.id)).toBe(0);
    const kpi = await expectKpiIsCalendars('rolled up');
    expect(kpi.doses.due).toBeGreaterThan(0);
    const res = await get(enterpriseToken, kpiContract.enterprise, { enterpriseId, start, end });
    expect(res.statusCode, res.body).toBe(200);
    const both = await calendars([programs.a, programs.b]);
    for (const k of COUNTS) expect(res.json().doses[k], k).toBe(both.total[k]);
    expect(res.json().doses.extra).toBe(both.extra);
  });

  it('counts device events that arrive late and out of order at once, and again once rolled up', async () => {
    const p = patients[0]!;
    const at = (daysBack: number, hour: number) => {
      const d = new Date(Date.now() - daysBack * DAY);
      return Date.parse(`${d.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:05:00-04:00`);
    };
    // A dispenser back online sends its backlog newest first: doses of six and three days ago, a skip.
    const events = [
      { type: 'dose_taken', at: at(3, 8) },
      { type: 'dose_skipped', at: at(3, 20) },
      { type: 'dose_taken', at: at(6, 20) },
      { type: 'dose_taken', at: at(6, 20) + 600_000 },
    ].map((e) => ({
      deviceId: dispenser,
      seq: ++seq,
      type: e.type,
      at: e.at,
      payload: { regimen_id: p.regimenId },
    }));
    const client = await db.$client.connect();
    try {
      await ingestBatch(client, events);
    } finally {
      client.release();
    }
    expect(await dirtyOf(p.id)).toBeGreaterThan(0);
    await expectKpiIsCalendars('late events, read live');
    // The background timer rests a patient rolled up a moment ago (a device sending all the time costs one
    // roll-up a minute): the KPI reads them live meanwhile, and a pass without the rest rolls them up.
    await app.adherenceRollup.run({ restMs: 60_000 });
    expect(await dirtyOf(p.id)).toBeGreaterThan(0);
    await expectKpiIsCalendars('late events, resting');
    await app.adherenceRollup.run();
    expect(await dirtyOf(p.id)).toBe(0);
    await expectKpiIsCalendars('late events, rolled up');
  });

  it('follows a regimen edited and one ended through the API', async () => {
    const edit = await app.inject({
      method: 'PUT',
      url: routeUrl(medicationsContract.updateRegimen, { regimenId: patients[1]!.regimenId }),
      headers: bearer(token),
      payload: { time: ['07:00', '21:00'] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const done = await app.inject({
      method: 'PUT',
      url: routeUrl(medicationsContract.completeRegimen, {
        programId: programs.a,
        id: patients[2]!.id,
        regimenId: patients[2]!.regimenId,
      }),
      headers: bearer(token),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await dirtyOf(patients[1]!.id)).toBeGreaterThan(0);
    expect(await dirtyOf(patients[2]!.id)).toBeGreaterThan(0);
    await expectKpiIsCalendars('edited, read live');
    await app.adherenceRollup.run();
    await expectKpiIsCalendars('edited, rolled up');
  });

  it('moves a patient who changes program with their doses, at once', async () => {
    const p = patients[3]!;
    await db.execute(sql`UPDATE patients SET program_id = ${programs.a} WHERE id = ${p.id}`);
    p.programId = programs.a;
    const rows = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM adherence_days WHERE patient_id = ${p.id}`,
    );
    expect(rows.rows[0]!.n).toBe(0);
    const b = await get(enterpriseToken, kpiContract.enterprise, { enterpriseId, start, end });
    expect(b.json().doses.due).toBe((await calendars([programs.a])).total.due);
    await expectKpiIsCalendars('moved, read live');
    await app.adherenceRollup.run();
    await expectKpiIsCalendars('moved, rolled up');
  });
});
