import type {
  AuditHistoryItem,
  CreatePatientInput,
  DuplicateMatch,
  NotificationSettings,
  PatientRecord,
  PatientSearchItem,
  StatusHistoryEntry,
  UpdatePatientInput,
} from '@caredeck/contracts';
import { isCalendarDay } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { escapeLike } from '../../platform/db/like';
import { mrnMatch } from './patients.queries';

/** Columns a client may write, wire name → column. */
const WRITABLE: Record<keyof UpdatePatientInput, string> = {
  first_name: 'first_name',
  middle_name: 'middle_name',
  last_name: 'last_name',
  mrn: 'mrn',
  dob: 'dob',
  sex: 'sex',
  race: 'race',
  ethnicity: 'ethnicity',
  income: 'income',
  language: 'language',
  email: 'email',
  phone_number: 'phone_number',
  address_line1: 'address_line1',
  address_line2: 'address_line2',
  city: 'city',
  state: 'state',
  zip: 'zip',
  time_zone: 'time_zone',
  physician_id: 'physician_id',
  assigned_admin_id: 'assigned_admin_id',
  consent_at: 'consent_at',
  consent_method: 'consent_method',
};

/** The record as the API answers it: one statement, programs and people joined in. */
function recordSelect(where: SQL): SQL {
  return sql`
    SELECT p.id, p.program_id,
      coalesce((
        SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.id = p.program_id DESC, g.name)
        FROM patient_programs pp JOIN programs g ON g.id = pp.program_id WHERE pp.patient_id = p.id
      ), '[]'::json) AS programs,
      p.mrn, p.first_name, p.middle_name, p.last_name,
      concat_ws(' ', p.first_name, p.middle_name, p.last_name) AS name,
      p.dob, date_part('year', age(p.dob))::int AS age, p.sex, p.race, p.ethnicity, p.income, p.language,
      p.email, p.phone_number, p.address_line1, p.address_line2, p.city, p.state, p.zip, p.time_zone,
      CASE WHEN ph.id IS NULL THEN NULL ELSE json_build_object('id', ph.id, 'name', ph.given_name || ' ' || ph.family_name) END AS physician,
      CASE WHEN aa.id IS NULL THEN NULL ELSE json_build_object('id', aa.id, 'name', aa.given_name || ' ' || aa.family_name) END AS assigned_admin,
      to_char(p.consent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS consent_at, p.consent_method,
      p.status, p.active, p.deactivated_at, p.notification_settings,
      p.app_password_hash IS NOT NULL AS has_app_password,
      p.follow_up_at AS follow_up, p.created_at, p.updated_at
    FROM patients p
    LEFT JOIN admins ph ON ph.id = p.physician_id
    LEFT JOIN admins aa ON aa.id = p.assigned_admin_id
    WHERE ${where}`;
}

