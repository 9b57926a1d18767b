import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import type { ReaderScope } from './resources/resource';
import { parseDateBound, type SearchParamDef } from './search';

/**
 * The programs a staff member may read through FHIR, as a subquery: those where they hold a role, and every
 * program of an enterprise they administer — the programs the console lets them open (ADR 004). Put inside
 * each resource's one statement, so scoping costs no round trip of its own.
 */
export function visiblePrograms(adminId: number): SQL {
  return sql`(SELECT vp.id FROM programs vp
    WHERE EXISTS (SELECT 1 FROM admin_program_roles vr WHERE vr.admin_id = ${adminId} AND vr.program_id = vp.id)
       OR EXISTS (SELECT 1 FROM admin_enterprise_roles ve
                  WHERE ve.admin_id = ${adminId} AND ve.enterprise_id = vp.enterprise_id))`;
}

/** A staff member's scope: the programs they may open, and an enterprise they administer (ADR 004). */
export function staffScope(adminId: number): ReaderScope {
  return {
    programs: visiblePrograms(adminId),
    enterprises: sql`(SELECT ve.enterprise_id FROM admin_enterprise_roles ve WHERE ve.admin_id = ${adminId})`,
  };
}

/** A SMART backend client's scope: its one program (ADR 074). */
export function clientScope(programId: number): ReaderScope {
  return {
    programs: sql`(SELECT ${programId}::bigint)`,
    enterprises: sql`(SELECT NULL::bigint WHERE false)`,
  };
}

/** Conditions joined with AND (true when there are none). */
export function allOf(conditions: readonly SQL[]): SQL {
  return conditions.length === 0 ? sql`true` : sql.join([...conditions], sql` AND `);
}

/** Conditions joined with OR, in parentheses (false when there are none). */
export function anyOf(conditions: readonly SQL[]): SQL {
  return conditions.length === 0 ? sql`false` : sql`(${sql.join([...conditions], sql` OR `)})`;
}

/** A PostgreSQL array literal of ids or texts, sent as one parameter. */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

export type FhirAuditRow = { patientId: number | null; programId: number | null; count: number };

/**
 * The audit rows of one FHIR read or search (`fhir.read`, `fhir.search`): one per patient whose data the
 * answer carried (subject `patient`, so it shows in that patient's audit history), or one without a subject
 * when it carried none. Details hold the resource type, the interaction's parameter names and counts, never
 * values (an identifier is PHI). One statement, committed without waiting for its WAL flush like every PHI view
 * (platform/audit: auditView).
 */
export async function auditFhirAccess(
  db: Queryable,
  e: {
    /** The staff member, or null for a SMART backend client (named in the details). */
    adminId: number | null;
    clientId: number | null;
    ip: string;
    action: 'fhir.read' | 'fhir.search';
    resourceType: string;
    parameters: string[];
    rows: FhirAuditRow[];
    total: number;
  },
): Promise<void> {
  const rows = e.rows.length > 0 ? e.rows : [{ patientId: null, programId: null, count: e.total }];
  const details = rows.map((r) => ({
    resource_type: e.resourceType,
    parameters: e.parameters,
    count: r.count,
    ...(e.rows.length > 1 ? { patients_in_answer: e.rows.length } : {}),
    ...(e.clientId !== null ? { fhir_client_id: e.clientId } : {}),
  }));
  await db.execute(sql`
    WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
    INSERT INTO audit_events (actor_admin_id, actor_realm, program_id, action, subject_type, subject_id, details, ip)
    SELECT ${e.adminId}::bigint, ${e.clientId === null ? 'staff' : 'fhir_client'}, x.program_id, ${e.action}, CASE WHEN x.patient_id IS NULL THEN NULL ELSE 'patient' END,
      x.patient_id, x.details, ${e.ip}
    FROM async_commit,
      unnest(${`{${rows.map((r) => r.patientId ?? 'NULL').join(',')}}`}::bigint[],
             ${`{${rows.map((r) => r.programId ?? 'NULL').join(',')}}`}::bigint[],
             ${textArray(details.map((d) => JSON.stringify(d)))}::jsonb[]) AS x(patient_id, program_id, details)`);
}

/**
 * A `date`-type value against a timestamptz column: the range the value names (its precision), compared as
 * its prefix says (eq: within it; gt: from its end; lt: before its start …). search.ts: parseDateBound.
 */
export function dateCondition(column: SQL, parameter: string, value: string): SQL {
  const { op, start, end } = parseDateBound(parameter, value);
  const s = start.toISOString();
  const e = end.toISOString();
  switch (op) {
    case 'eq':
      return sql`(${column} >= ${s}::timestamptz AND ${column} < ${e}::timestamptz)`;
    case 'ge':
      return sql`${column} >= ${s}::timestamptz`;
    case 'gt':
      return sql`${column} >= ${e}::timestamptz`;
    case 'le':
      return sql`${column} < ${e}::timestamptz`;
    case 'lt':
      return sql`${column} < ${s}::timestamptz`;
  }
}

/** The `_lastUpdated` parameter of a type whose resources carry `meta.lastUpdated` from `column`. */
export const LAST_UPDATED_PARAM = {
  name: '_lastUpdated',
  type: 'date',
  documentation: 'meta.lastUpdated, with the prefixes eq, ge, gt, le, lt; repeat it for a range.',
} as const satisfies SearchParamDef;

/** The conditions of a search's `_lastUpdated` occurrences on `column` (AND of ORs, like every parameter). */
export function lastUpdatedConditions(column: SQL, params: Map<string, string[][]>): SQL[] {
  return (params.get('_lastUpdated') ?? []).map((values) =>
    anyOf(values.map((v) => dateCondition(column, '_lastUpdated', v))),
  );
}
