import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { AppError } from '../http/errors';
import type { StaffActor } from './actor';

/**
 * The programs and enterprises a request works in: the path program (and its enterprise) or the path
 * enterprise (and the programs of it the actor may see).
 */
export type WorkScope = { programIds: number[]; enterpriseIds: number[] };

export function scopeOf(actor: StaffActor): WorkScope {
  if (actor.program) {
    const { id, enterpriseId } = actor.program;
    return { programIds: [id], enterpriseIds: enterpriseId ? [enterpriseId] : [] };
  }
  if (actor.enterprise)
    return { programIds: actor.enterprise.programIds, enterpriseIds: [actor.enterprise.id] };
  throw new Error('scopeOf() used on a route without a program or enterprise access rule');
}

/** A PostgreSQL array literal of integer ids, sent as one parameter. */
export function idArray(ids: readonly number[]): string {
  return `{${ids.map((id) => Math.trunc(id)).join(',')}}`;
}

/** Ids named inside a request body, by the kind of object they name. */
export type BodyRefs = { patients?: readonly (number | null | undefined)[]; staff?: readonly number[] };

/**
 * Ids inside a body are checked like path ids: every one must name an object of the request's scope,
 * else the whole request answers 404, the same answer as for an id that does not exist. One query.
 * - a patient is in scope when it belongs to one of the scope's programs;
 * - a staff member is in scope when they hold a role in one of the scope's programs or in any program
 *   of its enterprises, or administer one of its enterprises (they work there).
 */
export async function assertBodyRefsInScope(db: Queryable, scope: WorkScope, refs: BodyRefs): Promise<void> {
  const patients = [...new Set((refs.patients ?? []).filter((id): id is number => typeof id === 'number'))];
  const staff = [...new Set(refs.staff ?? [])];
  if (patients.length === 0 && staff.length === 0) return;
  const programs = idArray(scope.programIds);
  const enterprises = idArray(scope.enterpriseIds);
  const res = await db.execute<{ patients: number; staff: number }>(sql`
    SELECT
      (SELECT count(*) FROM patients
        WHERE id = ANY(${idArray(patients)}::bigint[]) AND program_id = ANY(${programs}::bigint[]))::int AS patients,
      (SELECT count(*) FROM admins a
        WHERE a.id = ANY(${idArray(staff)}::bigint[]) AND a.disabled_at IS NULL AND (
          EXISTS (SELECT 1 FROM admin_program_roles r JOIN programs p ON p.id = r.program_id
                  WHERE r.admin_id = a.id
                    AND (p.id = ANY(${programs}::bigint[]) OR p.enterprise_id = ANY(${enterprises}::bigint[])))
          OR EXISTS (SELECT 1 FROM admin_enterprise_roles e
                     WHERE e.admin_id = a.id AND e.enterprise_id = ANY(${enterprises}::bigint[]))))::int AS staff`);
  const row = res.rows[0];
  if (!row || row.patients !== patients.length || row.staff !== staff.length) throw AppError.notFound();
}

/**
 * The programs a request names in its input (`program_id` in the query or body, `program_ids` in the body),
 * read the same way before validation (the refusal path) and after it. Values that are not ids are left to
 * validation.
 */
export function programRefsOf(input: { query?: unknown; body?: unknown }): number[] {
  const ids = new Set<number>();
  const add = (value: unknown) => {
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (/^[1-9][0-9]{0,15}$/.test(text)) ids.add(Number(text));
  };
  const query = input.query as Record<string, unknown> | null | undefined;
  const body = input.body as Record<string, unknown> | null | undefined;
  if (query && typeof query === 'object') add(query.program_id);
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    add(body.program_id);
    if (Array.isArray(body.program_ids)) for (const id of body.program_ids) add(id);
  }
  return [...ids];
}

/**
 * Whether every program named in a request's input is one the staff member works in (a program role, or
 * enterprise admin of its enterprise) and, on an enterprise route, one of the path enterprise's programs.
 * One query. ADR 062: anything else answers 404, as a program that does not exist. On an enterprise route,
 * program id 1 is the spec's "no program filter" and is not checked.
 */
export async function programRefsInScope(
  db: Queryable,
  actor: StaffActor,
  named: readonly number[],
): Promise<boolean> {
  // 01 §4: on an enterprise route, program id 1 means no program filter (the console's default).
  const ids = actor.enterprise ? named.filter((id) => id !== 1) : named;
  if (ids.length === 0) return true;
  const within = actor.enterprise
    ? sql`AND p.id = ANY(${idArray(actor.enterprise.programIds)}::bigint[])`
    : sql``;
  const res = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM programs p
    WHERE p.id = ANY(${idArray(ids)}::bigint[]) ${within}
      AND (EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = ${actor.adminId} AND r.program_id = p.id)
        OR EXISTS (SELECT 1 FROM admin_enterprise_roles e
                   WHERE e.admin_id = ${actor.adminId} AND e.enterprise_id = p.enterprise_id))`);
  return res.rows[0]?.n === ids.length;
}