type RecordRow = Omit<PatientRecord, 'deactivated_at' | 'follow_up' | 'created_at' | 'updated_at'> & {
  deactivated_at: Date | string | null;
  follow_up: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function toRecord(row: RecordRow): PatientRecord {
  return {
    ...row,
    deactivated_at: iso(row.deactivated_at),
    follow_up: iso(row.follow_up),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** The patient, when it belongs to the given program (its home program). */
export async function findPatientInProgram(
  db: Queryable,
  patientId: number,
  programId: number,
): Promise<PatientRecord | null> {
  const res = await db.execute<RecordRow>(
    recordSelect(sql`p.id = ${patientId} AND p.program_id = ${programId}`),
  );
  return res.rows[0] ? toRecord(res.rows[0]) : null;
}

export async function insertPatient(
  db: Queryable,
  programId: number,
  input: CreatePatientInput,
): Promise<number> {
  const entries = Object.entries(WRITABLE).filter(
    ([key]) => input[key as keyof CreatePatientInput] !== undefined,
  );
  const columns = entries.map(([, column]) => sql.raw(column));
  const values = entries.map(([key]) => sql`${input[key as keyof CreatePatientInput] ?? null}`);
  const status = input.status ?? 'active';
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO patients (program_id, status, active, ${sql.join(columns, sql`, `)})
    VALUES (${programId}, ${status}, ${status !== 'inactive'}, ${sql.join(values, sql`, `)})
    RETURNING id`);
  return res.rows[0]!.id;
}

/** Writes the fields present in the input; returns the names of the fields whose value changed. */
export async function updatePatientFields(
  db: Queryable,
  patientId: number,
  input: UpdatePatientInput,
): Promise<string[]> {
  const entries = Object.entries(WRITABLE).filter(
    ([key]) => input[key as keyof UpdatePatientInput] !== undefined,
  );
  if (entries.length === 0) return [];
  const changed = entries.map(
    ([key, column]) =>
      sql`CASE WHEN old.${sql.raw(column)} IS DISTINCT FROM ${input[key as keyof UpdatePatientInput] ?? null} THEN ${key} END`,
  );
  const sets = entries.map(
    ([key, column]) => sql`${sql.raw(column)} = ${input[key as keyof UpdatePatientInput] ?? null}`,
  );
  const res = await db.execute<{ changed: (string | null)[] }>(sql`
    WITH old AS (SELECT * FROM patients WHERE id = ${patientId} FOR UPDATE)
    UPDATE patients p SET ${sql.join(sets, sql`, `)}, updated_at = now()
    FROM old WHERE p.id = old.id
    RETURNING ARRAY[${sql.join(changed, sql`, `)}]::text[] AS changed`);
  return (res.rows[0]?.changed ?? []).filter((c): c is string => c !== null);
}

/** Whether another patient of the program already has this MRN (case-insensitive). */
export async function mrnTaken(db: Queryable, programId: number, mrn: string, exceptId: number | null) {
  const res = await db.execute(sql`
    SELECT 1 FROM patients WHERE program_id = ${programId} AND lower(mrn) = lower(${mrn})
      AND (${exceptId}::bigint IS NULL OR id <> ${exceptId})`);
  return (res.rowCount ?? 0) > 0;
}

/** Staff ids that do not work in the program (a role there or enterprise admin of its enterprise). */
export async function staffOutsideProgram(db: Queryable, programId: number, staffIds: number[]) {
  if (staffIds.length === 0) return [];
  const res = await db.execute<{ id: number }>(sql`
    SELECT x.id FROM unnest(${idArray(staffIds)}::bigint[]) AS x(id)
    WHERE NOT EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = x.id AND r.program_id = ${programId})
      AND NOT EXISTS (
        SELECT 1 FROM admin_enterprise_roles e JOIN programs g ON g.enterprise_id = e.enterprise_id
        WHERE e.admin_id = x.id AND g.id = ${programId})`);
  return res.rows.map((r) => r.id);
}

/** Possible duplicates in the programs given: same name and birth date, or same e-mail, phone or MRN. */
export async function findDuplicates(
  db: Queryable,
  programIds: number[],
  probe: {
    exceptId: number;
    firstName?: string;
    lastName?: string;
    dob?: string;
    email?: string;
    phone?: string | null;
    mrn?: string;
  },
): Promise<DuplicateMatch[]> {
  const nameDob =
    probe.firstName && probe.lastName && probe.dob
      ? sql`(lower(p.first_name) = lower(${probe.firstName}) AND lower(p.last_name) = lower(${probe.lastName}) AND p.dob = ${probe.dob}::date)`
      : sql`false`;
  const email = probe.email ? sql`(lower(p.email) = ${probe.email})` : sql`false`;
  const phone = probe.phone ? sql`(p.phone_number = ${probe.phone})` : sql`false`;
  const mrn = probe.mrn ? sql`(lower(p.mrn) = lower(${probe.mrn}))` : sql`false`;
  const res = await db.execute<DuplicateMatch>(sql`
    SELECT p.id, concat_ws(' ', p.first_name, p.middle_name, p.last_name) AS name, p.dob, p.mrn, p.active,
      json_build_object('id', g.id, 'name', g.name) AS program,
      array_remove(ARRAY[
        CASE WHEN ${nameDob} THEN 'name_dob' END, CASE WHEN ${email} THEN 'email' END,
        CASE WHEN ${phone} THEN 'phone' END, CASE WHEN ${mrn} THEN 'mrn' END
      ], NULL) AS reasons
    FROM patients p JOIN programs g ON g.id = p.program_id
    WHERE p.program_id = ANY(${idArray(programIds)}::bigint[]) AND p.id <> ${probe.exceptId}
      AND (${nameDob} OR ${email} OR ${phone} OR ${mrn})
    ORDER BY p.last_name, p.first_name, p.id
    LIMIT 10`);
  return res.rows;
}

export async function setActive(db: Queryable, patientId: number, active: boolean): Promise<void> {
  await db.execute(sql`
    UPDATE patients SET active = ${active},
      status = CASE WHEN ${active} THEN CASE WHEN status = 'inactive' THEN 'active' ELSE status END ELSE 'inactive' END,
      deactivated_at = CASE WHEN ${active} THEN NULL ELSE coalesce(deactivated_at, now()) END,
      updated_at = now()
    WHERE id = ${patientId}`);
}

/** How a status change was made, as the status log shows it (ADR 047). */
export type StatusChangeSource = 'enrolment' | 'single' | 'bulk' | 'bulk_action' | 'activation';

/**
 * Sets the status of the patients given and records each change in their history (the status before it, how it
 * was made, the reason if any); returns how many changed. Patients that already have the status are left alone.
 */
export async function setStatuses(
  db: Queryable,
  patientIds: number[],
  status: string,
  adminId: number,
  how: { source: Exclude<StatusChangeSource, 'enrolment' | 'activation'>; reason?: string | null },
): Promise<number> {
  // The rows are locked first so that the status read as "before" is the one this statement replaces.
  const res = await db.execute(sql`
    WITH target AS (
      SELECT id, status AS previous_status FROM patients
      WHERE id = ANY(${idArray(patientIds)}::bigint[]) AND status <> ${status}
      FOR UPDATE
    ), changed AS (
      UPDATE patients p SET status = ${status}, active = ${status !== 'inactive'},
        deactivated_at = CASE WHEN ${status} = 'inactive' THEN coalesce(p.deactivated_at, now()) ELSE NULL END,
        updated_at = now()
      FROM target t WHERE p.id = t.id
      RETURNING p.id, p.program_id, t.previous_status
    )
    INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, reason, admin_id)
    SELECT id, program_id, previous_status, ${status}, ${how.source}, ${how.reason ?? null}, ${adminId} FROM changed`);
  return res.rowCount ?? 0;
}

/** Records the patient's current status in their history: at enrolment, or after an (in)activation changed it. */
export async function recordStatus(
  db: Queryable,
  patientId: number,
  adminId: number | null,
  how: { source: 'enrolment' } | { source: 'activation'; previous: string },
) {
  await db.execute(sql`
    INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, admin_id)
    SELECT id, program_id, ${how.source === 'activation' ? how.previous : null}, status, ${how.source}, ${adminId}
    FROM patients WHERE id = ${patientId}`);
}

/** The patient's status and their status history, newest first, with how each change was made and its reason. */
export async function statusOf(db: Queryable, patientId: number) {
  const res = await db.execute<{
    id: number;
    status: PatientRecord['status'];
    active: boolean;
    history: StatusHistoryEntry[];
  }>(sql`
    SELECT p.id, p.status, p.active,
      coalesce((
        SELECT json_agg(json_build_object(
          'status', h.status, 'at', to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'by', CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END,
          'source', h.source, 'reason', h.reason
        ) ORDER BY h.id DESC)
        FROM patient_status_history h LEFT JOIN admins a ON a.id = h.admin_id WHERE h.patient_id = p.id
      ), '[]'::json) AS history
    FROM patients p WHERE p.id = ${patientId}`);
  return res.rows[0] ?? null;
}

/** Patients among the ids that sit in a program where the admin holds a role (or administers its enterprise). */
export async function patientsWithin(
  db: Queryable,
  adminId: number,
  patientIds: number[],
): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT p.id FROM patients p JOIN programs g ON g.id = p.program_id
    WHERE p.id = ANY(${idArray(patientIds)}::bigint[])
      AND (EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = ${adminId} AND r.program_id = p.program_id)
        OR EXISTS (SELECT 1 FROM admin_enterprise_roles e WHERE e.admin_id = ${adminId} AND e.enterprise_id = g.enterprise_id))`);
  return res.rows.map((r) => r.id);
}

