import { type SQL, sql } from 'drizzle-orm';
import { SYSTEMS } from '../codes';
import { allOf, anyOf, LAST_UPDATED_PARAM, lastUpdatedConditions } from '../fhir.queries';
import { cursorIds, numericId, parseToken } from '../search';
import { compact, type FhirResource, instant, paged, type ResourceDefinition, text } from './resource';

type StaffRow = {
  id: number;
  given_name: string;
  family_name: string;
  email: string;
  phone_number: string | null;
  active: boolean;
  updated_at: Date;
};

/** A staff member as a Practitioner: name and work contacts; no NPI is recorded yet (docs/fhir.md). */
export function practitionerResource(r: StaffRow): FhirResource {
  return compact({
    resourceType: 'Practitioner',
    id: String(r.id),
    meta: { lastUpdated: instant(r.updated_at) },
    identifier: [{ system: SYSTEMS.staffId, value: String(r.id) }],
    active: r.active,
    name: [
      compact({ family: text(r.family_name), given: text(r.given_name) ? [text(r.given_name)!] : undefined }),
    ],
    telecom: [
      { system: 'email', value: r.email, use: 'work' },
      ...(text(r.phone_number) ? [{ system: 'phone', value: text(r.phone_number), use: 'work' }] : []),
    ],
  });
}

function identifierCondition(value: string): SQL {
  const { system, code } = parseToken(value);
  const id = numericId(code);
  return (system === undefined || system === SYSTEMS.staffId) && id ? sql`a.id = ${id}` : sql`false`;
}

/**
 * Staff who work in a program the reader may see: a role there, or enterprise admin of its enterprise
 * (the same staff the API lets the reader name: platform/access/scope.ts).
 */
export const practitionerDefinition: ResourceDefinition = {
  type: 'Practitioner',
  profiles: [],
  params: [
    { name: '_id', type: 'token', documentation: 'The staff member id (comma-separated for several).' },
    { name: 'identifier', type: 'token', documentation: '`urn:caredeck:staff|{id}`.' },
    LAST_UPDATED_PARAM,
  ],
  async page(db, scope, search) {
    const visible = scope.programs;
    const conditions: SQL[] = [
      sql`(EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id IN ${visible})
        OR EXISTS (SELECT 1 FROM admin_enterprise_roles e JOIN programs p ON p.enterprise_id = e.enterprise_id
                   WHERE e.admin_id = a.id AND p.id IN ${visible}))`,
    ];
    for (const values of search.params.get('_id') ?? [])
      conditions.push(
        anyOf(values.map((v) => numericId(v)).map((id) => (id ? sql`a.id = ${id}` : sql`false`))),
      );
    for (const values of search.params.get('identifier') ?? [])
      conditions.push(anyOf(values.map(identifierCondition)));
    conditions.push(...lastUpdatedConditions(sql`a.updated_at`, search.params));
    const after = cursorIds(search.cursor, 1);
    if (after) conditions.push(sql`a.id > ${after[0]}`);
    const res = await db.execute<StaffRow>(sql`
      SELECT a.id, a.given_name, a.family_name, a.email, a.phone_number, a.disabled_at IS NULL AS active, a.updated_at
      FROM admins a
      WHERE ${allOf(conditions)}
      ORDER BY a.id
      LIMIT ${search.count + 1}`);
    const { rows, next } = paged(res.rows, search.count, (r) => [r.id]);
    return {
      items: rows.map((r) => ({ resource: practitionerResource(r), patientId: null, programId: null })),
      next,
    };
  },
};
