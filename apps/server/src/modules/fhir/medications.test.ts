import { beforeAll, describe, expect, it } from 'vitest';
import { entries, fhirFixture } from './fhir.fixture';

let f: Awaited<ReturnType<typeof fhirFixture>>;

beforeAll(async () => {
  f = await fhirFixture();
});

const search = async (who: 'reader' | 'entAdmin' | 'outsider', query: string) => {
  const res = await f.get(who, `/fhir/R4/${query}`);
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return entries(res.json());
};

describe('MedicationRequest (regimens)', () => {
  it('serves a regimen as an order with its schedule as the dosage timing', async () => {
    const res = await f.get('reader', `/fhir/R4/MedicationRequest/${f.ids.regimenA}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      resourceType: 'MedicationRequest',
      id: String(f.ids.regimenA),
      status: 'active',
      intent: 'order',
      medicationCodeableConcept: { text: 'Lisinopril 10 mg' },
      subject: { reference: `Patient/${f.ids.patientA}` },
      requester: { reference: `Practitioner/${f.ids.reader}` },
      dosageInstruction: [
        {
          timing: {
            repeat: {
              boundsPeriod: { start: '2026-02-01T00:00:00.000Z', end: '2026-06-01T00:00:00.000Z' },
              frequency: 2,
              period: 1,
              periodUnit: 'd',
              timeOfDay: ['08:00:00', '20:00:00'],
            },
          },
          asNeededBoolean: false,
        },
      ],
    });
    const asNeeded = await f.get('reader', `/fhir/R4/MedicationRequest/${f.ids.asNeededA}`);
    expect(asNeeded.json().dosageInstruction[0].asNeededBoolean).toBe(true);
    expect(asNeeded.json().dosageInstruction[0].timing.repeat).not.toHaveProperty('frequency');
  });

  it('searches by patient and _id within the programs the reader may see', async () => {
    expect((await search('reader', `MedicationRequest?patient=${f.ids.patientA}`)).map((r) => r.id)).toEqual([
      String(f.ids.regimenA),
      String(f.ids.asNeededA),
    ]);
    expect(await search('reader', `MedicationRequest?patient=${f.ids.patientB}`)).toEqual([]);
    expect(await search('reader', `MedicationRequest?_id=${f.ids.regimenB}`)).toEqual([]);
    expect((await f.get('reader', `/fhir/R4/MedicationRequest/${f.ids.regimenB}`)).statusCode).toBe(404);
    expect((await search('entAdmin', `MedicationRequest?_id=${f.ids.regimenB}`)).length).toBe(1);
    expect((await f.get('reader', '/fhir/R4/MedicationRequest')).statusCode).toBe(400);
  });
});

describe('MedicationAdministration (dose events)', () => {
  it('serves taken doses as completed and skipped ones as not-done, each with its regimen', async () => {
    const doses = await search('reader', `MedicationAdministration?patient=${f.ids.patientA}`);
    expect(doses.map((d) => [d.id, d.status, d.effectiveDateTime])).toEqual([
      [String(f.ids.dosesA[0]), 'completed', '2026-03-01T08:05:00.000Z'],
      [String(f.ids.dosesA[1]), 'completed', '2026-03-01T20:03:00.000Z'],
      [String(f.ids.dosesA[2]), 'not-done', '2026-03-02T08:01:00.000Z'],
    ]);
    expect(doses[2]).toMatchObject({
      statusReason: [{ text: 'Skipped' }],
      medicationCodeableConcept: { text: 'Lisinopril 10 mg' },
      subject: { reference: `Patient/${f.ids.patientA}` },
      request: { reference: `MedicationRequest/${f.ids.regimenA}` },
      dosage: { dose: { value: 1 } },
    });
  });

  it('filters by effective-time, pages by keyset and keeps other programs out', async () => {
    const q = (params: string) =>
      search('reader', `MedicationAdministration?patient=${f.ids.patientA}&${params}`);
    expect((await q('effective-time=2026-03-01')).length).toBe(2);
    expect((await q('effective-time=gt2026-03-01')).map((d) => d.status)).toEqual(['not-done']);
    const first = await f.get(
      'reader',
      `/fhir/R4/MedicationAdministration?patient=${f.ids.patientA}&_count=2`,
    );
    const next = new URL(first.json().link.find((l: { relation: string }) => l.relation === 'next').url);
    const rest = entries((await f.get('reader', next.pathname + next.search)).json());
    expect(rest.map((d) => d.id)).toEqual([String(f.ids.dosesA[2])]);
    expect(await search('reader', `MedicationAdministration?patient=${f.ids.patientB}`)).toEqual([]);
    expect((await f.get('reader', `/fhir/R4/MedicationAdministration/${f.ids.dosesB[0]}`)).statusCode).toBe(
      404,
    );
    expect((await search('entAdmin', `MedicationAdministration?patient=${f.ids.patientB}`)).length).toBe(1);
  });
});
