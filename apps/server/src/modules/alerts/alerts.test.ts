import {
  ALERT_MESSAGES,
  ALERT_TYPES,
  alertsContract as c,
  legacyAlertsContract as legacy,
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
let programId = 0;
let otherProgram = 0;
let coordinator = '';
let physician = '';
let outsider = '';
let physicianId = 0;
let seq = 1;

const call = (as: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(as) });

/** A blood-pressure reading through the gateway's ingestor (the same path MQTT events take). */
async function bp(deviceId: number, systolic: number, diastolic: number, at = Date.now()) {
  await app.deviceGateway.ingestor.submitAsync({
    deviceId,
    seq: seq++,
    type: 'measurement',
    at,
    payload: {
      m: [
        { type: 'systolic', value: systolic, unit: 'mmHg' },
        { type: 'diastolic', value: diastolic, unit: 'mmHg' },
      ],
    },
  });
  await app.alertEngine.settle();
}

async function patientWithCuff(programIdOf = programId) {
  const g = given(db);
  const { id } = await g.patient({ programId: programIdOf });
  const res = await db.execute<{ last_name: string }>(sql`SELECT last_name FROM patients WHERE id = ${id}`);
  const patient = { id, lastName: res.rows[0]!.last_name };
  const cuff = await g.device({ programId: programIdOf, patientId: id, kind: 'bp_cuff' });
  return { patient, cuff };
}

async function alertsOf(patientId: number, type: string) {
  const res = await db.execute<{
    id: number;
    status: string;
    occurrences: number;
    resolution: string | null;
  }>(sql`
    SELECT id, status, occurrences, resolution FROM alerts WHERE patient_id = ${patientId} AND type = ${type} ORDER BY id`);
  return res.rows;
}

const list = (as: string, type: string, query: Record<string, string> = {}) =>
  call(
    as,
    'GET',
    routeUrl(c.list, { type, period: 'week', cohort: 'all' }, { program_id: String(programId), ...query }),
  );

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  programId = (await g.program()).id;
  otherProgram = (await g.program()).id;
  const a = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'care_coordinator' }] });
  const p = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'physician' }] });
  const o = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: otherProgram, role: 'admin' }],
  });
  physicianId = p.id;
  coordinator = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  physician = (await signIn(app, p.email, FACTORY_PASSWORD)).token;
  outsider = (await signIn(app, o.email, FACTORY_PASSWORD)).token;
});

