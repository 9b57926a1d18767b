import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export async function setAppPassword(db: Queryable, patientId: number, hash: string, adminId: number) {
  await db.execute(sql`
    INSERT INTO patient_app_accounts (patient_id, password_hash, password_set_at, password_set_by, code_hash,
      code_expires_at)
    VALUES (${patientId}, ${hash}, now(), ${adminId}, NULL, NULL)
    ON CONFLICT (patient_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, password_set_at = now(),
      password_set_by = EXCLUDED.password_set_by, code_hash = NULL, code_expires_at = NULL, updated_at = now()`);
}

/** The patient's e-mail address and the seconds since the last code was sent (null: never), locking the row. */
export async function codeTarget(
  db: Queryable,
  patientId: number,
): Promise<{ email: string | null; first_name: string; seconds_since_code: number | null } | null> {
  const res = await db.execute<{
    email: string | null;
    first_name: string;
    seconds_since_code: number | null;
  }>(sql`
    SELECT p.email, p.first_name,
      extract(epoch FROM now() - a.code_sent_at)::int AS seconds_since_code
    FROM patients p LEFT JOIN patient_app_accounts a ON a.patient_id = p.id
    WHERE p.id = ${patientId} FOR UPDATE OF p`);
  return res.rows[0] ?? null;
}

export async function storeCode(db: Queryable, patientId: number, codeHash: string, ttlMinutes: number) {
  await db.execute(sql`
    INSERT INTO patient_app_accounts (patient_id, code_hash, code_expires_at, code_sent_at)
    VALUES (${patientId}, ${codeHash}, now() + make_interval(mins => ${ttlMinutes}), now())
    ON CONFLICT (patient_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, code_expires_at = EXCLUDED.code_expires_at,
      code_sent_at = now(), updated_at = now()`);
}
