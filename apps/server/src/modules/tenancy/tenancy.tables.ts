import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';

export const enterprises = pgTable('enterprises', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const programs = pgTable(
  'programs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).references(() => enterprises.id),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    type: text('type').notNull().default('monitoring'),
    modules: text('modules').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('programs_type_check', sql`${t.type} IN ('monitoring', 'pharma', 'pharmacy')`),
    index('programs_enterprise_idx').on(t.enterpriseId),
  ],
);

const ROLE_CHECK = sql`IN ('admin', 'physician', 'care_coordinator', 'enterprise_admin', 'pharma', 'pharmacy')`;

/** A staff member's role in one program. */
export const adminProgramRoles = pgTable(
  'admin_program_roles',
  {
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.adminId, t.programId, t.role] }),
    index('admin_program_roles_program_idx').on(t.programId),
    check('admin_program_roles_role_check', sql`${t.role} ${ROLE_CHECK} AND ${t.role} <> 'enterprise_admin'`),
  ],
);

/** A staff member's role over a whole enterprise (enterprise_admin). */
export const adminEnterpriseRoles = pgTable(
  'admin_enterprise_roles',
  {
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    enterpriseId: bigint('enterprise_id', { mode: 'number' })
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.adminId, t.enterpriseId, t.role] }),
    check('admin_enterprise_roles_role_check', sql`${t.role} = 'enterprise_admin'`),
  ],
);

/** Page-time sessions: one row per page left (spec 02 §7 Logs). Append-only. */
export const pageSessions = pgTable(
  'page_sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id),
    programId: bigint('program_id', { mode: 'number' }),
    path: text('path').notNull(),
    timeS: bigint('time_s', { mode: 'number' }).notNull(),
    name: text('name'),
    subjectId: bigint('subject_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('page_sessions_admin_ts_idx').on(t.adminId, t.createdAt)],
);
