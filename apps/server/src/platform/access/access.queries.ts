import type { StaffRole } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';

/** The actor's roles in one program (program roles plus enterprise_admin of its enterprise), or null if none. */
export async function programAccess(
  db: Queryable,
  adminId: number,
  programId: number,
): Promise<{ id: number; enterpriseId: number | null; roles: StaffRole[] } | null> {
  const res = await db.execute<{ id: number; enterprise_id: number | null; roles: StaffRole[] }>(sql`
    SELECT p.id, p.enterprise_id,
      array(
        SELECT r.role FROM admin_program_roles r WHERE r.admin_id = ${adminId} AND r.program_id = p.id
        UNION
        SELECT e.role FROM admin_enterprise_roles e WHERE e.admin_id = ${adminId} AND e.enterprise_id = p.enterprise_id
      ) AS roles
    FROM programs p WHERE p.id = ${programId}`);
  const row = res.rows[0];
  if (!row || row.roles.length === 0) return null;
  return { id: row.id, enterpriseId: row.enterprise_id, roles: row.roles };
}

/** The programs of an enterprise the actor may see: all of them for its enterprise admins. */
export async function enterpriseAccess(
  db: Queryable,
  adminId: number,
  enterpriseId: number,
): Promise<{ id: number; programIds: number[]; isEnterpriseAdmin: boolean; roles: StaffRole[] } | null> {
  const res = await db.execute<{ is_admin: boolean; program_ids: number[]; roles: StaffRole[] }>(sql`
    WITH ent_admin AS (
      SELECT EXISTS (
        SELECT 1 FROM admin_enterprise_roles WHERE admin_id = ${adminId} AND enterprise_id = ${enterpriseId}
      ) AS is_admin
    )
    SELECT ent_admin.is_admin,
      array(
        SELECT p.id FROM programs p WHERE p.enterprise_id = ${enterpriseId}
          AND (ent_admin.is_admin OR EXISTS (
            SELECT 1 FROM admin_program_roles r WHERE r.admin_id = ${adminId} AND r.program_id = p.id))
        ORDER BY p.id
      )::bigint[] AS program_ids,
      array(
        SELECT DISTINCT r.role FROM admin_program_roles r JOIN programs p ON p.id = r.program_id
        WHERE r.admin_id = ${adminId} AND p.enterprise_id = ${enterpriseId}
        UNION SELECT 'enterprise_admin' WHERE ent_admin.is_admin
      ) AS roles
    FROM ent_admin
    WHERE EXISTS (SELECT 1 FROM enterprises WHERE id = ${enterpriseId})`);
  const row = res.rows[0];
  // Enterprise admins see their enterprise even before it has programs.
  if (!row || (row.program_ids.length === 0 && !row.is_admin)) return null;
  return {
    id: enterpriseId,
    programIds: row.program_ids.map(Number),
    isEnterpriseAdmin: row.is_admin,
    roles: row.roles,
  };
}

/** A device by serial with its secret's hash, for HTTP Basic sign-in of devices. */
export async function deviceLogin(db: Queryable, serial: string) {
  const res = await db.execute<{
    id: number;
    serial: string;
    kind: string;
    secret_hash: string | null;
    program_id: number | null;
    patient_id: number | null;
  }>(sql`SELECT id, serial, kind, secret_hash, program_id, patient_id FROM devices WHERE serial = ${serial}`);
  return res.rows[0] ?? null;
}

/** A SMART backend client not revoked, with its program's enterprise: one round trip per client request. */
export async function liveFhirClient(db: Queryable, id: number) {
  const res = await db.execute<{ id: number; program_id: number; enterprise_id: number | null }>(sql`
    SELECT c.id, c.program_id, p.enterprise_id FROM fhir_clients c JOIN programs p ON p.id = c.program_id
    WHERE c.id = ${id} AND c.revoked_at IS NULL`);
  return res.rows[0] ?? null;
}

/**
 * For objects named by id in a body (`objects` rule): how many of `ids` are objects of a program where the
 * actor holds a role (program role, or enterprise admin of its enterprise), and how many of those hold one
 * of `roles` there. One query; `programOf` is the object kind's scalar subquery.
 */
export async function bodyObjectsAccess(
  db: Queryable,
  adminId: number,
  programOf: (id: SQL) => SQL,
  ids: readonly number[],
  roles: readonly StaffRole[] | undefined,
): Promise<{ visible: number; allowed: number }> {
  const wanted = `{${(roles ?? []).join(',')}}`;
  const res = await db.execute<{ visible: number; allowed: number }>(sql`
    SELECT count(*) FILTER (WHERE cardinality(x.roles) > 0)::int AS visible,
           count(*) FILTER (WHERE x.roles && ${wanted}::text[])::int AS allowed
    FROM (
      SELECT array(
          SELECT r.role::text FROM admin_program_roles r WHERE r.admin_id = ${adminId} AND r.program_id = p.id
          UNION
          SELECT e.role::text FROM admin_enterprise_roles e
          WHERE e.admin_id = ${adminId} AND e.enterprise_id = p.enterprise_id
        ) AS roles
      FROM unnest(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::bigint[]) AS t(id)
      LEFT JOIN programs p ON p.id = (${programOf(sql`t.id`)})
    ) x`);
  const row = res.rows[0];
  return { visible: row?.visible ?? 0, allowed: row?.allowed ?? 0 };
}
