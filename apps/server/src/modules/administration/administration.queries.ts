import type {
  AdminDetail,
  AdminListItem,
  EnterpriseDetail,
  HistoryEntry,
  ProgramDetail,
  StaffRole,
} from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';
import { visibleEnterprisesQuery, visibleProgramsQuery } from '../tenancy/tenancy.queries';

/** Whether `actor` administers program `p` (alias): admin there, or enterprise admin of its enterprise. */
function administers(actorId: number, p: SQL): SQL {
  return sql`(EXISTS (SELECT 1 FROM admin_program_roles ar WHERE ar.admin_id = ${actorId} AND ar.program_id = ${p}.id AND ar.role = 'admin')
    OR EXISTS (SELECT 1 FROM admin_enterprise_roles ae WHERE ae.admin_id = ${actorId} AND ae.enterprise_id = ${p}.enterprise_id))`;
}

/**
 * A staff member as the actor sees them: visible when they work in a program or enterprise the actor sees;
 * only the shared programs and enterprises are listed. `can_manage`: the actor administers every program
 * and enterprise the member works in. Null when not visible.
 */
export async function adminDetail(
  db: Queryable,
  actorId: number,
  targetId: number,
): Promise<AdminDetail | null> {
  const res = await db.execute<Omit<AdminDetail, 'created_at'> & { created_at: Date }>(sql`
    WITH vp AS (${visibleProgramsQuery(actorId)}), ve AS (${visibleEnterprisesQuery(actorId)})
    SELECT a.id, a.email, a.given_name, a.family_name, a.given_name || ' ' || a.family_name AS name, a.title,
      a.phone_number, a.disabled_at IS NOT NULL AS disabled, a.must_change_password, a.mfa_enabled, a.created_at,
      coalesce((
        SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'enterprise_id', p.enterprise_id,
          'roles', array(SELECT r.role FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id = p.id ORDER BY r.role))
          ORDER BY p.name, p.id)
        FROM vp p WHERE EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id = p.id)
      ), '[]') AS programs,
      coalesce((
        SELECT json_agg(json_build_object('id', e.id, 'name', e.name, 'roles', ARRAY['enterprise_admin']) ORDER BY e.name)
        FROM ve e WHERE EXISTS (SELECT 1 FROM admin_enterprise_roles x WHERE x.admin_id = a.id AND x.enterprise_id = e.id)
      ), '[]') AS enterprises,
      (NOT EXISTS (
        SELECT 1 FROM admin_program_roles r JOIN programs p ON p.id = r.program_id
        WHERE r.admin_id = a.id AND NOT ${administers(actorId, sql`p`)})
       AND NOT EXISTS (
        SELECT 1 FROM admin_enterprise_roles x WHERE x.admin_id = a.id AND NOT EXISTS (
          SELECT 1 FROM admin_enterprise_roles y WHERE y.admin_id = ${actorId} AND y.enterprise_id = x.enterprise_id))
       AND EXISTS (SELECT 1 FROM vp p WHERE ${administers(actorId, sql`p`)})) AS can_manage
    FROM admins a
    WHERE a.id = ${targetId} AND (
      EXISTS (SELECT 1 FROM admin_program_roles r JOIN vp p ON p.id = r.program_id WHERE r.admin_id = a.id)
      OR EXISTS (SELECT 1 FROM admin_enterprise_roles x JOIN ve e ON e.id = x.enterprise_id WHERE x.admin_id = a.id)
      OR EXISTS (SELECT 1 FROM admin_program_roles r JOIN programs p ON p.id = r.program_id
                 JOIN ve e ON e.id = p.enterprise_id WHERE r.admin_id = a.id))`);
  const row = res.rows[0];
  if (!row) return null;
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

export type AdminListFilter = {
  programIds: readonly number[];
  enterpriseIds: readonly number[];
  role?: StaffRole;
  status: 'active' | 'disabled' | 'all';
  search: string;
  page: number;
  perPage: number;
};

/**
 * Staff who hold a role in one of `programIds` or administer one of `enterpriseIds`, by family name, with
 * their roles and programs there; one statement, total by window.
 */
export async function adminList(
  db: Queryable,
  f: AdminListFilter,
): Promise<{ rows: AdminListItem[]; total: number }> {
  const programs = idArray(f.programIds);
  const enterprises = idArray(f.enterpriseIds);
  const pattern = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const res = await db.execute<AdminListItem & { total: number }>(sql`
    WITH grants AS (
      SELECT r.admin_id, r.role, r.program_id FROM admin_program_roles r WHERE r.program_id = ANY(${programs}::bigint[])
      UNION ALL
      SELECT x.admin_id, x.role, NULL::bigint FROM admin_enterprise_roles x WHERE x.enterprise_id = ANY(${enterprises}::bigint[])
    ), members AS (
      SELECT g.admin_id, array_agg(DISTINCT g.role ORDER BY g.role) AS roles,
        array_remove(array_agg(DISTINCT g.program_id), NULL) AS program_ids
      FROM grants g GROUP BY g.admin_id
      ${f.role ? sql`HAVING bool_or(g.role = ${f.role})` : sql``}
    )
    SELECT a.id, a.email, a.given_name, a.family_name, a.given_name || ' ' || a.family_name AS name, a.title,
      a.disabled_at IS NOT NULL AS disabled, m.roles,
      coalesce((SELECT json_agg(json_build_object('id', p.id, 'name', p.name) ORDER BY p.name, p.id)
                FROM programs p WHERE p.id = ANY(m.program_ids)), '[]') AS programs,
      count(*) OVER ()::int AS total
    FROM members m JOIN admins a ON a.id = m.admin_id
    WHERE ${f.status === 'active' ? sql`a.disabled_at IS NULL` : f.status === 'disabled' ? sql`a.disabled_at IS NOT NULL` : sql`true`}
      ${f.search ? sql`AND (a.given_name || ' ' || a.family_name ILIKE ${pattern} OR a.family_name || ', ' || a.given_name ILIKE ${pattern} OR a.email ILIKE ${pattern})` : sql``}
    ORDER BY a.family_name, a.given_name, a.id
    LIMIT ${f.perPage} OFFSET ${(f.page - 1) * f.perPage}`);
  const total = res.rows[0]?.total ?? 0;
  return { rows: res.rows.map(({ total: _t, ...row }) => row), total };
}

/** Admin ids (of `ids`) who already hold any role in the program. */
export async function grantRoles(
  db: Queryable,
  programId: number,
  adminIds: readonly number[],
  roles: readonly string[],
): Promise<number[]> {
  const res = await db.execute<{ admin_id: number }>(sql`
    INSERT INTO admin_program_roles (admin_id, program_id, role)
    SELECT a, ${programId}, r FROM unnest(${idArray(adminIds)}::bigint[]) AS a,
      jsonb_array_elements_text(${JSON.stringify(roles)}::jsonb) AS r
    ON CONFLICT DO NOTHING
    RETURNING admin_id`);
  return [...new Set(res.rows.map((r) => Number(r.admin_id)))].sort((a, b) => a - b);
}

export type AdminPatch = {
  givenName?: string;
  familyName?: string;
  title?: string | null;
  phoneNumber?: string | null;
  disabled?: boolean;
};

/** Changes the member's account; returns whether a row changed. Disabling keeps the first disable time. */
export async function updateAdminAccount(db: Queryable, id: number, p: AdminPatch): Promise<boolean> {
  const sets: SQL[] = [];
  if (p.givenName !== undefined) sets.push(sql`given_name = ${p.givenName}`);
  if (p.familyName !== undefined) sets.push(sql`family_name = ${p.familyName}`);
  if (p.title !== undefined) sets.push(sql`title = ${p.title}`);
  if (p.phoneNumber !== undefined) sets.push(sql`phone_number = ${p.phoneNumber}`);
  if (p.disabled !== undefined)
    sets.push(p.disabled ? sql`disabled_at = coalesce(disabled_at, now())` : sql`disabled_at = NULL`);
  if (sets.length === 0) return false;
  const res = await db.execute(
    sql`UPDATE admins SET ${sql.join(sets, sql`, `)}, updated_at = now() WHERE id = ${id}`,
  );
  return (res.rowCount ?? 0) > 0;
}

/** Enterprises the staff member administers (enterprise_admin). */
export async function administeredEnterpriseIds(db: Queryable, adminId: number): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT enterprise_id AS id FROM admin_enterprise_roles WHERE admin_id = ${adminId} ORDER BY enterprise_id`);
  return res.rows.map((r) => Number(r.id));
}

export async function physicians(db: Queryable, programIds: readonly number[]) {
  const res = await db.execute<{ id: number; name: string; title: string | null; program_ids: number[] }>(sql`
    SELECT a.id, a.given_name || ' ' || a.family_name AS name, a.title,
      array_agg(DISTINCT r.program_id ORDER BY r.program_id) AS program_ids
    FROM admin_program_roles r JOIN admins a ON a.id = r.admin_id
    WHERE r.role = 'physician' AND r.program_id = ANY(${idArray(programIds)}::bigint[]) AND a.disabled_at IS NULL
    GROUP BY a.id ORDER BY a.family_name, a.given_name, a.id`);
  return res.rows.map((r) => ({ ...r, program_ids: r.program_ids.map(Number) }));
}

export async function programDetail(
  db: Queryable,
  actorId: number,
  programId: number,
): Promise<ProgramDetail | null> {
  const res = await db.execute<ProgramDetail>(sql`
    SELECT p.id, p.name, p.slug, p.type, p.modules,
      CASE WHEN e.id IS NULL THEN NULL ELSE json_build_object('id', e.id, 'name', e.name) END AS enterprise,
      EXISTS (SELECT 1 FROM logos l WHERE l.owner_type = 'program' AND l.owner_id = p.id) AS has_image,
      ${isoUtc(sql`p.created_at`)} AS created_at, ${isoUtc(sql`p.updated_at`)} AS updated_at,
      json_build_object(
        'patients', coalesce((SELECT c.patients FROM program_patient_counts c WHERE c.program_id = p.id), 0),
        'active_patients', (SELECT count(*) FROM patients x WHERE x.program_id = p.id AND x.status = 'active'),
        'staff', (SELECT count(*) FROM admins a WHERE a.disabled_at IS NULL AND (
          EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = a.id AND r.program_id = p.id)
          OR EXISTS (SELECT 1 FROM admin_enterprise_roles x WHERE x.admin_id = a.id AND x.enterprise_id = p.enterprise_id))),
        'cohorts', (SELECT count(*) FROM groups g WHERE g.program_id = p.id)
      ) AS counts,
      ${administers(actorId, sql`p`)} AS can_manage
    FROM programs p LEFT JOIN enterprises e ON e.id = p.enterprise_id
    WHERE p.id = ${programId}`);
  return res.rows[0] ?? null;
}

export async function insertProgram(
  db: Queryable,
  p: { name: string; slug: string; type: string; enterpriseId: number; modules: readonly string[] },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO programs (name, slug, type, enterprise_id, modules)
    VALUES (${p.name}, ${p.slug}, ${p.type}, ${p.enterpriseId},
      ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(p.modules)}::jsonb)))
    RETURNING id`);
  return res.rows[0]!.id;
}

