import { ALERT_TYPES, rulesContract as c, RULE_MESSAGES, routeUrl } from '@caredeck/contracts';
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
let outsider = '';
let hot = 0;
let seq = 1;

const send = (as: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(as) });

async function patientWithWeight(weights: number[]) {
  const g = given(db);
  const patient = await g.patient({ programId });
  const scale = await g.device({ programId, patientId: patient.id, kind: 'scale' });
  for (const [i, w] of weights.entries())
    await app.deviceGateway.ingestor.submitAsync({
      deviceId: scale.id,
      seq: seq++,
      type: 'measurement',
      at: Date.now() - (weights.length - i) * 3600_000,
      payload: { m: [{ type: 'weight', value: w, unit: 'kg' }] },
    });
  return patient.id;
}

const weightRule = {
  name: 'Weight gain',
  observable: 'weight',
  criterion: { comparison: '>=', value: 95, aggregation: 'average', window_minutes: 24 * 60 },
  outcome: { type: 'raise_alert', alert_type: 'out_range_pulse_ox_alerts', notify_role: 'physician' },
};

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  programId = (await g.program()).id;
  const other = (await g.program()).id;
  const a = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'admin' }] });
  const co = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'care_coordinator' }] });
  const o = await g.admin({ hipaaConsented: true, programRoles: [{ programId: other, role: 'admin' }] });
  admin = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  coordinator = (await signIn(app, co.email, FACTORY_PASSWORD)).token;
  outsider = (await signIn(app, o.email, FACTORY_PASSWORD)).token;
  hot = await patientWithWeight([96, 98, 97]);
  await patientWithWeight([80, 81]);
});