/** The programs among the ids where the admin holds a role, with their enterprise. */
export async function programsOfAdmin(db: Queryable, adminId: number, programIds: number[]) {
  const res = await db.execute<{ id: number; enterprise_id: number | null }>(sql`
    SELECT g.id, g.enterprise_id FROM programs g
    WHERE g.id = ANY(${idArray(programIds)}::bigint[])
      AND (EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = ${adminId} AND r.program_id = g.id)
        OR EXISTS (SELECT 1 FROM admin_enterprise_roles e WHERE e.admin_id = ${adminId} AND e.enterprise_id = g.enterprise_id))`);
  return res.rows;
}

export async function moveHomeProgram(
  db: Queryable,
  patientId: number,
  from: number,
  to: number,
): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE patients SET program_id = ${to}, updated_at = now() WHERE id = ${patientId} AND program_id = ${from}`);
  if (!res.rowCount) return false;
  await db.execute(
    sql`DELETE FROM patient_programs WHERE patient_id = ${patientId} AND program_id = ${from}`,
  );
  // The status log follows the patient: the new program sees their history, the old one no longer does (ADR 047).
  await db.execute(
    sql`UPDATE patient_status_history SET program_id = ${to} WHERE patient_id = ${patientId} AND program_id = ${from}`,
  );
  return true;
}

export async function replaceEnrolments(
  db: Queryable,
  patientId: number,
  programIds: number[],
): Promise<void> {
  await db.execute(sql`
    DELETE FROM patient_programs WHERE patient_id = ${patientId}
      AND program_id <> ALL(${idArray(programIds)}::bigint[])`);
  await db.execute(sql`
    INSERT INTO patient_programs (patient_id, program_id)
    SELECT ${patientId}, x FROM unnest(${idArray(programIds)}::bigint[]) AS x ON CONFLICT DO NOTHING`);
}

export async function updateNotificationSettings(
  db: Queryable,
  patientId: number,
  changes: Partial<NotificationSettings>,
): Promise<NotificationSettings> {
  const res = await db.execute<{ notification_settings: NotificationSettings }>(sql`
    UPDATE patients SET notification_settings = notification_settings || ${JSON.stringify(changes)}::jsonb, updated_at = now()
    WHERE id = ${patientId} RETURNING notification_settings`);
  return res.rows[0]!.notification_settings;
}

export async function auditHistory(db: Queryable, patientId: number, page: number, perPage: number) {
  const res = await db.execute<AuditHistoryItem & { total: number }>(sql`
    SELECT e.id, e.action, e.details, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
      CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS actor,
      count(*) OVER () AS total
    FROM audit_events e LEFT JOIN admins a ON a.id = e.actor_admin_id
    WHERE e.subject_type = 'patient' AND e.subject_id = ${patientId}
    ORDER BY e.id DESC
    LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`);
  const total = res.rows[0]?.total ?? (page === 1 ? 0 : await countAudit(db, patientId));
  return { rows: res.rows.map(({ total: _t, ...row }) => row), total };
}

async function countAudit(db: Queryable, patientId: number): Promise<number> {
  const res = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM audit_events WHERE subject_type = 'patient' AND subject_id = ${patientId}`,
  );
  return res.rows[0]?.n ?? 0;
}

