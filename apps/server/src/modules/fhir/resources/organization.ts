import { type SQL, sql } from 'drizzle-orm';
import { SYSTEMS } from '../codes';
import { allOf, anyOf, LAST_UPDATED_PARAM, lastUpdatedConditions } from '../fhir.queries';
import { cursorIds, parseToken } from '../search';
import { compact, type FhirResource, instant, paged, type ResourceDefinition } from './resource';

type OrganizationRow = {
  /** 0 for an enterprise, 1 for a program: the first part of the sort key. */
  kind: number;
  id: number;
  name: string;
  enterprise_id: number | null;
  updated_at: Date;
};

/** Organization ids say what they are: `enterprise-3`, `program-12` (two tables, one resource type). */
export function organizationId(kind: number, id: number): string {
  return `${kind === 0 ? 'enterprise' : 'program'}-${id}`;
}

function parseOrganizationId(value: string): { kind: number; id: number } | null {
  const m = /^(enterprise|program)-([1-9][0-9]{0,15})$/.exec(value);
  return m ? { kind: m[1] === 'enterprise' ? 0 : 1, id: Number(m[2]) } : null;
}

export function organizationResource(r: OrganizationRow): FhirResource {
  return compact({
    resourceType: 'Organization',
    id: organizationId(r.kind, r.id),
    meta: { lastUpdated: instant(r.updated_at) },
    identifier: [{ system: r.kind === 0 ? SYSTEMS.enterpriseId : SYSTEMS.programId, value: String(r.id) }],
    active: true,
    name: r.name,
    partOf: r.enterprise_id ? { reference: `Organization/enterprise-${r.enterprise_id}` } : undefined,
  });
}

function idCondition(value: string): SQL {
  const parsed = parseOrganizationId(value);
  return parsed ? sql`(o.kind = ${parsed.kind} AND o.id = ${parsed.id})` : sql`false`;
}

function identifierCondition(value: string): SQL {
  const { system, code } = parseToken(value);
  const kind = system === SYSTEMS.enterpriseId ? 0 : system === SYSTEMS.programId ? 1 : null;
  return kind !== null && /^[1-9][0-9]{0,15}$/.test(code)
    ? sql`(o.kind = ${kind} AND o.id = ${Number(code)})`
    : sql`false`;
}

/** The programs a staff member may see, and their enterprises (and any enterprise they administer). */
export const organizationDefinition: ResourceDefinition = {
  type: 'Organization',
  profiles: [],
  params: [
    { name: '_id', type: 'token', documentation: '`program-{id}` or `enterprise-{id}`.' },
    {
      name: 'identifier',
      type: 'token',
      documentation: '`urn:caredeck:program|{id}` or `urn:caredeck:enterprise|{id}`.',
    },
    LAST_UPDATED_PARAM,
  ],
  async page(db, scope, search) {
    const visible = scope.programs;
    const conditions: SQL[] = [];
    for (const values of search.params.get('_id') ?? []) conditions.push(anyOf(values.map(idCondition)));
    for (const values of search.params.get('identifier') ?? [])
      conditions.push(anyOf(values.map(identifierCondition)));
    conditions.push(...lastUpdatedConditions(sql`o.updated_at`, search.params));
    const after = cursorIds(search.cursor, 2);
    if (after) conditions.push(sql`(o.kind, o.id) > (${after[0]}::int, ${after[1]}::bigint)`);
    const res = await db.execute<OrganizationRow>(sql`
      SELECT o.kind, o.id, o.name, o.enterprise_id, o.updated_at FROM (
        SELECT 0 AS kind, e.id, e.name, NULL::bigint AS enterprise_id, e.updated_at FROM enterprises e
        WHERE e.id IN (SELECT p.enterprise_id FROM programs p WHERE p.id IN ${visible})
           OR e.id IN ${scope.enterprises}
        UNION ALL
        SELECT 1, p.id, p.name, p.enterprise_id, p.updated_at FROM programs p WHERE p.id IN ${visible}
      ) o
      WHERE ${allOf(conditions)}
      ORDER BY o.kind, o.id
      LIMIT ${search.count + 1}`);
    const { rows, next } = paged(res.rows, search.count, (r) => [r.kind, r.id]);
    return {
      items: rows.map((r) => ({ resource: organizationResource(r), patientId: null, programId: null })),
      next,
    };
  },
};