describe('rules', () => {
  it('offers its catalogues', async () => {
    const observables = (await send(coordinator, 'GET', c.observables.path)).json().data;
    expect(observables.map((o: { key: string }) => o.key)).toEqual(
      expect.arrayContaining(['systolic', 'adherence', 'days_without_reading']),
    );
    expect((await send(coordinator, 'GET', c.criterion.path)).json().data.comparisons).toContain('>=');
    expect((await send(coordinator, 'GET', c.outcomes.path)).json().data[0].alert_types).toEqual([
      ...ALERT_TYPES,
    ]);
  });

  it('shows in a dry run who a rule would hit, before it is saved', async () => {
    const res = await send(admin, 'POST', c.dryRun.path, { program_id: programId, ...weightRule });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      total: 1,
      evaluated: 2,
      hits: [{ patient: { id: hot }, value: 97 }],
    });
    expect(
      (await send(outsider, 'POST', c.dryRun.path, { program_id: programId, ...weightRule })).statusCode,
    ).toBe(404);
  });

  it('creates, versions, switches on, evaluates and deletes a rule; its alert explains the rule', async () => {
    const created = await send(admin, 'POST', c.create.path, { program_id: programId, ...weightRule });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      message: RULE_MESSAGES.created,
      data: { version: 1, active: false },
    });
    const id = created.json().data.id as number;

    // Inactive: a sweep raises nothing.
    await app.alertEngine.sweep();
    const none = await db.execute(sql`SELECT id FROM alerts WHERE condition_key = ${`rule:${id}`}`);
    expect(none.rows).toEqual([]);

    const on = await send(admin, 'PUT', routeUrl(c.update, { id: String(id) }), {
      ...weightRule,
      active: true,
    });
    expect(on.json()).toMatchObject({ message: RULE_MESSAGES.updated, data: { version: 2, active: true } });
    await app.alertEngine.sweep();
    const raised = await db.execute<{
      patient_id: number;
      reason: { rule: { id: number; version: number } };
      summary: string;
    }>(
      sql`SELECT patient_id, reason, summary FROM alerts WHERE condition_key = ${`rule:${id}`} AND status <> 'resolved'`,
    );
    expect(raised.rows.map((r) => r.patient_id)).toEqual([hot]);
    expect(raised.rows[0]!.reason.rule).toEqual({ id, name: 'Weight gain', version: 2 });
    expect(raised.rows[0]!.summary).toBe('Weight gain: weight 97 >= 95');

    // The threshold moves above the patient's average: the alert resolves on the next sweep. A change
    // without `active` keeps the rule on.
    const moved = await send(admin, 'PUT', routeUrl(c.update, { id: String(id) }), {
      ...weightRule,
      criterion: { ...weightRule.criterion, value: 99 },
    });
    expect(moved.json().data).toMatchObject({ version: 3, active: true });
    await app.alertEngine.sweep();
    const after = await db.execute<{ status: string }>(
      sql`SELECT status FROM alerts WHERE condition_key = ${`rule:${id}`}`,
    );
    expect(after.rows.map((r) => r.status)).toEqual(['resolved']);

    const listed = await send(coordinator, 'GET', routeUrl(c.list, undefined, { rule_ids: String(id) }));
    expect(listed.json().data).toEqual([expect.objectContaining({ id, version: 3 })]);
    const versions = await db.execute(
      sql`SELECT version FROM rule_versions WHERE rule_id = ${id} ORDER BY version`,
    );
    expect(versions.rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);

    expect((await send(coordinator, 'DELETE', routeUrl(c.remove, { id: String(id) }))).statusCode).toBe(403);
    expect((await send(outsider, 'DELETE', routeUrl(c.remove, { id: String(id) }))).statusCode).toBe(404);
    const removed = await send(admin, 'DELETE', routeUrl(c.remove, { id: String(id) }));
    expect(removed.json()).toEqual({ message: RULE_MESSAGES.deleted });
    expect((await send(admin, 'DELETE', routeUrl(c.remove, { id: String(id) }))).statusCode).toBe(404);
    // Its alert stays, with its history.
    const kept = await db.execute(sql`SELECT id FROM alerts WHERE condition_key = ${`rule:${id}`}`);
    expect(kept.rows).toHaveLength(1);
  });

  it('texts the patient once when its alert opens, never an opted-out number', async () => {
    const g = given(db);
    const texted = await g.patient({ programId, phoneNumber: '+15550101010' });
    const optedOut = await g.patient({ programId, phoneNumber: '+15550101011' });
    await db.execute(sql`INSERT INTO sms_opt_outs (phone) VALUES ('+15550101011')`);
    for (const id of [texted.id, optedOut.id]) {
      const scale = await g.device({ programId, patientId: id, kind: 'scale' });
      await app.deviceGateway.ingestor.submitAsync({
        deviceId: scale.id,
        seq: seq++,
        type: 'measurement',
        at: Date.now() - 3600_000,
        payload: { m: [{ type: 'weight', value: 120, unit: 'kg' }] },
      });
    }
    const created = await send(admin, 'POST', c.create.path, {
      program_id: programId,
      ...weightRule,
      name: 'Heavy',
      criterion: { ...weightRule.criterion, value: 110 },
      outcome: { ...weightRule.outcome, sms_text: 'Hello {first_name}, please call the clinic today.' },
      active: true,
    });
    expect(created.json().data.outcome.sms_text).toBe('Hello {first_name}, please call the clinic today.');
    await app.alertEngine.sweep();
    await app.alertEngine.sweep();
    const sms = await db.execute<{ patient_id: number; body: string; status: string; kind: string }>(sql`
      SELECT s.patient_id, s.body, s.status, s.kind FROM sms_messages s
      WHERE s.patient_id IN (${texted.id}, ${optedOut.id}) ORDER BY s.patient_id`);
    const first = (
      await db.execute<{ first_name: string }>(sql`SELECT first_name FROM patients WHERE id = ${texted.id}`)
    ).rows[0]!.first_name;
    expect(sms.rows).toEqual([
      {
        patient_id: texted.id,
        body: `Hello ${first}, please call the clinic today.`,
        status: 'queued',
        kind: 'rule',
      },
      { patient_id: optedOut.id, body: expect.any(String), status: 'blocked', kind: 'rule' },
    ]);
    const id = created.json().data.id as number;
    await send(admin, 'DELETE', routeUrl(c.remove, { id: String(id) }));
  });

  it('refuses bad rules with 422, other programs with 404 and coordinators with 403', async () => {
    const bad = await send(admin, 'POST', c.create.path, {
      program_id: programId,
      ...weightRule,
      observable: 'mood',
      criterion: { comparison: '~', value: 'x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['observable', 'criterion.comparison', 'criterion.value']),
    );
    const aggregated = await send(admin, 'POST', c.create.path, {
      program_id: programId,
      ...weightRule,
      observable: 'adherence',
      criterion: { comparison: '<', value: 80, aggregation: 'average', window_minutes: 7 * 1440 },
    });
    expect(aggregated.json().errors['criterion.aggregation']).toEqual([
      RULE_MESSAGES.aggregationNotForObservable,
    ]);
    expect(
      (await send(outsider, 'POST', c.create.path, { program_id: programId, ...weightRule })).statusCode,
    ).toBe(404);
    expect(
      (await send(coordinator, 'POST', c.create.path, { program_id: programId, ...weightRule })).statusCode,
    ).toBe(403);
    expect(
      (await send(outsider, 'GET', routeUrl(c.list, undefined, { program_id: String(programId) })))
        .statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'GET', url: c.list.path })).statusCode).toBe(401);
  });
});
