import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { entries, fhirFixture } from './fhir.fixture';

let f: Awaited<ReturnType<typeof fhirFixture>>;

beforeAll(async () => {
  f = await fhirFixture();
});

const LOINC = 'http://loinc.org';
const search = async (who: 'reader' | 'entAdmin' | 'outsider', query: string) => {
  const res = await f.get(who, `/fhir/R4/${query}`);
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return entries(res.json());
};
const codes = (list: Record<string, unknown>[]) =>
  list.map((o) => (o.code as { coding: { code: string }[] }).coding[0]!.code);

describe('Observation (vital signs and activity)', () => {
  it('serves each reading with LOINC and UCUM, blood pressure as the 85354-9 panel', async () => {
    const all = await search('reader', `Observation?patient=${f.ids.patientA}`);
    // In time order; diastolic is inside the panel, active minutes are not mapped, a lone systolic is 8480-6.
    expect(codes(all)).toEqual([
      '85354-9',
      '8867-4',
      '59408-5',
      '29463-7',
      '8310-5',
      '2339-0',
      '41950-7',
      '93832-4',
      '8480-6',
    ]);
    const panel = all[0]!;
    expect(panel).toMatchObject({
      resourceType: 'Observation',
      id: String(f.measurement(f.ids.patientA, 'systolic')),
      status: 'final',
      meta: {
        profile: [
          'http://hl7.org/fhir/StructureDefinition/bp',
          'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure',
        ],
      },
      category: [
        {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' },
          ],
        },
      ],
      code: { coding: [{ system: LOINC, code: '85354-9' }] },
      subject: { reference: `Patient/${f.ids.patientA}` },
      effectiveDateTime: '2026-03-01T08:00:00.000Z',
      device: { reference: `Device/${f.ids.cuff}` },
      component: [
        {
          code: { coding: [{ system: LOINC, code: '8480-6' }] },
          valueQuantity: { value: 128, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
        {
          code: { coding: [{ system: LOINC, code: '8462-4' }] },
          valueQuantity: { value: 82, system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
      ],
    });
    expect(panel).not.toHaveProperty('valueQuantity');
    const quantity = (code: string) => all.find((o) => codes([o])[0] === code)!.valueQuantity;
    expect(quantity('8867-4')).toMatchObject({ value: 71, code: '/min' });
    expect(quantity('59408-5')).toMatchObject({ value: 97, code: '%' });
    expect(all.find((o) => codes([o])[0] === '59408-5')!.code).toMatchObject({
      coding: [{ code: '59408-5' }, { code: '2708-6' }],
    });
    expect(quantity('29463-7')).toMatchObject({ value: 72.5, code: 'kg' });
    expect(quantity('8310-5')).toMatchObject({ value: 36.8, code: 'Cel' });
    expect(quantity('2339-0')).toMatchObject({ value: 104, code: 'mg/dL' });
    expect(quantity('41950-7')).toMatchObject({ value: 6400, code: '{steps}' });
    expect(quantity('93832-4')).toMatchObject({ value: 420, code: 'min' });
  });

  it('filters by code, category and date with prefixes', async () => {
    const q = (params: string) => search('reader', `Observation?patient=Patient/${f.ids.patientA}&${params}`);
    expect(codes(await q('code=http://loinc.org|8867-4'))).toEqual(['8867-4']);
    expect(codes(await q('code=29463-7,2339-0'))).toEqual(['29463-7', '2339-0']);
    expect(codes(await q('code=8480-6'))).toEqual(['85354-9', '8480-6']);
    expect(codes(await q('code=85354-9'))).toEqual(['85354-9']);
    expect(codes(await q('code=http://snomed.info/sct|8867-4'))).toEqual([]);
    expect(codes(await q('category=vital-signs'))).toEqual([
      '85354-9',
      '8867-4',
      '59408-5',
      '29463-7',
      '8310-5',
      '8480-6',
    ]);
    expect(codes(await q('category=activity'))).toEqual(['41950-7', '93832-4']);
    expect(codes(await q('category=laboratory'))).toEqual(['2339-0']);
    expect(codes(await q('date=2026-03-01'))).toEqual(['85354-9', '8867-4', '59408-5']);
    expect(codes(await q('date=eq2026-03-02&category=vital-signs'))).toEqual(['29463-7', '8310-5']);
    expect(codes(await q('date=ge2026-03-04&date=lt2026-04'))).toEqual(['41950-7', '93832-4']);
    expect(codes(await q('date=gt2026-03-03'))).toEqual(['41950-7', '93832-4', '8480-6']);
    expect(codes(await q('date=le2026-03-01T08:00:00Z'))).toEqual(['85354-9', '8867-4']);
    expect(codes(await q('date=lt2026-03-01T09:00:00Z'))).toEqual(['85354-9', '8867-4']);
    expect(codes(await q('date=ge2026-03-01T10:00:00%2B01:00&date=le2026-03-01'))).toEqual(['59408-5']);
  });

  it('pages with keyset next links that, followed, give every observation once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `/fhir/R4/Observation?patient=${f.ids.patientA}&_count=2`;
    let pages = 0;
    while (url) {
      const res = await f.get('reader', url);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      seen.push(...entries(body).map((o) => o.id as string));
      expect(entries(body).length).toBeLessThanOrEqual(2);
      const next = (body.link as { relation: string; url: string }[]).find((l) => l.relation === 'next');
      expect(next?.url ?? '', 'next links keep the search').toMatch(
        next ? /patient=\d+&_count=2&_cursor=/ : /^$/,
      );
      url = next ? new URL(next.url).pathname + new URL(next.url).search : undefined;
      pages++;
    }
    const all = await search('reader', `Observation?patient=${f.ids.patientA}`);
    expect(seen).toEqual(all.map((o) => o.id));
    expect(new Set(seen).size).toBe(9);
    expect(pages).toBe(5);
  });

  it('refuses a search without patient or _id, and never shows another program’s readings', async () => {
    const broad = await f.get('reader', '/fhir/R4/Observation?category=vital-signs');
    expect(broad.statusCode).toBe(400);
    expect(broad.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    expect(await search('reader', `Observation?patient=${f.ids.patientB}`)).toEqual([]);
    expect(await search('outsider', `Observation?patient=${f.ids.patientA}`)).toEqual([]);
    expect((await search('entAdmin', `Observation?patient=${f.ids.patientB}`)).length).toBe(1);
    const other = f.measurement(f.ids.patientB, 'weight');
    expect((await f.get('reader', `/fhir/R4/Observation/${other}`)).statusCode).toBe(404);
    expect(await search('reader', `Observation?_id=${other}`)).toEqual([]);
    // The diastolic row and an unmapped reading are not Observations of their own.
    for (const id of [
      f.measurement(f.ids.patientA, 'diastolic'),
      f.measurement(f.ids.patientA, 'active_minutes'),
    ])
      expect((await f.get('reader', `/fhir/R4/Observation/${id}`)).statusCode).toBe(404);
    const pulse = f.measurement(f.ids.patientA, 'pulse');
    const read = await f.get('reader', `/fhir/R4/Observation/${pulse}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: String(pulse), code: { coding: [{ code: '8867-4' }] } });
  });
});

describe('_include', () => {
  it('adds the devices of the page’s observations once each, and refuses includes it does not serve', async () => {
    const res = await f.get(
      'reader',
      `/fhir/R4/Observation?patient=${f.ids.patientA}&_include=Observation:device`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      entry: { search: { mode: string }; resource: { resourceType: string; id: string } }[];
    };
    const included = body.entry.filter((e) => e.search.mode === 'include').map((e) => e.resource);
    expect(included.map((r) => [r.resourceType, r.id])).toEqual([['Device', String(f.ids.cuff)]]);
    expect(body.entry.filter((e) => e.search.mode === 'match').length).toBe(9);
    const unknown = await f.get(
      'reader',
      `/fhir/R4/Observation?patient=${f.ids.patientA}&_include=Observation:patient`,
    );
    expect(unknown.statusCode).toBe(400);
    const metadata = (await f.get(null, '/fhir/R4/metadata')).json();
    expect(
      metadata.rest[0].resource.find((r: { type: string }) => r.type === 'Observation').searchInclude,
    ).toEqual(['Observation:device']);
  });
});

describe('Device, Organization, Practitioner', () => {
  it('maps a device with its serial, type, status, patient and program, scoped like the patient', async () => {
    const res = await f.get('reader', `/fhir/R4/Device/${f.ids.cuff}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      resourceType: 'Device',
      id: String(f.ids.cuff),
      identifier: [{ system: 'urn:caredeck:device-serial', value: f.cuffSerial }],
      serialNumber: f.cuffSerial,
      status: 'active',
      type: {
        coding: [{ system: 'urn:caredeck:device-kind', code: 'bp_cuff', display: 'Blood pressure cuff' }],
      },
      patient: { reference: `Patient/${f.ids.patientA}` },
      owner: { reference: `Organization/program-${f.ids.programA}` },
    });
    expect((await f.get('reader', `/fhir/R4/Device/${f.ids.deviceB}`)).statusCode).toBe(404);
    expect((await search('reader', `Device?patient=${f.ids.patientA}`)).map((d) => d.id)).toEqual([
      String(f.ids.cuff),
    ]);
    expect((await search('reader', `Device?identifier=${f.cuffSerial}`)).map((d) => d.id)).toEqual([
      String(f.ids.cuff),
    ]);
    expect(await search('reader', `Device?patient=${f.ids.patientB}`)).toEqual([]);
    expect((await search('entAdmin', 'Device')).map((d) => d.id)).toEqual([
      String(f.ids.cuff),
      String(f.ids.deviceB),
    ]);
  });

  it('serves the programs and enterprises the reader may see as Organizations', async () => {
    const ids = async (who: 'reader' | 'entAdmin' | 'outsider') =>
      (await search(who, 'Organization')).map((o) => o.id);
    expect(await ids('reader')).toEqual([`enterprise-${f.ids.e1}`, `program-${f.ids.programA}`]);
    expect(await ids('entAdmin')).toEqual([
      `enterprise-${f.ids.e1}`,
      `program-${f.ids.programA}`,
      `program-${f.ids.programB}`,
    ]);
    const program = await f.get('reader', `/fhir/R4/Organization/program-${f.ids.programA}`);
    expect(program.json()).toMatchObject({
      name: 'Heart Failure Monitoring',
      partOf: { reference: `Organization/enterprise-${f.ids.e1}` },
    });
    expect((await f.get('reader', `/fhir/R4/Organization/program-${f.ids.programB}`)).statusCode).toBe(404);
    expect((await f.get('outsider', `/fhir/R4/Organization/enterprise-${f.ids.e1}`)).statusCode).toBe(404);
    const paged = await f.get('entAdmin', '/fhir/R4/Organization?_count=2');
    const next = paged.json().link.find((l: { relation: string }) => l.relation === 'next').url as string;
    const rest = await f.get('entAdmin', new URL(next).pathname + new URL(next).search);
    expect(entries(rest.json()).map((o) => o.id)).toEqual([`program-${f.ids.programB}`]);
  });

  it('serves staff who work in the programs the reader may see as Practitioners', async () => {
    const res = await f.get('reader', `/fhir/R4/Practitioner/${f.ids.reader}`);
    expect(res.json()).toMatchObject({
      resourceType: 'Practitioner',
      identifier: [{ system: 'urn:caredeck:staff', value: String(f.ids.reader) }],
      active: true,
      name: [{ family: 'Reader', given: ['Ada'] }],
    });
    expect((await f.get('reader', `/fhir/R4/Practitioner/${f.ids.outsider}`)).statusCode).toBe(404);
    expect((await search('reader', 'Practitioner')).map((p) => p.id)).toEqual([
      String(f.ids.reader),
      String(f.ids.entAdmin),
    ]);
  });
});

describe('audit trail', () => {
  it('writes who read which patient’s data, by FHIR read and search, without the search values', async () => {
    const rows = async (after: number) =>
      (
        await f.db.execute<{
          action: string;
          actor_admin_id: number;
          subject_id: number | null;
          program_id: number | null;
          details: Record<string, unknown>;
        }>(sql`
          SELECT action, actor_admin_id, subject_id, program_id, details FROM audit_events
          WHERE id > ${after} AND action LIKE 'fhir.%' ORDER BY id`)
      ).rows;
    const start = Number(
      (await f.db.execute<{ id: number }>(sql`SELECT coalesce(max(id), 0) AS id FROM audit_events`)).rows[0]!
        .id,
    );
    await f.get('reader', `/fhir/R4/Patient/${f.ids.patientA}`);
    await search('reader', `Observation?patient=${f.ids.patientA}&code=8867-4,85354-9`);
    await search('entAdmin', 'Patient?identifier=MRN-1042');
    await search('reader', 'Organization');
    await f.get('reader', `/fhir/R4/Patient/${f.ids.patientB}`);
    expect(await rows(start)).toEqual([
      {
        action: 'fhir.read',
        actor_admin_id: f.ids.reader,
        subject_id: f.ids.patientA,
        program_id: f.ids.programA,
        details: { resource_type: 'Patient', parameters: [], count: 1 },
      },
      {
        action: 'fhir.search',
        actor_admin_id: f.ids.reader,
        subject_id: f.ids.patientA,
        program_id: f.ids.programA,
        details: { resource_type: 'Observation', parameters: ['patient', 'code'], count: 2 },
      },
      ...[
        [f.ids.patientA, f.ids.programA],
        [f.ids.patientB, f.ids.programB],
      ].map(([patient, program]) => ({
        action: 'fhir.search',
        actor_admin_id: f.ids.entAdmin,
        subject_id: patient,
        program_id: program,
        details: { resource_type: 'Patient', parameters: ['identifier'], count: 1, patients_in_answer: 2 },
      })),
      {
        action: 'fhir.search',
        actor_admin_id: f.ids.reader,
        subject_id: null,
        program_id: null,
        details: { resource_type: 'Organization', parameters: [], count: 2 },
      },
    ]);
  });
});
