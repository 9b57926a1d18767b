import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { unique } from '../../seed/unique';

/** Patient factories (`given.patient()`, `given.patients()`), shared by tests, the demo seed and the bench. */

export type PatientInput = {
  programId: number;
  firstName?: string;
  lastName?: string;
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
  /** IANA zone of the patient (dose times are read in it). */
  timeZone?: string | null;
};

/** Inserts many patients in one statement (jsonb_to_recordset), as time-series and bulk data should be. */
export async function createPatients(db: Queryable, rows: PatientInput[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const payload = rows.map((r) => ({
    program_id: r.programId,
    first_name: r.firstName ?? 'Test',
    last_name: r.lastName ?? `Patient ${unique()}`,
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
    time_zone: r.timeZone ?? null,
  }));
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO patients (program_id, first_name, last_name, email, phone_number, dob, sex, race, ethnicity, state, city,
      status, active, assigned_admin_id, created_at, time_zone)
    SELECT program_id, first_name, last_name, email, phone_number, dob, sex, race, ethnicity, state, city,
      status, active, assigned_admin_id, created_at, time_zone
    FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS x(
      program_id bigint, first_name text, last_name text, email text, phone_number text, dob date, sex text, race text,
      ethnicity text, state text, city text, status text, active boolean, assigned_admin_id bigint, created_at timestamptz,
      time_zone text)
    RETURNING id`);
  return res.rows.map((r) => r.id);
}

/** One patient (`given.patient({ programId })`). */
export async function createPatient(db: Queryable, input: PatientInput) {
  const [id] = await createPatients(db, [input]);
  return { id: id! };
}