describe('vital-sign alerts', () => {
  it('opens one alert per condition, counts repeats, explains itself and resolves when readings return to normal', async () => {
    const { patient, cuff } = await patientWithCuff();
    const t0 = Date.now() - 60_000;
    await bp(cuff.id, 172, 95, t0);
    let rows = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    expect(rows).toEqual([expect.objectContaining({ status: 'open', occurrences: 1 })]);

    // Seen again: the same alert counts a second occurrence (de-duplicated), and an evaluation of the same
    // evidence counts nothing.
    await bp(cuff.id, 181, 104, t0 + 10_000);
    await app.alertEngine.evaluate([patient.id]);
    rows = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    expect(rows).toEqual([expect.objectContaining({ status: 'open', occurrences: 2 })]);

    const detail = await call(coordinator, 'GET', routeUrl(c.detail, { id: String(rows[0]!.id) }));
    expect(detail.statusCode, detail.body).toBe(200);
    const alert = detail.json().data;
    expect(alert.summary).toBe('Systolic 181 ≥ 160; Diastolic 104 ≥ 100');
    expect(alert.reason.readings).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'systolic', value: 181, unit: 'mmHg' })]),
    );
    expect(alert.reason.settings_source).toMatchObject({ systolic_high: 'default' });
    expect(alert.history.map((h: { action: string }) => h.action)).toEqual(['opened']);

    // Back to normal: resolved by itself, with its history.
    await bp(cuff.id, 128, 82, t0 + 20_000);
    rows = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    expect(rows).toEqual([expect.objectContaining({ status: 'resolved', resolution: 'auto' })]);
    // A late reading older than the alert's evidence changes nothing.
    await bp(cuff.id, 190, 110, t0 - 3600_000);
    expect(await alertsOf(patient.id, 'out_range_blood_pressure_alerts')).toHaveLength(1);
  });

  it('low blood pressure has its own alert', async () => {
    const { patient, cuff } = await patientWithCuff();
    await bp(cuff.id, 84, 55);
    expect(await alertsOf(patient.id, 'low_blood_pressure_alerts')).toEqual([
      expect.objectContaining({ status: 'open' }),
    ]);
    expect(await alertsOf(patient.id, 'out_range_blood_pressure_alerts')).toEqual([]);
  });

  it('averages over the window a program sets, and a patient threshold beats the program one', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId: program, role: 'admin' }],
    });
    const token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
    const saved = await call(token, 'PUT', routeUrl(c.saveSettings, { programId: String(program) }), {
      settings: { window_minutes: 30, systolic_high: 150 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { patient, cuff } = await patientWithCuff(program);
    const t0 = Date.now() - 20 * 60_000;
    // One high reading among normal ones: the 30-minute averages (147.5, then 141.7) stay under 150.
    await bp(cuff.id, 130, 80, t0);
    await bp(cuff.id, 165, 80, t0 + 5 * 60_000);
    await bp(cuff.id, 130, 80, t0 + 10 * 60_000);
    expect(await alertsOf(patient.id, 'out_range_blood_pressure_alerts')).toEqual([]);

    // The patient's own threshold (140) beats the program's (150): the same average now breaches.
    const own = await call(
      token,
      'PUT',
      routeUrl(c.saveSettings, { programId: String(program) }, { patient_id: String(patient.id) }),
      { settings: { systolic_high: 140 } },
    );
    expect(own.statusCode, own.body).toBe(200);
    await bp(cuff.id, 150, 80, t0 + 15 * 60_000);
    // Average of 4 readings: 143.8 ≥ 140.
    const rows = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    expect(rows).toEqual([expect.objectContaining({ status: 'open' })]);
    const detail = (await call(token, 'GET', routeUrl(c.detail, { id: String(rows[0]!.id) }))).json().data;
    expect(detail.summary).toBe('Systolic 143.8 ≥ 140 (average of 4 readings)');
    expect(detail.reason.settings_source).toMatchObject({
      systolic_high: 'patient',
      window_minutes: 'program',
    });

    const effective = await call(
      token,
      'GET',
      routeUrl(c.settings, { programId: String(program) }, { patient_id: String(patient.id) }),
    );
    expect(effective.json().data).toMatchObject({
      own: { systolic_high: 140 },
      effective: { systolic_high: 140, window_minutes: 30, diastolic_high: 100 },
      source: { systolic_high: 'patient', window_minutes: 'program', diastolic_high: 'default' },
    });
  });

  it('refuses bad settings (422), another program (404) and a role that may not change them (403)', async () => {
    const url = routeUrl(c.saveSettings, { programId: String(programId) });
    const bad = await call(physician, 'PUT', url, { settings: { systolic_high: 10, nonsense: 1 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty(['settings.systolic_high']);
    expect((await call(coordinator, 'PUT', url, { settings: {} })).statusCode).toBe(403);
    expect((await call(outsider, 'PUT', url, { settings: {} })).statusCode).toBe(404);
    const foreign = await given(db).patient({ programId: otherProgram });
    const other = await call(
      physician,
      'PUT',
      routeUrl(c.saveSettings, { programId: String(programId) }, { patient_id: String(foreign.id) }),
      { settings: { systolic_high: 150 } },
    );
    expect(other.statusCode).toBe(404);
  });
});

describe('the board', () => {
  let alertId = 0;
  let patientName = '';

  beforeAll(async () => {
    const { patient, cuff } = await patientWithCuff();
    patientName = patient.lastName;
    await bp(cuff.id, 200, 120);
    alertId = (await alertsOf(patient.id, 'out_range_blood_pressure_alerts'))[0]!.id;
  });

  it('counts open alerts per type on tiles, for every type of the spec', async () => {
    const res = await call(
      coordinator,
      'GET',
      routeUrl(c.groups, undefined, { program_id: String(programId) }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const tiles = res.json().data as { type: string; count: number; evaluated: boolean }[];
    expect(tiles.map((t) => t.type)).toEqual([...ALERT_TYPES]);
    expect(tiles.find((t) => t.type === 'out_range_blood_pressure_alerts')!.count).toBeGreaterThanOrEqual(1);
    // Another program's staff see none of them; a program they do not work in is 404.
    const theirs = await call(outsider, 'GET', c.groups.path);
    expect(theirs.json().total).toBe(0);
    expect(
      (await call(outsider, 'GET', routeUrl(c.groups, undefined, { program_id: String(programId) })))
        .statusCode,
    ).toBe(404);
  });

  it('lists a type with search and paging, and refuses unknown types, periods and cohorts', async () => {
    const res = await list(coordinator, 'out_range_blood_pressure_alerts', { query: patientName });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((a: { id: number }) => a.id)).toContain(alertId);
    expect(res.json()).toMatchObject({ current_page: 1, per_page: 25 });
    const everyType = await list(coordinator, 'all', { query: patientName });
    expect(everyType.json().data.map((a: { id: number }) => a.id)).toContain(alertId);
    // A page past the end is empty but still says how many there are (the pager's last page stays right).
    const all = (await list(coordinator, 'all')).json();
    expect(all.total).toBeGreaterThan(0);
    const past = await list(coordinator, 'all', { page: String(all.last_page + 1) });
    expect(past.json()).toMatchObject({ data: [], total: all.total, last_page: all.last_page });
    const none = await list(coordinator, 'out_range_blood_pressure_alerts', { query: 'zz-nobody-zz' });
    expect(none.json()).toMatchObject({ data: [], total: 0 });

    const badType = await call(
      coordinator,
      'GET',
      routeUrl(c.list, { type: 'nope', period: 'week', cohort: 'all' }),
    );
    expect(badType.statusCode).toBe(422);
    expect(badType.json().errors.type).toEqual([ALERT_MESSAGES.unknownType]);
    const badPeriod = await call(
      coordinator,
      'GET',
      routeUrl(c.list, { type: 'missed_doses', period: '999', cohort: 'all' }),
    );
    expect(badPeriod.json().errors.period).toEqual([ALERT_MESSAGES.badPeriod]);
    // Names of the object prototype are not periods either.
    const prototypeName = await call(
      coordinator,
      'GET',
      routeUrl(c.list, { type: 'missed_doses', period: 'toString', cohort: 'all' }),
    );
    expect(prototypeName.statusCode).toBe(422);
    const badCohort = await call(
      coordinator,
      'GET',
      routeUrl(c.list, { type: 'missed_doses', period: '7', cohort: 'x' }),
    );
    expect(badCohort.statusCode).toBe(422);
    const foreignCohort = await given(db).group({ programId: otherProgram });
    const foreign = await call(
      coordinator,
      'GET',
      routeUrl(c.list, { type: 'missed_doses', period: 'all', cohort: String(foreignCohort.id) }),
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('acknowledges, assigns and snoozes with an audit trail; a snoozed condition stays quiet for the whole snooze', async () => {
    const ack = await call(coordinator, 'POST', c.acknowledge.path, { ids: [alertId] });
    expect(ack.json()).toEqual({ message: ALERT_MESSAGES.acknowledged, count: 1 });
    const assign = await call(coordinator, 'POST', c.assign.path, { ids: [alertId], admin_id: physicianId });
    expect(assign.statusCode, assign.body).toBe(200);
    const outsiderAdmin = await given(db).admin({
      programRoles: [{ programId: otherProgram, role: 'admin' }],
    });
    const wrong = await call(coordinator, 'POST', c.assign.path, {
      ids: [alertId],
      admin_id: outsiderAdmin.id,
    });
    expect(wrong.statusCode).toBe(422);

    const mine = await list(physician, 'out_range_blood_pressure_alerts', { assigned: 'me' });
    expect(mine.json().data).toEqual([expect.objectContaining({ id: alertId, status: 'acknowledged' })]);

    const snooze = await call(coordinator, 'POST', c.snooze.path, { ids: [alertId], minutes: 60 });
    expect(snooze.statusCode, snooze.body).toBe(200);
    const active = await list(coordinator, 'out_range_blood_pressure_alerts');
    expect(active.json().data.map((a: { id: number }) => a.id)).not.toContain(alertId);
    const all = await list(coordinator, 'out_range_blood_pressure_alerts', { status: 'all' });
    expect(all.json().data.find((a: { id: number }) => a.id === alertId).snoozed_until).toBe(
      snooze.json().until,
    );

    const history = (await call(coordinator, 'GET', routeUrl(c.detail, { id: String(alertId) }))).json().data
      .history;
    expect(history.map((h: { action: string }) => h.action)).toEqual([
      'opened',
      'acknowledged',
      'assigned',
      'snoozed',
    ]);
    expect(history[1].admin).not.toBeNull();

    const tooShort = await call(coordinator, 'POST', c.snooze.path, { ids: [alertId], minutes: 1 });
    expect(tooShort.statusCode).toBe(422);
  });

  it('a snooze outlives the alert: the condition coming back during it stays off the board', async () => {
    const { patient, cuff } = await patientWithCuff();
    const t0 = Date.now() - 120_000;
    await bp(cuff.id, 175, 90, t0);
    const [first] = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    await call(coordinator, 'POST', c.snooze.path, { ids: [first!.id], minutes: 120 });
    await bp(cuff.id, 120, 80, t0 + 10_000); // resolves
    await bp(cuff.id, 178, 92, t0 + 20_000); // a new alert for the same condition, still snoozed
    const rows = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    expect(rows.map((r) => r.status)).toEqual(['resolved', 'open']);
    const active = await list(coordinator, 'out_range_blood_pressure_alerts', { query: patient.lastName });
    expect(active.json().data).toEqual([]);
  });

  it('clears alerts (delete_alerts) and answers 404 for ids outside the caller scope, writing nothing', async () => {
    const { patient, cuff } = await patientWithCuff();
    await bp(cuff.id, 190, 100);
    const [mine] = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    const foreign = await patientWithCuff(otherProgram);
    await bp(foreign.cuff.id, 190, 100);
    const [theirs] = await alertsOf(foreign.patient.id, 'out_range_blood_pressure_alerts');

    const mixed = await call(coordinator, 'POST', c.deleteAlerts.path, { ids: [mine!.id, theirs!.id] });
    expect(mixed.statusCode).toBe(404);
    expect((await alertsOf(patient.id, 'out_range_blood_pressure_alerts'))[0]!.status).toBe('open');
    expect((await call(outsider, 'GET', routeUrl(c.detail, { id: String(mine!.id) }))).statusCode).toBe(404);

    const cleared = await call(coordinator, 'POST', c.deleteAlerts.path, { ids: [mine!.id] });
    expect(cleared.json()).toEqual({ message: ALERT_MESSAGES.cleared, count: 1 });
    expect(await alertsOf(patient.id, 'out_range_blood_pressure_alerts')).toEqual([
      expect.objectContaining({ status: 'resolved', resolution: 'cleared' }),
    ]);
    const resolved = await call(
      coordinator,
      'GET',
      routeUrl(c.stepResolved, undefined, { program_id: String(programId) }),
    );
    expect(resolved.json().data[0]).toMatchObject({ id: mine!.id, resolution: 'cleared' });

    expect((await call(coordinator, 'POST', c.deleteAlerts.path, { ids: [] })).statusCode).toBe(422);
    expect((await call(coordinator, 'POST', c.deleteAlerts.path, { ids: ['1'] })).statusCode).toBe(422);
    expect(
      (await app.inject({ method: 'POST', url: c.deleteAlerts.path, payload: { ids: [1] } })).statusCode,
    ).toBe(401);
  });

  it('hides and clears through the analytics calls of the path program only', async () => {
    const { patient, cuff } = await patientWithCuff();
    await bp(cuff.id, 190, 100);
    const [a] = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    const hide = await call(coordinator, 'PUT', routeUrl(c.analyticsHide, { programId: String(programId) }), {
      alerts: [a!.id],
    });
    expect(hide.json()).toEqual({ message: ALERT_MESSAGES.hidden, count: 1 });
    const shown = await list(coordinator, 'out_range_blood_pressure_alerts', { query: patient.lastName });
    expect(shown.json().data).toEqual([]);
    const hidden = await list(coordinator, 'out_range_blood_pressure_alerts', {
      query: patient.lastName,
      include_hidden: '1',
    });
    expect(hidden.json().data).toEqual([expect.objectContaining({ id: a!.id, hidden: true })]);
    const elsewhere = await call(
      outsider,
      'PUT',
      routeUrl(c.analyticsClear, { programId: String(otherProgram) }),
      {
        alerts: [a!.id],
      },
    );
    expect(elsewhere.statusCode).toBe(404);
  });

  it('counts patients in scope and those with open alerts, for a cohort too', async () => {
    const res = await call(
      coordinator,
      'GET',
      routeUrl(c.usersCount, undefined, { program_id: String(programId) }),
    );
    const { patients, with_alerts } = res.json().data;
    expect(patients).toBeGreaterThan(0);
    expect(with_alerts).toBeGreaterThan(0);
    expect(with_alerts).toBeLessThanOrEqual(patients);
    const g = given(db);
    const cohort = await g.group({ programId });
    const cohortCount = await call(
      coordinator,
      'GET',
      routeUrl(c.usersCountCohort, { cohort: String(cohort.id) }),
    );
    expect(cohortCount.json().data).toEqual({ patients: 0, with_alerts: 0 });
    const foreign = await g.group({ programId: otherProgram });
    expect(
      (await call(coordinator, 'GET', routeUrl(c.usersCountCohort, { cohort: String(foreign.id) })))
        .statusCode,
    ).toBe(404);
  });
});

describe('swept alerts', () => {
  it('opens disconnected-dispenser, missed-readings and low-pod alerts on a sweep and resolves them when the device speaks', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const patient = await g.patient({ programId: program });
    const dispenser = await g.device({ programId: program, patientId: patient.id, kind: 'dispenser' });
    await g.device({ programId: program, patientId: patient.id, kind: 'pulse_oximeter' });
    // Handed out four days ago and silent since.
    await db.execute(
      sql`UPDATE devices SET provisioned_at = now() - interval '4 days' WHERE patient_id = ${patient.id}`,
    );
    await app.alertEngine.sweep();
    const disconnected = await alertsOf(patient.id, 'disconnected_dispensers');
    expect(disconnected).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(await alertsOf(patient.id, 'missed_physiological_readings_alerts')).toEqual([
      expect.objectContaining({ status: 'open' }),
    ]);
    // A second sweep of the same silence counts nothing.
    await app.alertEngine.sweep();
    expect((await alertsOf(patient.id, 'disconnected_dispensers'))[0]!.occurrences).toBe(1);

    // A weight reading (not a vital sign) ends the missed-readings alert on the next sweep.
    const scale = await g.device({ programId: program, patientId: patient.id, kind: 'scale' });
    await app.deviceGateway.ingestor.submitAsync({
      deviceId: scale.id,
      seq: seq++,
      type: 'measurement',
      at: Date.now(),
      payload: { m: [{ type: 'weight', value: 82, unit: 'kg' }] },
    });
    await app.alertEngine.sweep();
    expect((await alertsOf(patient.id, 'missed_physiological_readings_alerts'))[0]!.status).toBe('resolved');

    // The dispenser speaks; the next sweep resolves its alert.
    await app.deviceGateway.ingestor.submitAsync({
      deviceId: dispenser.id,
      seq: seq++,
      type: 'heartbeat',
      at: Date.now(),
      payload: {},
    });
    await app.alertEngine.sweep();
    expect(await alertsOf(patient.id, 'disconnected_dispensers')).toEqual([
      expect.objectContaining({ status: 'resolved', resolution: 'auto' }),
    ]);
  });

  it('opens missed-dose and low-adherence alerts from the adherence engine and resolves the missed dose once a dose is taken', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const patient = await g.patient({ programId: program, timeZone: 'UTC' });
    const regimen = await g.regimen({
      patientId: patient.id,
      programId: program,
      times: ['00:00', '06:00', '12:00', '18:00'],
      lockoutTime: 60,
      unlockBefore: 30,
      scheduledAt: new Date(Date.now() - 10 * 86_400_000).toISOString(),
    });
    await app.alertEngine.sweep();
    const missed = await alertsOf(patient.id, 'missed_doses');
    expect(missed).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(await alertsOf(patient.id, 'low_adherence')).toEqual([
      expect.objectContaining({ status: 'open' }),
    ]);
    const detail = (await call(physician, 'GET', routeUrl(c.detail, { id: String(missed[0]!.id) })))
      .statusCode;
    expect(detail).toBe(404); // another program's alert

    // Every dose of the last days taken on time: the missed-dose alert resolves on the next sweep.
    const at: string[] = [];
    const day = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    for (let d = -8; d <= 0; d++)
      for (const h of [0, 6, 12, 18]) {
        const t = day + d * 86_400_000 + h * 3600_000;
        if (t < Date.now() - 5 * 60_000) at.push(new Date(t).toISOString());
      }
    await g.doses({ patientId: patient.id, regimenId: regimen.id, at });
    await app.alertEngine.sweep();
    expect((await alertsOf(patient.id, 'missed_doses'))[0]!.status).toBe('resolved');
    expect((await alertsOf(patient.id, 'low_adherence'))[0]!.status).toBe('resolved');
  });

  it('opens low_adherence_average when one medication is left aside although the pooled adherence holds', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId: program, role: 'admin' }],
    });
    const token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
    await call(token, 'PUT', routeUrl(c.saveSettings, { programId: String(program) }), {
      settings: { low_adherence: 70 },
    });
    const patient = await g.patient({ programId: program, timeZone: 'UTC' });
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const frequent = await g.regimen({
      patientId: patient.id,
      programId: program,
      name: 'Metformin',
      times: ['00:00', '06:00', '12:00', '18:00'],
      lockoutTime: 60,
      unlockBefore: 30,
      scheduledAt: since,
    });
    await g.regimen({
      patientId: patient.id,
      programId: program,
      name: 'Lisinopril',
      times: ['09:00'],
      lockoutTime: 60,
      unlockBefore: 30,
      scheduledAt: since,
    });
    const at: string[] = [];
    const day = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    for (let d = -9; d <= 0; d++)
      for (const h of [0, 6, 12, 18]) {
        const t = day + d * 86_400_000 + h * 3600_000;
        if (t < Date.now() - 5 * 60_000) at.push(new Date(t).toISOString());
      }
    await g.doses({ patientId: patient.id, regimenId: frequent.id, at });
    await app.alertEngine.sweep();

    // Pooled: about 4 of 5 doses taken (at or above 70 %); per medication: 100 % and 0 %, average 50 %.
    expect(await alertsOf(patient.id, 'low_adherence')).toEqual([]);
    const [average] = await alertsOf(patient.id, 'low_adherence_average');
    expect(average).toMatchObject({ status: 'open' });
    const detail = (await call(token, 'GET', routeUrl(c.detail, { id: String(average!.id) }))).json().data;
    expect(detail.reason.adherence).toBe(50);
    expect(detail.reason.medications).toEqual([
      { regimen: expect.objectContaining({ name: 'Metformin' }), adherence: 100 },
      { regimen: expect.objectContaining({ name: 'Lisinopril' }), adherence: 0 },
    ]);
    expect(detail.summary).toContain('lowest Lisinopril 0 %');
  });

  it('raises inhaler, manual-dose, consent, caregiver and notifications-off alerts from the patient record', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const patient = await g.patient({ programId: program, timeZone: 'UTC' });
    await g.regimen({
      patientId: patient.id,
      programId: program,
      type: 'inhaler',
      name: 'Budesonide',
      times: ['00:00', '12:00'],
      lockoutTime: 60,
      scheduledAt: new Date(Date.now() - 5 * 86_400_000).toISOString(),
    });
    const tablets = await g.regimen({ patientId: patient.id, programId: program, repeat: 'as_needed' });
    await g.doses({
      patientId: patient.id,
      regimenId: tablets.id,
      at: [new Date(Date.now() - 3600_000).toISOString()],
    });
    await db.execute(sql`
      UPDATE patients SET consent_at = now() - interval '1 day',
        notification_settings = '{"sms": false, "email": false, "push": false, "voice": false}', updated_at = now()
      WHERE id = ${patient.id}`);
    await app.alertEngine.sweep();
    for (const type of [
      'missed_inhaler_doses',
      'low_adherence_inhaler',
      'manual_doses_notications',
      'consented_users_alerts',
      'turned_off_notifications_alerts',
    ])
      expect(await alertsOf(patient.id, type), type).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(await alertsOf(patient.id, 'missed_doses')).toEqual([]);

    // Notifications on again: that alert resolves by itself; the event-like ones stay until cleared.
    await db.execute(sql`
      UPDATE patients SET notification_settings = '{"sms": true, "email": false, "push": false, "voice": false}',
        updated_at = now() WHERE id = ${patient.id}`);
    await app.alertEngine.sweep();
    expect((await alertsOf(patient.id, 'turned_off_notifications_alerts'))[0]!.status).toBe('resolved');
    expect((await alertsOf(patient.id, 'consented_users_alerts'))[0]!.status).toBe('open');
  });

  it('escalates an alert nobody acknowledged to the role the program names', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId: program, role: 'admin' }],
    });
    const token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
    await call(token, 'PUT', routeUrl(c.saveSettings, { programId: String(program) }), {
      settings: { escalate_after_minutes: 15, escalate_to_role: 'admin' },
    });
    const { patient, cuff } = await patientWithCuff(program);
    await bp(cuff.id, 200, 120);
    await db.execute(
      sql`UPDATE alerts SET first_at = now() - interval '20 minutes' WHERE patient_id = ${patient.id}`,
    );
    const report = await app.alertEngine.sweep();
    expect(report.escalated).toBeGreaterThanOrEqual(1);
    const [a] = await alertsOf(patient.id, 'out_range_blood_pressure_alerts');
    expect(a!.status).toBe('escalated');
    const detail = (await call(token, 'GET', routeUrl(c.detail, { id: String(a!.id) }))).json().data;
    expect(detail).toMatchObject({ escalated_to_role: 'admin' });
    expect(detail.history.map((h: { action: string }) => h.action)).toEqual(['opened', 'escalated']);
  });
});

