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
