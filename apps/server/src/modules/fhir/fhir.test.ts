import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { entries, fhirFixture } from './fhir.fixture';

let f: Awaited<ReturnType<typeof fhirFixture>>;

beforeAll(async () => {
  f = await fhirFixture();
});

const outcomeText = (body: { issue: { details: { text: string } }[] }) =>
  body.issue.map((i) => i.details.text);

describe('FHIR R4: the CapabilityStatement and the answers of /fhir', () => {
  it('publishes what it serves at /fhir/R4/metadata, without a session, as application/fhir+json', async () => {
    const res = await f.get(null, '/fhir/R4/metadata');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const body = res.json();
    expect(body).toMatchObject({
      resourceType: 'CapabilityStatement',
      fhirVersion: '4.0.1',
      format: ['json'],
    });
    expect(body.rest[0].security.extension[0].extension).toEqual([
      { url: 'token', valueUri: 'http://localhost:80/fhir/auth/token' },
    ]);
    const resources = body.rest[0].resource as {
      type: string;
      interaction: unknown;
      searchParam: { name: string }[];
    }[];
    expect(resources.map((r) => r.type)).toEqual([
      'Patient',
      'Observation',
      'Device',
      'Organization',
      'Practitioner',
      'MedicationRequest',
      'MedicationAdministration',
      'Group',
    ]);
    expect(resources.at(-1)).toEqual({
      type: 'Group',
      operation: [
        expect.objectContaining({
          name: 'export',
          definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export',
        }),
      ],
    });
    const params = Object.fromEntries(
      resources.map((r) => [r.type, (r.searchParam ?? []).map((p) => p.name)]),
    );
    expect(params.Patient).toEqual(['_id', 'identifier', '_lastUpdated', '_count']);
    expect(params.Observation).toEqual([
      '_id',
      'patient',
      'code',
      'category',
      'date',
      '_lastUpdated',
      '_count',
    ]);
    expect(params.Device).toEqual(['_id', 'patient', 'identifier', '_count']);
    for (const r of resources.slice(0, -1))
      expect(r.interaction).toEqual([{ code: 'read' }, { code: 'search-type' }]);
  });

  it('answers 401 without a session, as an OperationOutcome, on every read and search', async () => {
    for (const url of [
      '/fhir/R4/Patient',
      `/fhir/R4/Patient/${f.ids.patientA}`,
      '/fhir/R4/Observation?patient=1',
      '/fhir/R4/Device/1',
      '/fhir/R4/Organization',
      '/fhir/R4/Practitioner/1',
    ]) {
      const res = await f.get(null, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['content-type'], url).toBe('application/fhir+json; charset=utf-8');
      expect(res.json(), url).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'login' }],
      });
    }
  });

  it('answers unknown FHIR paths with a 404 OperationOutcome, and leaves /api answers as they were', async () => {
    const fhir = await f.get('reader', '/fhir/R4/Encounter');
    expect(fhir.statusCode).toBe(404);
    expect(fhir.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] });
    const api = await f.get('reader', '/api/v1/no-such-route');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found.' });
    const unauthenticated = await f.get(null, '/api/v1/user');
    expect(unauthenticated.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('never lets a cache keep an answer', async () => {
    const res = await f.get('reader', `/fhir/R4/Patient/${f.ids.patientA}`);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('Patient', () => {
  it('maps the patient record to US Core Patient', async () => {
    const res = await f.get('reader', `/fhir/R4/Patient/${f.ids.patientA}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      resourceType: 'Patient',
      id: String(f.ids.patientA),
      meta: { profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] },
      identifier: [
        {
          type: { coding: [{ code: 'MR' }] },
          system: `urn:caredeck:program:${f.ids.programA}:mrn`,
          value: 'MRN-1042',
        },
        { system: 'urn:caredeck:patient', value: String(f.ids.patientA) },
      ],
      active: true,
      name: [{ use: 'official', family: 'Lopez', given: ['Maria', 'J'] }],
      telecom: [
        { system: 'phone', value: '+15550101' },
        { system: 'email', value: 'maria@example.test' },
      ],
      gender: 'female',
      birthDate: '1956-04-12',
      address: [{ use: 'home', line: ['1 Main St'], city: 'Springfield', state: 'IL', postalCode: '62701' }],
      managingOrganization: { reference: `Organization/program-${f.ids.programA}` },
      generalPractitioner: [{ reference: `Practitioner/${f.ids.reader}` }],
      extension: [
        {
          url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
          extension: [{ url: 'text', valueString: 'White' }],
        },
        {
          url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity',
          extension: [{ url: 'text', valueString: 'Hispanic or Latino' }],
        },
      ],
    });
  });

  it("answers 404 for another program's or enterprise's patient, as for one that does not exist", async () => {
    for (const [who, id] of [
      ['reader', f.ids.patientB],
      ['reader', f.ids.patientC],
      ['outsider', f.ids.patientA],
      ['reader', 999_999_999],
      ['reader', 'not-an-id'],
    ] as const) {
      const res = await f.get(who, `/fhir/R4/Patient/${id}`);
      expect(res.statusCode, `${who} ${id}`).toBe(404);
      expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] });
    }
    expect((await f.get('entAdmin', `/fhir/R4/Patient/${f.ids.patientB}`)).statusCode).toBe(200);
  });

  it('searches by _id and identifier, and never shows a patient of a program the reader may not see', async () => {
    const all = entries((await f.get('reader', '/fhir/R4/Patient')).json());
    expect(all.map((p) => p.id)).toEqual([String(f.ids.patientA)]);
    // Both A's and B's patient have MRN-1042: the reader sees A's only, the enterprise admin both.
    const byMrn = (who: 'reader' | 'entAdmin' | 'outsider', q: string) =>
      f
        .get(who, `/fhir/R4/Patient?identifier=${encodeURIComponent(q)}`)
        .then((r) => entries(r.json()).map((p) => p.id));
    expect(await byMrn('reader', 'MRN-1042')).toEqual([String(f.ids.patientA)]);
    expect(await byMrn('entAdmin', 'mrn-1042')).toEqual([String(f.ids.patientA), String(f.ids.patientB)]);
    expect(await byMrn('entAdmin', `urn:caredeck:program:${f.ids.programB}:mrn|MRN-1042`)).toEqual([
      String(f.ids.patientB),
    ]);
    expect(await byMrn('entAdmin', `urn:caredeck:patient|${f.ids.patientA}`)).toEqual([
      String(f.ids.patientA),
    ]);
    expect(await byMrn('entAdmin', 'http://other.example|MRN-1042')).toEqual([]);
    expect(await byMrn('outsider', 'MRN-1042')).toEqual([]);
    const byId = await f.get('entAdmin', `/fhir/R4/Patient?_id=${f.ids.patientB},${f.ids.patientC}`);
    expect(entries(byId.json()).map((p) => p.id)).toEqual([String(f.ids.patientB)]);
  });
});

describe('Patient paging', () => {
  it('pages program by program with keyset next links, each patient once', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/fhir/R4/Patient?_count=1';
    while (url) {
      const body: {
        link: { relation: string; url: string }[];
        entry?: { resource: Record<string, unknown> }[];
      } = (await f.get('entAdmin', url)).json();
      seen.push(...entries(body).map((p) => p.id as string));
      const next: { url: string } | undefined = body.link.find((l) => l.relation === 'next');
      url = next ? new URL(next.url).pathname + new URL(next.url).search : undefined;
    }
    expect(seen).toEqual([String(f.ids.patientA), String(f.ids.patientB)]);
  });
});

describe('search parameters', () => {
  it('refuses an unknown parameter, a modifier, a bad date, a bad _count or a made-up page link with 400', async () => {
    for (const query of [
      'Patient?name=Lopez',
      'Patient?identifier:exact=MRN-1042',
      `Observation?patient=${f.ids.patientA}&date=2026-02-30`,
      `Observation?patient=${f.ids.patientA}&date=ne2026-03-01`,
      'Patient?_count=0',
      'Patient?_count=ten',
      'Patient?_cursor=bm90LWpzb24',
      `Observation?patient=${f.ids.patientA}&_cursor=WzEsMl0`,
      'Patient?_format=xml',
    ]) {
      const res = await f.get('reader', `/fhir/R4/${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'invalid' }],
      });
    }
    const unknown = await f.get('reader', '/fhir/R4/Patient?name=Lopez');
    expect(outcomeText(unknown.json())).toEqual(['The search parameter name is not supported here.']);
    expect(unknown.json().issue[0].expression).toEqual(['name']);
  });

  it('ignores unknown parameters with Prefer: handling=lenient, and says so in the self link', async () => {
    const res = await f.get('reader', `/fhir/R4/Patient?name=Lopez&_id=${f.ids.patientA}`, {
      prefer: 'handling=lenient',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(entries(res.json()).map((p) => p.id)).toEqual([String(f.ids.patientA)]);
    const self = res.json().link.find((l: { relation: string }) => l.relation === 'self').url as string;
    expect(self).toBe(`http://localhost:80/fhir/R4/Patient?_id=${f.ids.patientA}&_count=50`);
    // A bad value is refused even so.
    const bad = await f.get('reader', '/fhir/R4/Patient?_count=-1', { prefer: 'handling=lenient' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('_lastUpdated', () => {
  it('finds the resources whose meta.lastUpdated falls in the range, on the types that carry one', async () => {
    await f.db.execute(
      sql`UPDATE patients SET updated_at = '2026-05-01T10:00:00Z' WHERE id = ${f.ids.patientA}`,
    );
    await f.db.execute(
      sql`UPDATE patients SET updated_at = '2026-04-01T10:00:00Z' WHERE id = ${f.ids.patientB}`,
    );
    const ids = async (query: string) => {
      const res = await f.get('entAdmin', `/fhir/R4/${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return entries(res.json()).map((r) => r.id);
    };
    expect(await ids('Patient?_lastUpdated=ge2026-04-15')).toEqual([String(f.ids.patientA)]);
    expect(await ids('Patient?_lastUpdated=lt2026-04-15')).toEqual([String(f.ids.patientB)]);
    expect(await ids('Patient?_lastUpdated=2026-04-01')).toEqual([String(f.ids.patientB)]);
    expect(await ids('Patient?_lastUpdated=gt2026-04&_lastUpdated=le2026-05-01T10:00:00Z')).toEqual([
      String(f.ids.patientA),
    ]);
    // Observations were stored now, long after 2026-01.
    expect((await ids(`Observation?patient=${f.ids.patientA}&_lastUpdated=lt2026-01-01`)).length).toBe(0);
    expect(
      (await ids(`Observation?patient=${f.ids.patientA}&_lastUpdated=ge2026-01-01`)).length,
    ).toBeGreaterThan(0);
    expect((await f.get('reader', '/fhir/R4/Patient?_lastUpdated=ne2026-01-01')).statusCode).toBe(400);
    expect((await f.get('reader', '/fhir/R4/Device?_lastUpdated=ge2026-01-01')).statusCode).toBe(400);
  });
});