/** Name (every word a prefix of a name part), MRN or birth date (YYYY-MM-DD) across the programs given. */
export async function searchPatients(
  db: Queryable,
  programIds: number[],
  search: string,
  limit: number,
): Promise<PatientSearchItem[]> {
  // "Becker, Lynn" (as the list shows names) is two words.
  const words = search
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, 4);
  if (words.length === 0) return [];
  const isDate = isCalendarDay(search);
  const nameMatch = sql.join(
    words.map(
      (w) =>
        sql`(lower(p.first_name) LIKE ${`${escapeLike(w)}%`} OR lower(p.last_name) LIKE ${`${escapeLike(w)}%`} OR lower(coalesce(p.middle_name, '')) LIKE ${`${escapeLike(w)}%`})`,
    ),
    sql` AND `,
  );
  const res = await db.execute<PatientSearchItem>(sql`
    SELECT p.id, concat_ws(' ', p.first_name, p.middle_name, p.last_name) AS name, p.mrn, p.dob, p.status,
      json_build_object('id', g.id, 'name', g.name) AS program
    FROM patients p JOIN programs g ON g.id = p.program_id
    WHERE p.program_id = ANY(${idArray(programIds)}::bigint[])
      AND (${nameMatch} OR ${mrnMatch(search)} ${isDate ? sql`OR p.dob = ${search}::date` : sql``})
    ORDER BY p.active DESC, p.last_name, p.first_name, p.id
    LIMIT ${limit}`);
  return res.rows;
}

/** The programs the admin works in (roles, or every program of the enterprises they administer). */
export async function programIdsOfAdmin(db: Queryable, adminId: number): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT g.id FROM programs g
    WHERE EXISTS (SELECT 1 FROM admin_program_roles r WHERE r.admin_id = ${adminId} AND r.program_id = g.id)
       OR EXISTS (SELECT 1 FROM admin_enterprise_roles e WHERE e.admin_id = ${adminId} AND e.enterprise_id = g.enterprise_id)`);
  return res.rows.map((r) => r.id);
}

export async function allPatientsOfProgram(db: Queryable, programId: number) {
  const res = await db.execute<{
    id: number;
    first_name: string;
    last_name: string;
    mrn: string | null;
    dob: string | null;
    status: PatientRecord['status'];
  }>(sql`
    SELECT id, first_name, last_name, mrn, dob, status FROM patients WHERE program_id = ${programId}
    ORDER BY last_name, first_name, id`);
  return res.rows;
}

/** Assigns (or, with null, unassigns) the patients given to one staff member; returns how many changed. */
export async function assignPatients(
  db: Queryable,
  patientIds: number[],
  adminId: number | null,
): Promise<number> {
  const res = await db.execute(sql`
    UPDATE patients SET assigned_admin_id = ${adminId}, updated_at = now()
    WHERE id = ANY(${idArray(patientIds)}::bigint[]) AND assigned_admin_id IS DISTINCT FROM ${adminId}`);
  return res.rowCount ?? 0;
}
