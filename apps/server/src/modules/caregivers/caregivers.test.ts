import { caregiversContract as c, type RouteContract, routeUrl } from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
const token = { coordinator: '', pharma: '', outsider: '' };
const program = { a: 0, other: 0 };
let patient = 0;
let foreignPatient = 0;

const url = (contract: RouteContract, params?: Record<string, number>, query?: Record<string, string>) =>
  routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

beforeAll(async () => {
  let db: Parameters<typeof given>[0];
  ({ app, db } = await testApp());
  const g = given(db);
  program.a = (await g.program()).id;
  program.other = (await g.program()).id;
  patient = (await g.patient({ programId: program.a })).id;
  foreignPatient = (await g.patient({ programId: program.other })).id;
  const signed = async (programId: number, role: 'care_coordinator' | 'pharma' | 'admin') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.coordinator = await signed(program.a, 'care_coordinator');
  token.pharma = await signed(program.a, 'pharma');
  token.outsider = await signed(program.other, 'admin');
});

const maria = {
  first_name: 'Maria',
  last_name: 'Santos',
  relationship: 'child',
  phone_number: '412 555 0199',
};

describe('caregivers', () => {
  it("adds a caregiver to the program, links them to a patient and lists the patient's caregivers", async () => {
    const created = await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), maria);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Maria Santos',
      phone_number: '+14125550199',
      relationship: 'child',
    });
    const caregiver = created.json().id;
    const linked = await call(
      token.coordinator,
      'POST',
      url(c.link, { patient_id: patient, caregiver_id: caregiver }),
    );
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().data.map((x: { id: number }) => x.id)).toEqual([caregiver]);
    // Linking twice changes nothing.
    expect(
      (
        await call(token.coordinator, 'POST', url(c.link, { patient_id: patient, caregiver_id: caregiver }))
      ).json().data,
    ).toHaveLength(1);
    const list = await call(
      token.pharma,
      'GET',
      url(c.ofPatient, { programId: program.a, patientId: patient }),
    );
    expect(list.json().data).toEqual([expect.objectContaining({ id: caregiver })]);
    const found = await call(token.pharma, 'GET', url(c.list, { programId: program.a }, { search: 'san' }));
    expect(found.json().data.map((x: { id: number }) => x.id)).toContain(caregiver);
    const unlinked = await call(
      token.coordinator,
      'DELETE',
      url(c.unlink, { patient_id: patient, caregiver_id: caregiver }),
    );
    expect(unlinked.json().data).toEqual([]);
    expect(
      (
        await call(
          token.coordinator,
          'DELETE',
          url(c.unlink, { patient_id: patient, caregiver_id: caregiver }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it('needs a way to reach the caregiver (422) and keeps caregivers within their program (404)', async () => {
    const unreachable = await call(token.coordinator, 'POST', url(c.create, { programId: program.a }), {
      ...maria,
      phone_number: '',
    });
    expect(unreachable.statusCode).toBe(422);
    expect(unreachable.json().errors).toHaveProperty('phone_number');
    const theirs = await call(token.outsider, 'POST', url(c.create, { programId: program.other }), maria);
    const foreignCaregiver = theirs.json().id;
    expect(
      (
        await call(
          token.coordinator,
          'POST',
          url(c.link, { patient_id: patient, caregiver_id: foreignCaregiver }),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(
          token.coordinator,
          'POST',
          url(c.link, { patient_id: foreignPatient, caregiver_id: foreignCaregiver }),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await call(token.outsider, 'GET', url(c.ofPatient, { programId: program.a, patientId: patient })))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(token.pharma, 'POST', url(c.create, { programId: program.a }), maria)).statusCode,
    ).toBe(403);
    expect((await app.inject({ method: 'GET', url: url(c.list, { programId: program.a }) })).statusCode).toBe(
      401,
    );
  });
});
