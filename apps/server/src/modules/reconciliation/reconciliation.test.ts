import { medRecContract as c, MED_REC_MESSAGES, type RouteContract, routeUrl } from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
const token = { pharmacist: '', pharma: '', outsider: '' };
let programId = 0;
let otherProgram = 0;
let patientId = 0;

const url = (contract: RouteContract, params: Record<string, number> = {}, query?: Record<string, string>) =>
  routeUrl(contract, { patientId, ...params }, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

beforeAll(async () => {
  let db: Parameters<typeof given>[0];
  ({ app, db } = await testApp());
  const g = given(db);
  programId = (await g.program()).id;
  otherProgram = (await g.program()).id;
  patientId = (await g.patient({ programId })).id;
  const signed = async (id: number, role: 'pharmacy' | 'pharma' | 'admin') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId: id, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.pharmacist = await signed(programId, 'pharmacy');
  token.pharma = await signed(programId, 'pharma');
  token.outsider = await signed(otherProgram, 'admin');
});

describe('medication reconciliation', () => {
  it('adds, edits, edits one field, archives and restores medications, with the spec messages', async () => {
    const added = await call(token.pharmacist, 'POST', url(c.store), {
      name: 'Lisinopril',
      strength: '10 mg',
      dose: '1 tablet',
      frequency: 'once daily',
      source: 'Pill bottle',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      message: MED_REC_MESSAGES.added,
      data: { name: 'Lisinopril', archived: false },
    });
    const id = added.json().data.id;
    const updated = await call(token.pharmacist, 'POST', url(c.update, { medicationId: id }), {
      name: 'Lisinopril',
      strength: '20 mg',
    });
    expect(updated.json()).toMatchObject({ message: MED_REC_MESSAGES.updated, data: { strength: '20 mg' } });
    const one = await call(token.pharmacist, 'POST', url(c.updateInput, { medicationId: id }), {
      key: 'last_taken',
      value: '2026-11-23',
    });
    expect(one.json().data.last_taken).toBe('2026-11-23');
    const badDate = await call(token.pharmacist, 'POST', url(c.updateInput, { medicationId: id }), {
      key: 'last_taken',
      value: 'yesterday',
    });
    expect(badDate.statusCode).toBe(422);
    expect(badDate.json().errors).toHaveProperty('value');
    const badKey = await call(token.pharmacist, 'POST', url(c.updateInput, { medicationId: id }), {
      key: 'archived',
      value: 'x',
    });
    expect(badKey.statusCode).toBe(422);
    const archived = await call(token.pharmacist, 'POST', url(c.archive, { medicationId: id }));
    expect(archived.json()).toMatchObject({ message: MED_REC_MESSAGES.archived, data: { archived: true } });
    const restored = await call(token.pharmacist, 'POST', url(c.archive, { medicationId: id }));
    expect(restored.json().data.archived).toBe(false);
  });

  it('records how the list was reconciled, and lists it for the current program only', async () => {
    const method = await call(token.pharmacist, 'POST', url(c.updateMethod), { value: 'pill_bottle_review' });
    expect(method.statusCode, method.body).toBe(200);
    expect(method.json()).toMatchObject({ method: 'pill_bottle_review' });
    expect(method.json().reconciled_at).toBeTruthy();
    const list = await call(token.pharma, 'GET', url(c.list, {}, { program_id: String(programId) }));
    expect(list.statusCode).toBe(200);
    expect(list.json().method).toBe('pill_bottle_review');
    expect(
      (await call(token.pharma, 'GET', url(c.list, {}, { program_id: String(otherProgram) }))).statusCode,
    ).toBe(404);
  });

  it('keeps the list to the patient program: 404 outside it, 403 to read-only roles, 422 without a name', async () => {
    expect((await call(token.outsider, 'GET', url(c.list))).statusCode).toBe(404);
    expect((await call(token.outsider, 'POST', url(c.store), { name: 'X' })).statusCode).toBe(404);
    expect((await call(token.pharma, 'POST', url(c.store), { name: 'X' })).statusCode).toBe(403);
    const noName = await call(token.pharmacist, 'POST', url(c.store), { name: ' ' });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().errors).toHaveProperty('name');
    expect(
      (await call(token.pharmacist, 'POST', url(c.archive, { medicationId: 99999999 }))).statusCode,
    ).toBe(404);
  });
});
