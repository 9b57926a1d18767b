import type { StaffRole } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../platform/auth/passwords';
import type { Queryable } from '../platform/db/client';

/** Factories shared by the demo seed, the tests and the benchmarks. Each inserts one row and returns it. */

export async function createEnterprise(db: Queryable, o: { name: string; slug: string }) {
  const res = await db.execute<{ id: number }>(
    sql`INSERT INTO enterprises (name, slug) VALUES (${o.name}, ${o.slug}) RETURNING id`,
  );
  return { id: res.rows[0]!.id, ...o };
}

export async function createProgram(
  db: Queryable,
  o: {
    name: string;
    slug: string;
    enterpriseId: number | null;
    type?: 'monitoring' | 'pharma' | 'pharmacy';
    modules?: string[];
  },
) {
  const modules = o.modules ?? ['patients'];
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO programs (name, slug, enterprise_id, type, modules)
    VALUES (${o.name}, ${o.slug}, ${o.enterpriseId}, ${o.type ?? 'monitoring'},
      ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(modules)}::jsonb)))
    RETURNING id`);
  return { id: res.rows[0]!.id, ...o };
}

export type AdminFactoryInput = {
  email: string;
  password: string;
  givenName?: string;
  familyName?: string;
  title?: string | null;
  programRoles?: { programId: number; role: Exclude<StaffRole, 'enterprise_admin'> }[];
  enterpriseAdminOf?: number[];
  hipaaConsented?: boolean;
  confirmed?: boolean;
  mustChangePassword?: boolean;
  passwordChangedAt?: Date;
  passwordHash?: string;
};

export async function createAdmin(db: Queryable, o: AdminFactoryInput) {
  const hash = o.passwordHash ?? (await hashPassword(o.password));
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO admins (email, given_name, family_name, title, password_hash, password_changed_at,
      must_change_password, email_confirmed_at, hipaa_consented_at)
    VALUES (${o.email.toLowerCase()}, ${o.givenName ?? 'Test'}, ${o.familyName ?? 'User'}, ${o.title ?? null}, ${hash},
      ${(o.passwordChangedAt ?? new Date()).toISOString()}, ${o.mustChangePassword ?? false},
      ${o.confirmed === false ? null : new Date().toISOString()}, ${o.hipaaConsented ? new Date().toISOString() : null})
    RETURNING id`);
  const id = res.rows[0]!.id;
  for (const r of o.programRoles ?? []) {
    await db.execute(
      sql`INSERT INTO admin_program_roles (admin_id, program_id, role) VALUES (${id}, ${r.programId}, ${r.role})`,
    );
  }
  for (const e of o.enterpriseAdminOf ?? []) {
    await db.execute(
      sql`INSERT INTO admin_enterprise_roles (admin_id, enterprise_id, role) VALUES (${id}, ${e}, 'enterprise_admin')`,
    );
  }
  return { id, email: o.email.toLowerCase(), password: o.password };
}

export async function createControllerAccount(
  db: Queryable,
  o: { email: string; name: string; password: string },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO controller_accounts (email, name, password_hash)
    VALUES (${o.email.toLowerCase()}, ${o.name}, ${await hashPassword(o.password)}) RETURNING id`);
  return { id: res.rows[0]!.id, ...o };
}

export type PatientInput = {
  programId: number;
  firstName: string;
  lastName: string;
  email?: string | null;
  phoneNumber?: string | null;
  dob?: string | null;
  sex?: 'female' | 'male' | 'other' | 'unknown';
  race?: string | null;
  ethnicity?: string | null;
  state?: string | null;
  city?: string | null;
  status?: 'active' | 'inactive' | 'pending' | 'discharged';
  assignedAdminId?: number | null;
  createdAt?: Date;
};

/** Inserts many patients in one statement (jsonb_to_recordset), as time-series and bulk data should be. */
export async function createPatients(db: Queryable, rows: PatientInput[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const payload = rows.map((r) => ({
    program_id: r.programId,
    first_name: r.firstName,
    last_name: r.lastName,
    email: r.email ?? null,
    phone_number: r.phoneNumber ?? null,
    dob: r.dob ?? null,
    sex: r.sex ?? 'unknown',
    race: r.race ?? null,
    ethnicity: r.ethnicity ?? null,
    state: r.state ?? null,
    city: r.city ?? null,
    status: r.status ?? 'active',
    active: (r.status ?? 'active') === 'active',
    assigned_admin_id: r.assignedAdminId ?? null,
    created_at: (r.createdAt ?? new Date()).toISOString(),
  }));
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO patients (program_id, first_name, last_name, email, phone_number, dob, sex, race, ethnicity, state, city,
      status, active, assigned_admin_id, created_at)
    SELECT program_id, first_name, last_name, email, phone_number, dob, sex, race, ethnicity, state, city,
      status, active, assigned_admin_id, created_at
    FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS x(
      program_id bigint, first_name text, last_name text, email text, phone_number text, dob date, sex text, race text,
      ethnicity text, state text, city text, status text, active boolean, assigned_admin_id bigint, created_at timestamptz)
    RETURNING id`);
  return res.rows.map((r) => r.id);
}