export async function updateProgramRow(
  db: Queryable,
  id: number,
  p: { name?: string; slug?: string; type?: string; modules?: readonly string[] },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (p.name !== undefined) sets.push(sql`name = ${p.name}`);
  if (p.slug !== undefined) sets.push(sql`slug = ${p.slug}`);
  if (p.type !== undefined) sets.push(sql`type = ${p.type}`);
  if (p.modules !== undefined)
    sets.push(sql`modules = ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(p.modules)}::jsonb))`);
  await db.execute(sql`UPDATE programs SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
}

export async function slugTaken(db: Queryable, slug: string, exceptId?: number): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM programs WHERE slug = ${slug} ${exceptId ? sql`AND id <> ${exceptId}` : sql``}`,
  );
  return (res.rowCount ?? 0) > 0;
}

export type LogoOwner = 'program' | 'enterprise';

export async function putLogo(
  db: Queryable,
  owner: LogoOwner,
  id: number,
  logo: { contentType: string; bytes: Buffer } | null,
): Promise<void> {
  if (!logo) {
    await db.execute(sql`DELETE FROM logos WHERE owner_type = ${owner} AND owner_id = ${id}`);
    return;
  }
  await db.execute(sql`
    INSERT INTO logos (owner_type, owner_id, content_type, bytes) VALUES (${owner}, ${id}, ${logo.contentType}, ${logo.bytes})
    ON CONFLICT (owner_type, owner_id) DO UPDATE SET content_type = excluded.content_type, bytes = excluded.bytes, updated_at = now()`);
}

