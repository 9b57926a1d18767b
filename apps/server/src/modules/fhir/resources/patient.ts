import { type SQL, sql } from 'drizzle-orm';
import { IDENTIFIER_TYPE, mrnSystem, programOfMrnSystem, SYSTEMS, US_CORE } from '../codes';
import { allOf, anyOf, LAST_UPDATED_PARAM, lastUpdatedConditions } from '../fhir.queries';
import { cursorIds, numericId, parseToken } from '../search';
import { compact, type FhirResource, instant, paged, type ResourceDefinition, text } from './resource';

type PatientRow = {
  id: number;
  program_id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  mrn: string | null;
  email: string | null;
  phone_number: string | null;
  dob: string | null;
  sex: string;
  race: string | null;
  ethnicity: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  physician_id: number | null;
  active: boolean;
  updated_at: Date;
};

/** US Core's race and ethnicity extensions carry the text as given; OMB codes are not recorded (docs/fhir.md). */
function textExtension(url: string, value: string | null) {
  const t = text(value);
  return t ? { url, extension: [{ url: 'text', valueString: t }] } : undefined;
}

export function patientResource(r: PatientRow): FhirResource {
  const mrn = text(r.mrn);
  const line = [text(r.address_line1), text(r.address_line2)].filter((l): l is string => !!l);
  const address = compact({
    use: 'home',
    line: line.length > 0 ? line : undefined,
    city: text(r.city),
    state: text(r.state),
    postalCode: text(r.zip),
  });
  const extension = [
    textExtension(`${US_CORE}/us-core-race`, r.race),
    textExtension(`${US_CORE}/us-core-ethnicity`, r.ethnicity),
  ].filter((e) => e !== undefined);
  const telecom = [
    text(r.phone_number) ? { system: 'phone', value: text(r.phone_number) } : undefined,
    text(r.email) ? { system: 'email', value: text(r.email) } : undefined,
  ].filter((t) => t !== undefined);
  return compact({
    resourceType: 'Patient',
    id: String(r.id),
    meta: { lastUpdated: instant(r.updated_at), profile: [`${US_CORE}/us-core-patient`] },
    extension: extension.length > 0 ? extension : undefined,
    identifier: [
      ...(mrn
        ? [
            {
              use: 'usual',
              type: {
                coding: [{ system: IDENTIFIER_TYPE, code: 'MR', display: 'Medical record number' }],
                text: 'MRN',
              },
              system: mrnSystem(r.program_id),
              value: mrn,
            },
          ]
        : []),
      { use: 'secondary', system: SYSTEMS.patientId, value: String(r.id) },
    ],
    active: r.active,
    name: [
      compact({
        use: 'official',
        family: text(r.last_name),
        given: [text(r.first_name), text(r.middle_name)].filter((g): g is string => !!g),
      }),
    ],
    telecom: telecom.length > 0 ? telecom : undefined,
    gender: r.sex,
    birthDate: r.dob ?? undefined,
    address: Object.keys(address).length > 1 ? [address] : undefined,
    managingOrganization: { reference: `Organization/program-${r.program_id}` },
    generalPractitioner: r.physician_id ? [{ reference: `Practitioner/${r.physician_id}` }] : undefined,
  });
}

/** An `identifier` value: an MRN (in its program's system, or in any program seen) or CareDeck's patient id. */
function identifierCondition(value: string): SQL {
  const { system, code } = parseToken(value);
  if (system === undefined) return sql`lower(p.mrn) = lower(${code})`;
  if (system === SYSTEMS.patientId) {
    const id = numericId(code);
    return id ? sql`p.id = ${id}` : sql`false`;
  }
  const programId = system ? programOfMrnSystem(system) : null;
  return programId ? sql`(p.program_id = ${programId} AND lower(p.mrn) = lower(${code}))` : sql`false`;
}

export const patientDefinition: ResourceDefinition = {
  type: 'Patient',
  profiles: [`${US_CORE}/us-core-patient`],
  params: [
    { name: '_id', type: 'token', documentation: 'The patient id (comma-separated for several).' },
    {
      name: 'identifier',
      type: 'token',
      documentation:
        'The MRN: `urn:caredeck:program:{programId}:mrn|{mrn}`, or `{mrn}` in any program visible; or `urn:caredeck:patient|{id}`.',
    },
    LAST_UPDATED_PARAM,
  ],
  async page(db, scope, search) {
    const conditions: SQL[] = [];
    for (const values of search.params.get('_id') ?? [])
      conditions.push(
        anyOf(values.map((v) => numericId(v)).map((id) => (id ? sql`p.id = ${id}` : sql`false`))),
      );
    for (const values of search.params.get('identifier') ?? [])
      conditions.push(anyOf(values.map(identifierCondition)));
    conditions.push(...lastUpdatedConditions(sql`p.updated_at`, search.params));
    const after = cursorIds(search.cursor, 2);
    if (after) conditions.push(sql`(p.program_id, p.id) > (${after[0]}::bigint, ${after[1]}::bigint)`);
    // Program by program (the programs seen, then each one's patients by id on patients_program_id_idx): a
    // page never walks other programs' patients, however many the table holds (ADR 073).
    const res = await db.execute<PatientRow>(sql`
      SELECT p.* FROM ${scope.programs} AS seen(id)
      CROSS JOIN LATERAL (
        SELECT p.id, p.program_id, p.first_name, p.middle_name, p.last_name, p.mrn, p.email, p.phone_number,
          p.dob::text AS dob, p.sex, p.race, p.ethnicity, p.address_line1, p.address_line2, p.city, p.state,
          p.zip, p.physician_id, p.active, p.updated_at
        FROM patients p
        WHERE p.program_id = seen.id AND ${allOf(conditions)}
        ORDER BY p.id
        LIMIT ${search.count + 1}
      ) p
      ORDER BY p.program_id, p.id
      LIMIT ${search.count + 1}`);
    const { rows, next } = paged(res.rows, search.count, (r) => [r.program_id, r.id]);
    return {
      items: rows.map((r) => ({ resource: patientResource(r), patientId: r.id, programId: r.program_id })),
      next,
    };
  },
};
