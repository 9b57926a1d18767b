import {
  billingContract as c,
  BILLING_PERIOD_MESSAGES as PM,
  billingPeriodsContract as pc,
  billingAtRiskContract as rc,
  routeUrl,
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
let program = 0;
const patients = { ann: 0, bob: 0, foreign: 0 };
const tokens: Record<string, string> = {};
const staff: Record<string, number> = {};
const NY = 'America/New_York';

const send = (as: string | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: as ? bearer(tokens[as]!) : {} });
const periods = (as: string | null, query = '', programId = program) =>
  send(as, 'GET', `${routeUrl(pc.periods, { programId })}?${query}`);
const supplyStart = (as: string, userId: number, body: unknown) =>
  send(as, 'PUT', routeUrl(pc.setSupplyStart, { programId: program, userId }), body);

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  const enterpriseId = (await g.enterprise()).id;
  program = (await g.program({ enterpriseId, name: 'Billing 2026' })).id;
  const foreignProgram = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  const make = async (key: string, input: Parameters<typeof g.admin>[0]) => {
    const a = await g.admin({ hipaaConsented: true, ...input });
    staff[key] = a.id;
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  };
  await make('nurse', { programRoles: [{ programId: program, role: 'care_coordinator' }] });
  await make('stranger', { programRoles: [{ programId: foreignProgram, role: 'admin' }] });
  await make('physician', { programRoles: [{ programId: program, role: 'physician' }] });
  patients.ann = (
    await g.patient({
      programId: program,
      firstName: 'Ann',
      lastName: 'Aardvark',
      timeZone: NY,
      assignedAdminId: staff.nurse ?? null,
    })
  ).id;
  patients.bob = (
    await g.patient({ programId: program, firstName: 'Bob', lastName: 'Bee', timeZone: NY })
  ).id;
  patients.foreign = (await g.patient({ programId: foreignProgram, lastName: 'Elsewhere' })).id;

  // Ann's cuff was supplied on 1 October (local); 15 device days from 1 October, the first one twice,
  // a late reading on 15 October 23:30 local (04:30Z on the 16th), and manual readings that never count.
  const [device] = (
    await db.execute<{ id: number }>(sql`
      INSERT INTO devices (serial, vendor, kind, program_id, patient_id, provisioned_at)
      VALUES ('BP-2026-1', 'acme', 'bp_cuff', ${program}, ${patients.ann}, '2026-10-01 14:00+00')
      RETURNING id`)
  ).rows;
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, device_id, type, value, unit, measured_at)
    SELECT ${patients.ann}::bigint, ${program}::bigint, ${device?.id}::bigint, 'systolic', 120, 'mmHg', t.at
    FROM (SELECT '2026-10-01 16:00+00'::timestamptz + (d || ' days')::interval AS at FROM generate_series(0, 13) d
      UNION ALL SELECT '2026-10-01 20:00+00'::timestamptz
      UNION ALL SELECT '2026-10-16 03:30+00'::timestamptz) t`);
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    SELECT ${patients.ann}, ${program}, 'systolic', 130, 'mmHg', '2026-10-20 16:00+00'::timestamptz + (d || ' days')::interval
    FROM generate_series(0, 5) d`);
  // 19:59 of RPM time this October, one part of it a call.
  const entry = (at: string, seconds: number, interactive: boolean) =>
    send('nurse', 'POST', routeUrl(c.record, {}), {
      user_id: patients.ann,
      program_id: program,
      type: 'rpm',
      interactive,
      started_at: at,
      ended_at: new Date(Date.parse(at) + seconds * 1000).toISOString(),
    });
  expect((await entry('2026-10-05T14:00:00Z', 700, true)).statusCode).toBe(201);
  expect((await entry('2026-10-06T14:00:00Z', 499, false)).statusCode).toBe(201);
});