export async function getLogo(
  db: Queryable,
  owner: LogoOwner,
  id: number,
): Promise<{ content_type: string; bytes: Buffer; updated_at: Date } | null> {
  const res = await db.execute<{ content_type: string; bytes: Buffer; updated_at: Date }>(
    sql`SELECT content_type, bytes, updated_at FROM logos WHERE owner_type = ${owner} AND owner_id = ${id}`,
  );
  return res.rows[0] ?? null;
}

export async function enterpriseDetail(
  db: Queryable,
  actorId: number,
  enterpriseId: number,
  programIds: readonly number[],
  withRelations: boolean,
): Promise<EnterpriseDetail | null> {
  const res = await db.execute<EnterpriseDetail>(sql`
    SELECT e.id, e.name, e.slug,
      EXISTS (SELECT 1 FROM logos l WHERE l.owner_type = 'enterprise' AND l.owner_id = e.id) AS has_image,
      ${isoUtc(sql`e.created_at`)} AS created_at, ${isoUtc(sql`e.updated_at`)} AS updated_at,
      EXISTS (SELECT 1 FROM admin_enterprise_roles x WHERE x.admin_id = ${actorId} AND x.enterprise_id = e.id) AS can_manage
      ${
        withRelations
          ? sql`, coalesce((
        SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'slug', p.slug, 'type', p.type,
          'patients', coalesce((SELECT c.patients FROM program_patient_counts c WHERE c.program_id = p.id), 0),
          'staff', (SELECT count(DISTINCT r.admin_id) FROM admin_program_roles r JOIN admins a ON a.id = r.admin_id
                    WHERE r.program_id = p.id AND a.disabled_at IS NULL)) ORDER BY p.name, p.id)
        FROM programs p WHERE p.enterprise_id = e.id AND p.id = ANY(${idArray(programIds)}::bigint[])), '[]') AS programs,
      coalesce((
        SELECT json_agg(json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) ORDER BY a.family_name, a.id)
        FROM admin_enterprise_roles x JOIN admins a ON a.id = x.admin_id
        WHERE x.enterprise_id = e.id AND a.disabled_at IS NULL), '[]') AS admins`
          : sql``
      }
    FROM enterprises e WHERE e.id = ${enterpriseId}`);
  return res.rows[0] ?? null;
}