describe('the legacy alert list (01 §7)', () => {
  it('lists a program or patient alerts, ranks patients for triage, resolves a step and completes escalations', async () => {
    const g = given(db);
    const program = (await g.program()).id;
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId: program, role: 'admin' }],
    });
    const token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
    const first = await patientWithCuff(program);
    const second = await patientWithCuff(program);
    await bp(first.cuff.id, 190, 110);
    await bp(second.cuff.id, 85, 55);
    await bp(second.cuff.id, 86, 56, Date.now() + 1000);
    const p = String(program);

    const all = await call(token, 'GET', routeUrl(legacy.list, { programId: p }));
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().total).toBe(2);
    const mine = await call(
      token,
      'GET',
      routeUrl(legacy.list, { programId: p }, { user_id: String(first.patient.id) }),
    );
    expect(mine.json().data).toEqual([expect.objectContaining({ type: 'out_range_blood_pressure_alerts' })]);

    // Escalate the first patient's alert: they rank first.
    await db.execute(sql`UPDATE alerts SET status = 'escalated' WHERE patient_id = ${first.patient.id}`);
    const ranking = await call(token, 'GET', routeUrl(legacy.summary, { programId: p }));
    expect(ranking.statusCode, ranking.body).toBe(200);
    expect(ranking.json().data.map((r: { patient: { id: number } }) => r.patient.id)).toEqual([
      first.patient.id,
      second.patient.id,
    ]);
    expect(ranking.json().data[0]).toMatchObject({
      total: 1,
      escalated: 1,
      types: { out_range_blood_pressure_alerts: 1 },
    });
    const byType = await call(token, 'GET', routeUrl(legacy.summary, { programId: p }, { grouped: '0' }));
    expect(byType.json().data).toEqual(
      expect.arrayContaining([{ type: 'low_blood_pressure_alerts', count: 1 }]),
    );

    const done = await call(token, 'POST', routeUrl(legacy.markEscalationCompleted, { programId: p }), {
      users: [first.patient.id],
    });
    expect(done.json()).toEqual({ message: ALERT_MESSAGES.escalationCompleted, count: 1 });
    expect((await alertsOf(first.patient.id, 'out_range_blood_pressure_alerts'))[0]!.status).toBe('resolved');
    const foreign = await given(db).patient({ programId: otherProgram });
    const refused = await call(token, 'POST', routeUrl(legacy.markEscalationCompleted, { programId: p }), {
      users: [foreign.id],
    });
    expect(refused.statusCode).toBe(404);

    const [low] = await alertsOf(second.patient.id, 'low_blood_pressure_alerts');
    const step = await call(
      token,
      'GET',
      routeUrl(legacy.stepResolved, { programId: p, id: String(low!.id) }, { pathway: 'device' }),
    );
    expect(step.json()).toMatchObject({
      message: ALERT_MESSAGES.resolved,
      data: { status: 'resolved', resolution: 'cleared' },
    });
    const elsewhere = await call(
      coordinator,
      'GET',
      routeUrl(legacy.stepResolved, { programId: p, id: String(low!.id) }),
    );
    expect(elsewhere.statusCode).toBe(404);
    const completed = await call(
      token,
      'GET',
      routeUrl(legacy.list, { programId: p }, { include_completed: '1' }),
    );
    expect(completed.json().total).toBe(2);
    expect((await call(token, 'GET', routeUrl(legacy.list, { programId: p }))).json().total).toBe(0);

    const pathways = await call(token, 'GET', routeUrl(legacy.pathways, { programId: p }));
    expect(pathways.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          group: 'vitals',
          escalate_after_minutes: 0,
          escalate_to_role: 'physician',
        }),
      ]),
    );
  });
});
