import type { StaffMember } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

/** Programs the staff member administers: program admin role, or enterprise admin of the program's enterprise. */
export async function administeredProgramIds(db: Queryable, adminId: number): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT p.id FROM programs p
    WHERE EXISTS (SELECT 1 FROM admin_program_roles r
                  WHERE r.admin_id = ${adminId} AND r.program_id = p.id AND r.role = 'admin')
       OR EXISTS (SELECT 1 FROM admin_enterprise_roles e
                  WHERE e.admin_id = ${adminId} AND e.enterprise_id = p.enterprise_id AND e.role = 'enterprise_admin')
    ORDER BY p.id`);
  return res.rows.map((r) => r.id);
}

export type NewStaff = {
  email: string;
  givenName: string;
  familyName: string;
  title: string | null;
  phoneNumber: string | null;
  passwordHash: string;
  programId: number;
  role: StaffMember['role'];
};

/** The account (confirmed: an administrator vouches for the address; must choose a password) and its role. */
export async function insertStaff(db: Queryable, s: NewStaff): Promise<StaffMember> {
  const res = await db.execute<Omit<StaffMember, 'created_at'> & { created_at: Date }>(sql`
    WITH admin AS (
      INSERT INTO admins (email, given_name, family_name, title, phone_number, password_hash, password_changed_at,
        must_change_password, email_confirmed_at)
      VALUES (${s.email}, ${s.givenName}, ${s.familyName}, ${s.title}, ${s.phoneNumber}, ${s.passwordHash}, now(),
        true, now())
      RETURNING id, email, given_name, family_name, title, phone_number, must_change_password, created_at
    ), grant_role AS (
      INSERT INTO admin_program_roles (admin_id, program_id, role)
      SELECT id, ${s.programId}, ${s.role} FROM admin
    )
    SELECT admin.*, ${s.programId}::bigint AS program_id, ${s.role}::text AS role FROM admin`);
  const row = res.rows[0]!;
  return { ...row, program_id: Number(row.program_id), created_at: new Date(row.created_at).toISOString() };
}

export async function programName(db: Queryable, programId: number): Promise<string> {
  const res = await db.execute<{ name: string }>(sql`SELECT name FROM programs WHERE id = ${programId}`);
  return res.rows[0]?.name ?? 'CareDeck';
}
