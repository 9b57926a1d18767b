import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export type MemoryRow = {
  module_name: 'messenger' | 'billings' | 'patients';
  program_id: number;
  default_settings: Record<string, unknown>;
  updated_at: Date;
};

const COLUMNS = sql`module_name, program_id, default_settings, updated_at`;

export async function findMemory(db: Queryable, adminId: number, programId: number, module: string) {
  const res = await db.execute<MemoryRow>(sql`
    SELECT ${COLUMNS} FROM user_memory WHERE admin_id = ${adminId} AND program_id = ${programId} AND module_name = ${module}`);
  return res.rows[0] ?? null;
}

/** Replaces the settings, or (merge) replaces only the given top-level keys; one statement, race-free. */
export async function upsertMemory(
  db: Queryable,
  m: {
    adminId: number;
    programId: number;
    module: string;
    settings: Record<string, unknown>;
    merge: boolean;
  },
) {
  const value = JSON.stringify(m.settings);
  const res = await db.execute<MemoryRow>(sql`
    INSERT INTO user_memory (admin_id, program_id, module_name, default_settings)
    VALUES (${m.adminId}, ${m.programId}, ${m.module}, ${value}::jsonb)
    ON CONFLICT (admin_id, program_id, module_name) DO UPDATE SET
      default_settings = ${m.merge ? sql`user_memory.default_settings || ${value}::jsonb` : sql`${value}::jsonb`},
      updated_at = now()
    RETURNING ${COLUMNS}`);
  return res.rows[0]!;
}

export async function deleteMemory(db: Queryable, adminId: number, programId: number, module: string) {
  await db.execute(sql`
    DELETE FROM user_memory WHERE admin_id = ${adminId} AND program_id = ${programId} AND module_name = ${module}`);
}
