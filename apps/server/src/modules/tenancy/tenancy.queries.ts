import type { EnterpriseSummary, ProgramSummary, RoleGrant, StaffRole } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

/** Programs a staff member may work in: those they hold a role in, and all of the enterprises they administer. */
export function visibleProgramsQuery(adminId: number | SQL): SQL {
  return sql`
    SELECT p.id, p.slug, p.name, p.type, p.enterprise_id, p.modules FROM programs p
    WHERE EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = ${adminId} AND r.program_id = p.id)
       OR EXISTS (SELECT 1 FROM admin_enterprise_roles e WHERE e.admin_id = ${adminId} AND e.enterprise_id = p.enterprise_id)`;
}

export function visibleEnterprisesQuery(adminId: number | SQL): SQL {
  return sql`
    SELECT e.id, e.name, e.slug FROM enterprises e
    WHERE EXISTS (SELECT 1 FROM admin_enterprise_roles r WHERE r.admin_id = ${adminId} AND r.enterprise_id = e.id)
       OR EXISTS (SELECT 1 FROM admin_program_roles r JOIN programs p ON p.id = r.program_id
                  WHERE r.admin_id = ${adminId} AND p.enterprise_id = e.id)`;
}

export function roleGrantsQuery(adminId: number | SQL): SQL {
  return sql`
    SELECT role AS name, program_id, NULL::bigint AS enterprise_id FROM admin_program_roles WHERE admin_id = ${adminId}
    UNION ALL
    SELECT role AS name, NULL::bigint AS program_id, enterprise_id FROM admin_enterprise_roles WHERE admin_id = ${adminId}`;
}

export async function visiblePrograms(
  db: Queryable,
  adminId: number,
): Promise<(ProgramSummary & { modules: string[] })[]> {
  const res = await db.execute<ProgramSummary & { modules: string[] }>(
    sql`${visibleProgramsQuery(adminId)} ORDER BY p.id`,
  );
  return res.rows;
}

export async function visibleEnterprises(db: Queryable, adminId: number): Promise<EnterpriseSummary[]> {
  const res = await db.execute<EnterpriseSummary>(sql`${visibleEnterprisesQuery(adminId)} ORDER BY e.id`);
  return res.rows;
}

export async function roleGrants(db: Queryable, adminId: number): Promise<RoleGrant[]> {
  const res = await db.execute<RoleGrant>(
    sql`${roleGrantsQuery(adminId)} ORDER BY program_id NULLS LAST, enterprise_id, name`,
  );
  return res.rows;
}

/** Replaces a staff member's roles in one program; returns whether anything changed. */
export async function replaceProgramRoles(
  db: Queryable,
  adminId: number,
  programId: number,
  roles: readonly string[],
): Promise<boolean> {
  const wanted = JSON.stringify(roles);
  const removed = await db.execute(sql`
    DELETE FROM admin_program_roles WHERE admin_id = ${adminId} AND program_id = ${programId}
      AND role NOT IN (SELECT jsonb_array_elements_text(${wanted}::jsonb))`);
  const added = await db.execute(sql`
    INSERT INTO admin_program_roles (admin_id, program_id, role)
    SELECT ${adminId}, ${programId}, r FROM jsonb_array_elements_text(${wanted}::jsonb) AS r
    ON CONFLICT DO NOTHING`);
  return (removed.rowCount ?? 0) + (added.rowCount ?? 0) > 0;
}

/** Whether a patient belongs to one of the given programs. */
export async function patientInPrograms(
  db: Queryable,
  patientId: number,
  programIds: number[],
): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM patients WHERE id = ${patientId} AND program_id = ANY(${idArray(programIds)}::bigint[])`);
  return (res.rowCount ?? 0) > 0;
}

/** Staff who work in the program: a role there, or enterprise admin of its enterprise; by family name. */
export async function programStaff(db: Queryable, programId: number) {
  const res = await db.execute<{
    id: number;
    given_name: string;
    family_name: string;
    name: string;
    title: string | null;
    roles: StaffRole[];
  }>(sql`
    SELECT a.id, a.given_name, a.family_name, a.given_name || ' ' || a.family_name AS name, a.title,
      array(
        SELECT r.role FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id = ${programId}
        UNION SELECT e.role FROM admin_enterprise_roles e JOIN programs g ON g.enterprise_id = e.enterprise_id
          WHERE e.admin_id = a.id AND g.id = ${programId}
      ) AS roles
    FROM admins a
    WHERE a.disabled_at IS NULL AND (
      EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id = ${programId})
      OR EXISTS (SELECT 1 FROM admin_enterprise_roles e JOIN programs g ON g.enterprise_id = e.enterprise_id
        WHERE e.admin_id = a.id AND g.id = ${programId}))
    ORDER BY a.family_name, a.given_name, a.id`);
  return res.rows;
}
