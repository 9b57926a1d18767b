import type { MedRecItem } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const ITEM = sql`m.id, m.name, m.strength, m.dose, m.frequency, m.route, m.indication, m.prescriber, m.start_date,
  m.last_taken, m.source, m.notes, m.archived, ${ts(sql`m.updated_at`)} AS updated_at,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS updated_by`;

const COLUMNS = {
  name: 'name',
  strength: 'strength',
  dose: 'dose',
  frequency: 'frequency',
  route: 'route',
  indication: 'indication',
  prescriber: 'prescriber',
  start_date: 'start_date',
  last_taken: 'last_taken',
  source: 'source',
  notes: 'notes',
} as const;
export type MedRecKey = keyof typeof COLUMNS;

export async function medRecItems(db: Queryable, patientId: number, id?: number): Promise<MedRecItem[]> {
  const res = await db.execute<MedRecItem>(sql`
    SELECT ${ITEM} FROM med_rec_items m LEFT JOIN admins a ON a.id = m.updated_by
    WHERE m.patient_id = ${patientId} ${id ? sql`AND m.id = ${id}` : sql``}
    ORDER BY m.archived, lower(m.name), m.id`);
  return res.rows;
}

export async function medRecStatusOf(db: Queryable, patientId: number) {
  const res = await db.execute<{
    method: string | null;
    reconciled_at: string | null;
    reconciled_by: { id: number; name: string } | null;
  }>(sql`
    SELECT s.method, ${ts(sql`s.reconciled_at`)} AS reconciled_at,
      CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS reconciled_by
    FROM med_rec_status s LEFT JOIN admins a ON a.id = s.reconciled_by WHERE s.patient_id = ${patientId}`);
  return res.rows[0] ?? { method: null, reconciled_at: null, reconciled_by: null };
}

export async function insertMedRecItem(
  db: Queryable,
  patientId: number,
  programId: number,
  adminId: number,
  values: Partial<Record<MedRecKey, string | null>>,
): Promise<number> {
  const keys = (Object.keys(COLUMNS) as MedRecKey[]).filter((k) => values[k] !== undefined);
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO med_rec_items (patient_id, program_id, updated_by, ${sql.join(
      keys.map((k) => sql.raw(COLUMNS[k])),
      sql`, `,
    )})
    VALUES (${patientId}, ${programId}, ${adminId}, ${sql.join(
      keys.map((k) => sql`${values[k] ?? null}`),
      sql`, `,
    )})
    RETURNING id`);
  return res.rows[0]!.id;
}

export async function updateMedRecItem(
  db: Queryable,
  patientId: number,
  id: number,
  adminId: number,
  values: Partial<Record<MedRecKey, string | null>>,
): Promise<boolean> {
  const keys = (Object.keys(COLUMNS) as MedRecKey[]).filter((k) => values[k] !== undefined);
  const sets = keys.map((k) => sql`${sql.raw(COLUMNS[k])} = ${values[k] ?? null}`);
  const res = await db.execute(sql`
    UPDATE med_rec_items SET ${sql.join([...sets, sql`updated_by = ${adminId}`, sql`updated_at = now()`], sql`, `)}
    WHERE id = ${id} AND patient_id = ${patientId}`);
  return (res.rowCount ?? 0) > 0;
}

export async function toggleArchived(db: Queryable, patientId: number, id: number, adminId: number) {
  const res = await db.execute(sql`
    UPDATE med_rec_items SET archived = NOT archived, updated_by = ${adminId}, updated_at = now()
    WHERE id = ${id} AND patient_id = ${patientId}`);
  return (res.rowCount ?? 0) > 0;
}

export async function setMethod(db: Queryable, patientId: number, method: string, adminId: number) {
  await db.execute(sql`
    INSERT INTO med_rec_status (patient_id, method, reconciled_at, reconciled_by)
    VALUES (${patientId}, ${method}, now(), ${adminId})
    ON CONFLICT (patient_id) DO UPDATE SET method = EXCLUDED.method, reconciled_at = now(),
      reconciled_by = EXCLUDED.reconciled_by`);
}
