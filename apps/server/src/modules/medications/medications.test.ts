import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  medicationsContract as c,
  MEDICATION_MESSAGES,
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
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const token = { coordinator: '', pharma: '', outsider: '' };
let programId = 0;
let patientId = 0;
let otherPatient = 0;

const url = (
  contract: RouteContract,
  params: Record<string, number | string>,
  query?: Record<string, string>,
) => routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  programId = (await g.program()).id;
  const other = (await g.program()).id;
  patientId = (await g.patient({ programId })).id;
  otherPatient = (await g.patient({ programId: other })).id;
  const signed = async (id: number, role: 'care_coordinator' | 'pharma' | 'admin') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId: id, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.coordinator = await signed(programId, 'care_coordinator');
  token.pharma = await signed(programId, 'pharma');
  token.outsider = await signed(other, 'admin');
});

const p = () => ({ programId, id: patientId });
const lisinopril = {
  name: 'Lisinopril 10 mg',
  repeat: 'daily',
  time: ['20:00', '08:00'],
  num: 1,
  lockout_time: 120,
  unlock_before: 30,
  scheduled_at: '2026-11-01T00:00:00Z',
  end_at: '2027-05-01T00:00:00Z',
};

async function orderAndRegimen() {
  const order = await call(token.coordinator, 'POST', url(c.createOrder, p()), {
    drug_name: 'Lisinopril',
    strength: '10 mg',
    route: 'oral',
    form: 'tablet',
    quantity: 90,
    refills: 3,
  });
  expect(order.statusCode, order.body).toBe(201);
  const regimen = await call(
    token.coordinator,
    'POST',
    url(c.createRegimen, { ...p(), orderId: order.json().id }),
    lisinopril,
  );
  expect(regimen.statusCode, regimen.body).toBe(201);
  return { order: order.json(), regimen: regimen.json() };
}

