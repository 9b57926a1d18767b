import { ALERT_MESSAGES, alertsContract, analyticsContract as c, routeUrl } from '@caredeck/contracts';
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
let enterpriseId = 0;
let token = '';
let outsider = '';
let seq = 1;
const today = new Date().toISOString().slice(0, 10);
const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);

const get = (as: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(as) });

async function highReading(programIdOf: number) {
  const g = given(db);
  const patient = await g.patient({ programId: programIdOf });
  const cuff = await g.device({ programId: programIdOf, patientId: patient.id, kind: 'bp_cuff' });
  await app.deviceGateway.ingestor.submitAsync({
    deviceId: cuff.id,
    seq: seq++,
    type: 'measurement',
    at: Date.now(),
    payload: { m: [{ type: 'systolic', value: 180, unit: 'mmHg' }] },
  });
  await app.alertEngine.settle();
  const res = await db.execute<{ id: number }>(sql`SELECT id FROM alerts WHERE patient_id = ${patient.id}`);
  return res.rows[0]!.id;
}

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  enterpriseId = (await g.enterprise()).id;
  programId = (await g.program({ enterpriseId })).id;
  const other = (await g.program()).id;
  const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'admin' }] });
  const o = await g.admin({ hipaaConsented: true, programRoles: [{ programId: other, role: 'admin' }] });
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  outsider = (await signIn(app, o.email, FACTORY_PASSWORD)).token;
  const first = await highReading(programId);
  await highReading(programId);
  await db.execute(sql`UPDATE alerts SET first_at = now() - interval '30 minutes' WHERE id = ${first}`);
  await app.inject({
    method: 'POST',
    url: alertsContract.acknowledge.path,
    headers: bearer(token),
    payload: { ids: [first] },
  });
});

describe('alert analytics', () => {
  it('counts the period: by status, type, day and staff, with time to acknowledge', async () => {
    const res = await get(
      token,
      routeUrl(
        c.program,
        { programId: String(programId), startDate: weekAgo, endDate: today },
        { count: '1' },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      start: weekAgo,
      end: today,
      total: 2,
      by_status: { open: 1, acknowledged: 1, escalated: 0, resolved: 0 },
      by_type: [{ type: 'out_range_blood_pressure_alerts', count: 2 }],
    });
    expect(data.time_to_acknowledge.count).toBe(1);
    expect(data.time_to_acknowledge.median_minutes).toBeGreaterThanOrEqual(29);
    expect(data.by_day).toHaveLength(7);
    expect(data.by_day.at(-1).date).toBe(today);
    // One alert was first seen 30 minutes ago: shortly after midnight that is yesterday.
    expect(data.by_day.reduce((n: number, d: { opened: number }) => n + d.opened, 0)).toBe(2);
    expect(data.by_staff).toEqual([expect.objectContaining({ acknowledged: 1, cleared: 0 })]);
  });

  it('lists the alerts of the period with filters, and the same over the enterprise', async () => {
    const base = { programId: String(programId), startDate: weekAgo, endDate: today };
    const acknowledged = await get(token, routeUrl(c.program, base, { alert_status: 'acknowledged' }));
    expect(acknowledged.json()).toMatchObject({ total: 1, data: [{ status: 'acknowledged' }] });
    const none = await get(token, routeUrl(c.program, base, { criterias: 'missed_doses' }));
    expect(none.json().total).toBe(0);
    const mine = await get(token, routeUrl(c.program, base, { filters: JSON.stringify({ assigned: 'me' }) }));
    expect(mine.json().total).toBe(0);
    const enterprise = await get(
      token,
      routeUrl(
        c.enterprise,
        { enterpriseId: String(enterpriseId), startDate: weekAgo, endDate: today },
        { count: '1' },
      ),
    );
    expect(enterprise.json().data.total).toBe(2);
    expect(
      (
        await get(
          outsider,
          routeUrl(c.enterprise, { enterpriseId: String(enterpriseId), startDate: weekAgo, endDate: today }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it('refuses bad periods, types and filters with 422, another program with 404', async () => {
    const url = (start: string, end: string, query: Record<string, string> = {}) =>
      routeUrl(c.program, { programId: String(programId), startDate: start, endDate: end }, query);
    expect((await get(token, url('2026-02-30', today))).json().errors).toHaveProperty('start');
    expect((await get(token, url(today, weekAgo))).json().errors).toHaveProperty('end');
    expect((await get(token, url(weekAgo, today, { criterias: 'nope' }))).json().errors.criterias).toEqual([
      ALERT_MESSAGES.unknownType,
    ]);
    expect((await get(token, url(weekAgo, today, { filters: '{nope' }))).statusCode).toBe(422);
    expect((await get(token, url(weekAgo, today, { zone: 'Mars/Olympus' }))).json().errors.zone).toEqual([
      ALERT_MESSAGES.unknownZone,
    ]);
    expect((await get(outsider, url(weekAgo, today))).statusCode).toBe(404);
  });

  it("reports the engine's processing state", async () => {
    const res = await get(token, routeUrl(c.process, { programId: String(programId) }));
    expect(res.json().data).toMatchObject({ open_alerts: 2, failures: 0 });
    expect(res.json().data.evaluations).toBeGreaterThan(0);
  });

  it('gives a dashboard one fact per day, zeros included', async () => {
    const res = await get(
      token,
      routeUrl(
        c.dashboard,
        { fact: 'alerts', start: weekAgo, end: today },
        { program_id: String(programId) },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ fact: 'alerts', total: 2 });
    expect(res.json().data).toHaveLength(7);
    expect(res.json().data[0]).toEqual({ date: weekAgo, value: 0 });
    const readings = await get(
      token,
      routeUrl(
        c.dashboard,
        { fact: 'readings', start: weekAgo, end: today },
        { program_id: String(programId) },
      ),
    );
    expect(readings.json().total).toBe(2);
    expect(
      (await get(token, routeUrl(c.dashboard, { fact: 'nope', start: weekAgo, end: today }))).statusCode,
    ).toBe(422);
    expect(
      (
        await get(
          outsider,
          routeUrl(
            c.dashboard,
            { fact: 'alerts', start: weekAgo, end: today },
            { program_id: String(programId) },
          ),
        )
      ).statusCode,
    ).toBe(404);
  });
});
