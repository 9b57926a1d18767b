import type { StaffRole } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../platform/auth/passwords';
import type { Queryable } from '../../platform/db/client';
import { unique } from '../../seed/unique';

/** Identity factories (`given.admin()`, `given.controllerAccount()`), shared by tests, the demo seed and the bench. */

export type AdminFactoryInput = {
  email?: string;
  password?: string;
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

/** A test password that passes the password policy. */
export const FACTORY_PASSWORD = 'Factory-pass-2026!';

export async function createAdmin(db: Queryable, input: AdminFactoryInput = {}) {
  const o = {
    ...input,
    email: input.email ?? `staff-${unique()}@example.test`,
    password: input.password ?? FACTORY_PASSWORD,
  };
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
  input: { email?: string; name?: string; password?: string } = {},
) {
  const o = {
    email: input.email ?? `controller-${unique()}@example.test`,
    name: input.name ?? 'Controller',
    password: input.password ?? FACTORY_PASSWORD,
  };
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO controller_accounts (email, name, password_hash)
    VALUES (${o.email.toLowerCase()}, ${o.name}, ${await hashPassword(o.password)}) RETURNING id`);
  return { id: res.rows[0]!.id, ...o };
}