describe('GET programs/{id}/billing/periods', () => {
  it('answers 401 without a session and 404 for another program', async () => {
    expect((await periods(null)).statusCode).toBe(401);
    expect((await periods('stranger')).statusCode).toBe(404);
  });

  it('answers 422 naming a date that does not exist', async () => {
    const res = await periods('nurse', 'date=2026-02-30');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.date).toBeDefined();
  });

  it('gives each code with its evidence and what the next code needs', async () => {
    const res = await periods('nurse', 'date=2026-10-20');
    expect(res.statusCode).toBe(200);
    const ann = res.json().data.find((r: { patient: { id: number } }) => r.patient.id === patients.ann);
    expect(ann.supply_start).toBe('2026-10-01');
    expect(ann.supply_start_source).toBe('device');
    expect(ann.period).toEqual({ index: 0, start: '2026-10-01', end: '2026-10-30', days_left: 11 });
    // 14 daily readings (1-14 Oct) + 15 Oct 23:30 local: 15 device days; the manual ones and the second
    // reading of 1 October add nothing.
    expect(ann.device.dates).toHaveLength(15);
    expect(ann.device.dates[0]).toBe('2026-10-01');
    expect(ann.device.dates.at(-1)).toBe('2026-10-15');
    expect(ann.device.code).toBe('99445');
    expect(ann.device.setup_code).toBe('99453');
    expect(ann.device.next).toEqual({ code: '99454', days_needed: 1 });
    expect(ann.rpm_time.seconds).toBe(1199);
    expect(ann.rpm_time.shown).toBe('19:59');
    expect(ann.rpm_time.codes).toEqual([{ code: '99470', units: 1 }]);
    expect(ann.rpm_time.next).toEqual({ code: '99457', seconds_needed: 1, needs_interactive: false });
    expect(ann.rpm_time.entries).toHaveLength(2);
    // 99091 counts physicians' RPM time in the 30-day period; the nurse's entries are not a physician's.
    expect(ann.physician_time).toMatchObject({ seconds: 0, shown: '0:00', codes: [] });
    expect(ann.physician_time.next).toEqual({
      code: '99091',
      seconds_needed: 1800,
      needs_interactive: false,
    });
    const bob = res.json().data.find((r: { patient: { id: number } }) => r.patient.id === patients.bob);
    expect(bob.supply_start).toBeNull();
    expect(bob.device).toBeNull();
    expect(bob.rpm_time.codes).toEqual([]);
    expect(bob.physician_time).toBeNull();
  });

  it('pages at the database', async () => {
    const res = await periods('nurse', 'date=2026-10-20&per_page=1&page=2');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { patient: { id: number } }) => r.patient.id)).toEqual([patients.bob]);
    expect(res.json().total).toBe(2);
    expect(res.json().last_page).toBe(2);
  });
});

describe('GET programs/{id}/billing/periods with filters (ADR 080)', () => {
  const ids = async (query: string) => {
    const res = await periods('nurse', `date=2026-10-20&${query}`);
    expect(res.statusCode).toBe(200);
    return {
      ids: res.json().data.map((r: { patient: { id: number } }) => r.patient.id),
      total: res.json().total,
    };
  };

  it('filters by an earned code, by the table: 15 device days earn 99445 and not 99454, 19:59 earns 99470', async () => {
    expect(await ids('code=99445')).toEqual({ ids: [patients.ann], total: 1 });
    expect(await ids('code=99453')).toEqual({ ids: [patients.ann], total: 1 });
    expect(await ids('code=99470')).toEqual({ ids: [patients.ann], total: 1 });
    expect(await ids('code=99454')).toEqual({ ids: [], total: 0 });
    expect(await ids('code=99457')).toEqual({ ids: [], total: 0 });
  });

  it('filters by status: earning, not earning yet, at risk; with a code, not earning matches nothing', async () => {
    expect(await ids('status=earning')).toEqual({ ids: [patients.ann], total: 1 });
    expect(await ids('status=not_earning')).toEqual({ ids: [patients.bob], total: 1 });
    expect(await ids('status=at_risk')).toEqual({ ids: [patients.ann], total: 1 });
    expect(await ids('status=not_earning&code=99445')).toEqual({ ids: [], total: 0 });
    expect(await ids('status=earning&code=99445&per_page=1&page=2')).toEqual({ ids: [], total: 1 });
  });

  it('filters by assignee, alone and with a status', async () => {
    expect(await ids(`assignee_id=${staff.nurse}`)).toEqual({ ids: [patients.ann], total: 1 });
    expect(await ids(`assignee_id=${staff.nurse}&status=not_earning`)).toEqual({ ids: [], total: 0 });
  });

  it('answers 422 naming each unknown or malformed filter', async () => {
    const bad = await periods('nurse', 'code=12345&status=busy&assignee_id=abc');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['assignee_id', 'code', 'status']);
    const foreign = await periods('nurse', `assignee_id=${staff.stranger}`);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.assignee_id).toEqual(['No staff member of this program has this id.']);
  });
});