export async function updateEnterpriseRow(db: Queryable, id: number, p: { name?: string }): Promise<void> {
  await db.execute(
    sql`UPDATE enterprises SET updated_at = now() ${p.name !== undefined ? sql`, name = ${p.name}` : sql``} WHERE id = ${id}`,
  );
}

/** The audit actions an enterprise's history shows (never PHI: ids, role names, field names). */
export const HISTORY_ACTIONS = [
  'enterprise.update',
  'program.create',
  'program.update',
  'admin.update_program_roles',
  'admin.assign',
  'admin.update',
  'admin.disable',
  'admin.enable',
  'staff.create',
] as const;

export async function enterpriseHistory(
  db: Queryable,
  enterpriseId: number,
  programIds: readonly number[],
  page: { page: number; perPage: number },
): Promise<{ rows: HistoryEntry[]; total: number }> {
  const actions = `{${HISTORY_ACTIONS.join(',')}}`;
  const where = sql`
    (ev.subject_type = 'enterprise' AND ev.subject_id = ${enterpriseId} AND ev.action = ANY(${actions}::text[]))
    OR (ev.program_id = ANY(${idArray(programIds)}::bigint[]) AND ev.action = ANY(${actions}::text[]))`;
  const res = await db.execute<HistoryEntry & { total: number }>(sql`
    SELECT ev.id, ${isoUtc(sql`ev.created_at`)} AS at, ev.action,
      CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS actor,
      CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'name', p.name) END AS program,
      ev.subject_type, ev.subject_id, ev.details, count(*) OVER ()::int AS total
    FROM audit_events ev
    LEFT JOIN admins a ON a.id = ev.actor_admin_id
    LEFT JOIN programs p ON p.id = ev.program_id
    WHERE ${where}
    ORDER BY ev.id DESC
    LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`);
  const total = res.rows[0]?.total ?? 0;
  return {
    rows: res.rows.map(({ total: _t, ...r }) => ({
      ...r,
      id: Number(r.id),
      subject_id: r.subject_id === null ? null : Number(r.subject_id),
    })),
    total,
  };
}
