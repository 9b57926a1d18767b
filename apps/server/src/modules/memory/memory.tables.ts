import { sql } from 'drizzle-orm';
import { bigint, check, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { programs } from '../tenancy/tenancy.tables';

/** Settings a staff member keeps per module and program (02 §3 user memory; saved worklist views). */
export const userMemory = pgTable(
  'user_memory',
  {
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    moduleName: text('module_name').notNull(),
    defaultSettings: jsonb('default_settings').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.adminId, t.programId, t.moduleName] }),
    check('user_memory_module_check', sql`${t.moduleName} IN ('messenger', 'billings', 'patients')`),
  ],
);