describe('GET programs/{id}/billing/periods by keyset cursor (ADR 080)', () => {
  const ids = (res: { json: () => { data: { patient: { id: number } }[] } }) =>
    res.json().data.map((r) => r.patient.id);

  it('walks the program in name order by next_cursor, with the filters, and ends with a null cursor', async () => {
    const first = await periods('nurse', 'date=2026-10-20&per_page=1');
    expect(ids(first)).toEqual([patients.ann]);
    const cursor = first.json().next_cursor;
    expect(typeof cursor).toBe('string');
    const second = await periods('nurse', `date=2026-10-20&per_page=1&cursor=${cursor}`);
    expect(ids(second)).toEqual([patients.bob]);
    expect(second.json().total).toBe(2);
    const end = await periods('nurse', `date=2026-10-20&per_page=1&cursor=${second.json().next_cursor}`);
    expect(ids(end)).toEqual([]);
    expect(end.json().next_cursor).toBeNull();
    // The page parameters keep working beside it; a page that is not full has no next cursor.
    expect((await periods('nurse', 'date=2026-10-20&per_page=5')).json().next_cursor).toBeNull();
    const filtered = await periods('nurse', `date=2026-10-20&status=not_earning&cursor=${cursor}`);
    expect(ids(filtered)).toEqual([patients.bob]);
    expect(ids(await periods('nurse', `date=2026-10-20&status=earning&cursor=${cursor}`))).toEqual([]);
  });

  it('answers 422 naming a cursor this call did not give', async () => {
    for (const bad of ['not*base64', 'YWJj', Buffer.from('["a","b",-1]').toString('base64url')]) {
      const res = await periods('nurse', `cursor=${bad}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.cursor).toEqual(['The cursor is invalid: use a next_cursor of this call.']);
    }
  });
});

describe('GET programs/{id}/billing/at-risk', () => {
  const atRisk = (as: string | null, query = '') =>
    send(as, 'GET', `${routeUrl(rc.atRisk, { programId: program })}?${query}`);

  it('answers 401 without a session, 404 for another program, 422 for a date that does not exist', async () => {
    expect((await atRisk(null)).statusCode).toBe(401);
    expect((await send('stranger', 'GET', routeUrl(rc.atRisk, { programId: program }))).statusCode).toBe(404);
    expect((await atRisk('nurse', 'date=2026-02-30')).statusCode).toBe(422);
  });

  it('lists who will miss the next code unless someone acts, soonest first, with what is needed and the days left', async () => {
    const res = await atRisk('nurse', 'date=2026-10-20');
    expect(res.statusCode).toBe(200);
    // Ann: 15 device days by 20 October, 99454 needs one more in the 11 days left; 19:59 of time, 99457
    // needs 1 s in the 12 days left of October. Bob has no device: not listed.
    expect(res.json().data).toEqual([
      expect.objectContaining({
        kind: 'device_days',
        code: '99454',
        have: 15,
        needed: 1,
        days_left: 11,
        slack: 10,
      }),
      expect.objectContaining({
        kind: 'time',
        code: '99457',
        have: 1199,
        needed: 1,
        days_left: 12,
        slack: 12,
      }),
    ]);
    expect(res.json().data[0].patient.id).toBe(patients.ann);
    expect(res.json().data[0].period).toEqual({ start: '2026-10-01', end: '2026-10-30' });
    expect(res.json().total).toBe(2);
  });

  it("narrows to one assignee's patients; an id that is not staff of the program is 422", async () => {
    const mine = await atRisk('nurse', `date=2026-10-20&assignee_id=${staff.nurse}`);
    expect(mine.json().total).toBe(2);
    const none = await atRisk('nurse', `date=2026-10-20&assignee_id=${staff.physician}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ data: [], total: 0 });
    const theirs = await atRisk('nurse', `date=2026-10-20&assignee_id=${staff.stranger}`);
    expect(theirs.statusCode).toBe(422);
    expect(Object.keys(theirs.json().errors)).toEqual(['assignee_id']);
  });
});

describe('PUT programs/{id}/users/{userId}/billing/supply-start', () => {
  it('answers 401, 404 for a patient of another program, 422 for a bad date or no reason', async () => {
    const url = routeUrl(pc.setSupplyStart, { programId: program, userId: patients.ann });
    expect((await app.inject({ method: 'PUT', url, payload: {} })).statusCode).toBe(401);
    expect(
      (await supplyStart('nurse', patients.foreign, { supply_start: '2026-10-01', reason: 'x' })).statusCode,
    ).toBe(404);
    const bad = await supplyStart('nurse', patients.ann, { supply_start: '2026-13-01', reason: '' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['reason', 'supply_start']);
  });

  it('moves the periods, and the change is audited with its reason', async () => {
    const res = await supplyStart('nurse', patients.ann, {
      supply_start: '2026-10-03',
      reason: 'Cuff handed over on the 3rd',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(PM.supplyStartSet);
    const ann = (await periods('nurse', 'date=2026-10-20')).json().data[0];
    expect(ann.supply_start_source).toBe('staff');
    expect(ann.period.start).toBe('2026-10-03');
    expect(ann.device.dates).toHaveLength(13);
    const audit = await db.execute<{ details: { from: string | null; to: string; reason: string } }>(sql`
      SELECT details FROM audit_events WHERE action = 'billing.supply_start' AND subject_id = ${patients.ann}`);
    expect(audit.rows[0]?.details).toEqual({
      from: null,
      to: '2026-10-03',
      reason: 'Cuff handed over on the 3rd',
    });
  });
});
