import type { Caregiver } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

const COLUMNS = sql`c.id, c.program_id, c.first_name, c.last_name, c.first_name || ' ' || c.last_name AS name,
  c.relationship, c.phone_number, c.email, c.notes,
  to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

export async function insertCaregiver(
  db: Queryable,
  c: {
    programId: number;
    first_name: string;
    last_name: string;
    relationship: string;
    phone_number?: string | null;
    email?: string | null;
    notes?: string | null;
    createdBy: number;
  },
): Promise<Caregiver> {
  const res = await db.execute<Caregiver>(sql`
    WITH c AS (
      INSERT INTO caregivers (program_id, first_name, last_name, relationship, phone_number, email, notes, created_by)
      VALUES (${c.programId}, ${c.first_name}, ${c.last_name}, ${c.relationship}, ${c.phone_number ?? null},
        ${c.email ?? null}, ${c.notes ?? null}, ${c.createdBy})
      RETURNING *
    ) SELECT ${COLUMNS} FROM c`);
  return res.rows[0]!;
}

export async function listCaregivers(
  db: Queryable,
  programId: number,
  search?: string,
): Promise<Caregiver[]> {
  const words = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 4);
  const match: SQL = words.length
    ? sql.join(
        words.map((w) => {
          const prefix = `${w.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
          return sql`(lower(c.first_name) LIKE ${prefix} OR lower(c.last_name) LIKE ${prefix})`;
        }),
        sql` AND `,
      )
    : sql`true`;
  const res = await db.execute<Caregiver>(sql`
    SELECT ${COLUMNS} FROM caregivers c WHERE c.program_id = ${programId} AND ${match}
    ORDER BY c.last_name, c.first_name, c.id LIMIT 50`);
  return res.rows;
}

export async function caregiversOfPatient(db: Queryable, patientId: number): Promise<Caregiver[]> {
  const res = await db.execute<Caregiver>(sql`
    SELECT ${COLUMNS} FROM patient_caregivers pc JOIN caregivers c ON c.id = pc.caregiver_id
    WHERE pc.patient_id = ${patientId} ORDER BY c.last_name, c.first_name, c.id`);
  return res.rows;
}

export async function caregiverInProgram(db: Queryable, caregiverId: number, programId: number) {
  const res = await db.execute(
    sql`SELECT 1 FROM caregivers WHERE id = ${caregiverId} AND program_id = ${programId}`,
  );
  return (res.rowCount ?? 0) > 0;
}

export async function linkCaregiver(db: Queryable, patientId: number, caregiverId: number): Promise<boolean> {
  const res = await db.execute(sql`
    INSERT INTO patient_caregivers (patient_id, caregiver_id) VALUES (${patientId}, ${caregiverId}) ON CONFLICT DO NOTHING`);
  return (res.rowCount ?? 0) > 0;
}

export async function unlinkCaregiver(
  db: Queryable,
  patientId: number,
  caregiverId: number,
): Promise<boolean> {
  const res = await db.execute(
    sql`DELETE FROM patient_caregivers WHERE patient_id = ${patientId} AND caregiver_id = ${caregiverId}`,
  );
  return (res.rowCount ?? 0) > 0;
}