describe('orders and regimens', () => {
  it('orders a medication, schedules a regimen under it, lists and completes it', async () => {
    const { order, regimen } = await orderAndRegimen();
    expect(order).toMatchObject({ drug_name: 'Lisinopril', strength: '10 mg', status: 'open' });
    expect(regimen).toMatchObject({
      name: 'Lisinopril 10 mg',
      time: ['08:00', '20:00'],
      status: 'active',
      pods: [],
    });
    const list = await call(token.pharma, 'GET', url(c.regimens, p()));
    expect(list.json().data.map((r: { id: number }) => r.id)).toContain(regimen.id);
    const done = await call(
      token.coordinator,
      'PUT',
      url(c.completeRegimen, { ...p(), regimenId: regimen.id }),
    );
    expect(done.json()).toMatchObject({ status: 'completed' });
    expect(done.json().completed_at).toBeTruthy();
    const missing = await call(
      token.coordinator,
      'PUT',
      url(c.completeRegimen, { ...p(), regimenId: 99999999 }),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(MEDICATION_MESSAGES.regimenNotFound);
  });

  it('rejects schedules that cannot be kept, field by field', async () => {
    const { order } = await orderAndRegimen();
    const target = url(c.createRegimen, { ...p(), orderId: order.id });
    const bad = await call(token.coordinator, 'POST', target, {
      ...lisinopril,
      time: ['08:00', '08:00', '09:00'],
      lockout_time: 180,
      end_at: '2026-10-01T00:00:00Z',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      end_at: [MEDICATION_MESSAGES.endBeforeStart],
      time: [MEDICATION_MESSAGES.timesUnique],
      lockout_time: [MEDICATION_MESSAGES.lockoutTooLong],
    });
    const noTimes = await call(token.coordinator, 'POST', target, { ...lisinopril, time: [] });
    expect(noTimes.json().errors.time).toEqual([MEDICATION_MESSAGES.timesRequired]);
    const badTime = await call(token.coordinator, 'POST', target, { ...lisinopril, time: ['25:00'] });
    expect(badTime.statusCode).toBe(422);
  });

  it('answers 409 for a device-order regimen on a device that already runs one, and creates inhaler regimens', async () => {
    const { order } = await orderAndRegimen();
    const device = { ...lisinopril, type: 'medesto-device', device_serial: `MD-${Date.now()}` };
    const target = url(c.createRegimen, { ...p(), orderId: order.id });
    expect((await call(token.coordinator, 'POST', target, device)).statusCode).toBe(201);
    const busy = await call(token.coordinator, 'POST', target, device);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(MEDICATION_MESSAGES.deviceBusy);
    const inhaler = await call(
      token.coordinator,
      'POST',
      url(c.inhalerRegimen, { programId, userId: patientId }),
      {
        name: 'Albuterol HFA, 2 puffs',
        repeat: 'as_needed',
        num: 2,
        scheduled_at: '2026-11-01T00:00:00Z',
        device_serial: 'INH-0042',
      },
    );
    expect(inhaler.statusCode, inhaler.body).toBe(201);
    expect(inhaler.json()).toMatchObject({ type: 'inhaler', device_serial: 'INH-0042', order_id: null });
    const noSerial = await call(
      token.coordinator,
      'POST',
      url(c.inhalerRegimen, { programId, userId: patientId }),
      {
        name: 'X',
        repeat: 'as_needed',
        scheduled_at: '2026-11-01T00:00:00Z',
      },
    );
    expect(noSerial.statusCode).toBe(422);
  });

  it("takes a registered device only if it is the patient's, of the program and of the regimen's kind", async () => {
    const g = given(db);
    const elsewhere = (await g.program()).id;
    const neighbour = (await g.patient({ programId })).id;
    const own = await g.device({ programId, patientId, kind: 'inhaler' });
    const stock = await g.device({ programId, kind: 'inhaler' });
    const dispenser = await g.device({ programId, patientId, kind: 'dispenser', dispenserType: 1 });
    const theirs = await g.device({ programId, patientId: neighbour, kind: 'inhaler' });
    const foreign = await g.device({ programId: elsewhere, kind: 'inhaler' });
    const inhaler = (serial: string) =>
      call(token.coordinator, 'POST', url(c.inhalerRegimen, { programId, userId: patientId }), {
        name: 'Budesonide/formoterol, 2 puffs',
        repeat: 'daily',
        time: ['08:00'],
        num: 2,
        scheduled_at: '2026-11-01T00:00:00Z',
        device_serial: serial,
      });
    expect((await inhaler(own.serial)).statusCode).toBe(201);
    expect((await inhaler(stock.serial)).statusCode).toBe(201);
    for (const [serial, message] of [
      [dispenser.serial, MEDICATION_MESSAGES.notAnInhaler],
      [theirs.serial, MEDICATION_MESSAGES.deviceElsewhere],
      [foreign.serial, MEDICATION_MESSAGES.deviceElsewhere],
    ] as const) {
      const refused = await inhaler(serial);
      expect(refused.statusCode, serial).toBe(422);
      expect(refused.json().errors).toEqual({ device_serial: [message] });
    }
    // A device order on an inhaler is refused too, and so is moving a regimen to another patient's device.
    const { order, regimen } = await orderAndRegimen();
    const onInhaler = await call(
      token.coordinator,
      'POST',
      url(c.createRegimen, { ...p(), orderId: order.id }),
      {
        ...lisinopril,
        type: 'medesto-device',
        device_serial: own.serial,
      },
    );
    expect(onInhaler.json().errors).toEqual({ device_serial: [MEDICATION_MESSAGES.notADispenser] });
    const moved = await call(token.coordinator, 'PUT', url(c.updateRegimen, { regimenId: regimen.id }), {
      device_serial: theirs.serial,
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors).toEqual({ device_serial: [MEDICATION_MESSAGES.deviceElsewhere] });
  });

  it('gives a busy dispenser to one of two device orders sent at once', async () => {
    const { order } = await orderAndRegimen();
    const device = { ...lisinopril, type: 'medesto-device', device_serial: `MD-race-${Date.now()}` };
    const target = url(c.createRegimen, { ...p(), orderId: order.id });
    const answers = await Promise.all([
      call(token.coordinator, 'POST', target, device),
      call(token.coordinator, 'POST', target, device),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it('changes a regimen through regimens/{r}, checking the whole schedule, and 404s it outside the program', async () => {
    const { regimen } = await orderAndRegimen();
    const target = url(c.updateRegimen, { regimenId: regimen.id });
    const changed = await call(token.coordinator, 'PUT', target, {
      time: ['07:30', '19:30'],
      name: 'Lisinopril 20 mg',
    });
    expect(changed.json()).toMatchObject({ time: ['07:30', '19:30'], name: 'Lisinopril 20 mg' });
    // A change names only what changes: the schedule stays as it was.
    const renamed = await call(token.coordinator, 'PUT', target, { name: 'Lisinopril 20 mg tablet' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Lisinopril 20 mg tablet',
      time: ['07:30', '19:30'],
      lockout_time: 120,
      unlock_before: 30,
      repeat: 'daily',
    });
    const impossible = await call(token.coordinator, 'PUT', target, { end_at: '2020-01-01T00:00:00Z' });
    expect(impossible.statusCode).toBe(422);
    expect((await call(token.outsider, 'PUT', target, { name: 'X' })).json().message).toBe(
      MEDICATION_MESSAGES.regimenNotFound,
    );
    expect((await call(token.pharma, 'PUT', target, { name: 'X' })).statusCode).toBe(403);
  });
});

describe('pods and labels', () => {
  it('creates pods with unique check-digit barcodes, previews the next codes, links pods to another regimen', async () => {
    const { regimen } = await orderAndRegimen();
    const { regimen: second } = await orderAndRegimen();
    const preview = await call(
      token.coordinator,
      'POST',
      url(c.podCodes, { programId, userId: patientId, regimenId: regimen.id }),
      {
        prefix: 'cd',
        original_servings: 28,
        servings_remaining: 28,
        num: 2,
      },
    );
    expect(preview.json().codes).toHaveLength(2);
    const created = await call(
      token.coordinator,
      'POST',
      url(c.createPods, { ...p(), regimenId: regimen.id }),
      {
        prefix: 'cd',
        original_servings: 28,
        servings_remaining: 28,
        num: 3,
      },
    );
    expect(created.statusCode, created.body).toBe(201);
    const pods = created.json().data;
    expect(pods.map((x: { num: number }) => x.num)).toEqual([1, 2, 3]);
    expect(pods[0].barcode).toBe(preview.json().codes[0]);
    for (const pod of pods) expect(pod.barcode).toMatch(/^CD\d{9}$/);
    expect(new Set(pods.map((x: { barcode: string }) => x.barcode)).size).toBe(3);
    const linked = await call(token.coordinator, 'POST', url(c.linkPods, { programId, userId: patientId }), {
      prefix: 'MP',
      original_servings: 14,
      servings_remaining: 14,
      num: 1,
      regimen: regimen.id,
      linked_regimen: second.id,
    });
    expect(linked.json()).toMatchObject({
      message: MEDICATION_MESSAGES.podsLinked,
      data: [{ linked_regimen_id: second.id, num: 4 }],
    });
    // A regimen is not shared with itself.
    const self = await call(token.coordinator, 'POST', url(c.linkPods, { programId, userId: patientId }), {
      prefix: 'MP',
      original_servings: 14,
      servings_remaining: 14,
      num: 1,
      regimen: regimen.id,
      linked_regimen: regimen.id,
    });
    expect(self.statusCode).toBe(422);
    expect(Object.keys(self.json().errors)).toEqual(['linked_regimen']);
    const tooMany = await call(
      token.coordinator,
      'POST',
      url(c.createPods, { ...p(), regimenId: regimen.id }),
      {
        prefix: 'CD',
        original_servings: 10,
        servings_remaining: 11,
      },
    );
    expect(tooMany.json().errors.servings_remaining).toEqual([MEDICATION_MESSAGES.servings]);
  });

  it('prints barcode labels as a real PDF whose barcodes scan back to the pod codes', async () => {
    const { regimen } = await orderAndRegimen();
    const created = await call(
      token.coordinator,
      'POST',
      url(c.createPods, { ...p(), regimenId: regimen.id }),
      {
        prefix: 'LBL',
        original_servings: 30,
        servings_remaining: 30,
        num: 4,
      },
    );
    const codes: string[] = created.json().data.map((x: { barcode: string }) => x.barcode);
    const many = await call(
      token.pharma,
      'GET',
      url(c.labels, { programId, userId: patientId }, { barcodes: codes.join(',') }),
    );
    expect(many.statusCode).toBe(200);
    expect(many.headers['content-type']).toContain('application/pdf');
    expect(many.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const one = await call(
      token.pharma,
      'GET',
      url(c.podLabel, {
        programId,
        userId: patientId,
        regimenId: regimen.id,
        podId: created.json().data[0].id,
        barcode: codes[0]!,
      }),
    );
    expect(one.statusCode).toBe(200);
    // Render the sheet and read every barcode back with a real barcode reader (poppler + zbar).
    const dir = mkdtempSync(path.join(tmpdir(), 'labels-'));
    writeFileSync(path.join(dir, 'labels.pdf'), many.rawPayload);
    execFileSync('pdftoppm', ['-r', '300', '-png', path.join(dir, 'labels.pdf'), path.join(dir, 'page')]);
    const pages = readdirSync(dir).filter((f) => f.endsWith('.png'));
    const decoded = pages.flatMap((page) =>
      execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', path.join(dir, page)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .split('\n')
        .filter(Boolean),
    );
    expect(decoded.sort()).toEqual([...codes].sort());
    // Someone else's barcodes print nothing.
    const foreign = await call(
      token.outsider,
      'GET',
      url(c.labels, { programId, userId: patientId }, { barcodes: codes[0]! }),
    );
    expect(foreign.statusCode).toBe(404);
    const unknown = await call(
      token.pharma,
      'GET',
      url(c.labels, { programId, userId: patientId }, { barcodes: 'NOPE123' }),
    );
    expect(unknown.statusCode).toBe(404);
  });
});

describe('doses, scripts, disease states and the plan', () => {
  it('records a dose by hand (servings leave the pod) and deletes it (they come back)', async () => {
    const { regimen } = await orderAndRegimen();
    const pods = await call(token.coordinator, 'POST', url(c.createPods, { ...p(), regimenId: regimen.id }), {
      prefix: 'US',
      original_servings: 10,
      servings_remaining: 10,
    });
    const pod = pods.json().data[0];
    const dose = await call(token.coordinator, 'POST', url(c.recordUsage, p()), {
      regimen_id: regimen.id,
      pod_id: pod.id,
      taken_at: '2026-11-20T08:05:00Z',
      servings: 2,
    });
    expect(dose.statusCode, dose.body).toBe(201);
    expect(dose.json()).toMatchObject({ servings: 2, kind: 'taken', source: 'manual', pod_id: pod.id });
    const remaining = async () =>
      (await db.execute<{ n: number }>(sql`SELECT servings_remaining AS n FROM pods WHERE id = ${pod.id}`))
        .rows[0]!.n;
    expect(await remaining()).toBe(8);
    const overdraw = await call(token.coordinator, 'POST', url(c.recordUsage, p()), {
      regimen_id: regimen.id,
      pod_id: pod.id,
      taken_at: '2026-11-20T20:05:00Z',
      servings: 9,
    });
    expect(overdraw.statusCode).toBe(422);
    expect(await remaining()).toBe(8);
    expect(
      (await call(token.coordinator, 'DELETE', url(c.deleteUsage, { ...p(), usageId: dose.json().id })))
        .statusCode,
    ).toBe(204);
    expect(await remaining()).toBe(10);
    expect(
      (await call(token.coordinator, 'DELETE', url(c.deleteUsage, { ...p(), usageId: dose.json().id })))
        .statusCode,
    ).toBe(404);
  });

  it('keeps scripts and disease states, and answers the whole plan in one call', async () => {
    const { regimen } = await orderAndRegimen();
    const scripts = await call(token.coordinator, 'PUT', url(c.scripts, p()), {
      scripts: [
        {
          drug_name: 'Lisinopril 10 mg tablet',
          sig: 'Take one tablet twice daily',
          quantity: 60,
          refills: 5,
          written_at: '2026-11-01',
        },
      ],
    });
    expect(scripts.statusCode, scripts.body).toBe(200);
    const script = scripts.json().data.at(-1);
    // A change of one field (by id) keeps the others; null empties one.
    const refilled = await call(token.coordinator, 'PUT', url(c.scripts, p()), {
      scripts: [{ id: script.id, drug_name: 'Lisinopril 10 mg tablet', refills: 4, written_at: null }],
    });
    expect(refilled.json().data.find((x: { id: number }) => x.id === script.id)).toMatchObject({
      sig: 'Take one tablet twice daily',
      quantity: 60,
      refills: 4,
      written_at: null,
    });
    const added = await call(
      token.coordinator,
      'POST',
      url(c.addDiseaseState, p(), { regimen_id: String(regimen.id), script_id: String(script.id) }),
      {
        conditions: [{ code: 'I10', description: 'Essential (primary) hypertension' }],
      },
    );
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ regimen_ids: [regimen.id], script_id: script.id, ended_at: null });
    const badCode = await call(token.coordinator, 'POST', url(c.addDiseaseState, p()), {
      conditions: [{ code: 'hypertension', description: 'x' }],
    });
    expect(badCode.statusCode).toBe(422);
    const ended = await call(token.coordinator, 'PUT', url(c.endDiseaseState, p()), {
      disease_state_id: added.json().id,
    });
    expect(ended.json().ended_at).toBeTruthy();
    const plan = await call(token.pharma, 'GET', url(c.plan, p()));
    expect(plan.statusCode).toBe(200);
    expect(plan.json().disease_states.map((d: { id: number }) => d.id)).toContain(added.json().id);
    expect(plan.json().scripts.map((s: { id: number }) => s.id)).toContain(script.id);
    expect(
      (
        await call(token.coordinator, 'PUT', url(c.deleteDiseaseState, p()), {
          disease_state_id: added.json().id,
        })
      ).statusCode,
    ).toBe(204);
    const after = await call(token.pharma, 'GET', url(c.plan, p()));
    expect(after.json().disease_states.map((d: { id: number }) => d.id)).not.toContain(added.json().id);
  });

  it("answers 404 for another program's patient on every path, and 401 signed out", async () => {
    const foreign = { programId, id: otherPatient };
    expect((await call(token.coordinator, 'GET', url(c.plan, foreign))).statusCode).toBe(404);
    expect(
      (await call(token.coordinator, 'POST', url(c.createOrder, foreign), { drug_name: 'X' })).statusCode,
    ).toBe(404);
    expect((await call(token.outsider, 'GET', url(c.plan, p()))).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: url(c.plan, p()) })).statusCode).toBe(401);
    expect((await call(token.pharma, 'POST', url(c.createOrder, p()), { drug_name: 'X' })).statusCode).toBe(
      403,
    );
  });
});
