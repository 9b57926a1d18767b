import type { Audio, AudioAssignment, NotificationSchedule, PatientNotification } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';

/** The audio library CareDeck ships (names, languages, lengths of the reminders patients' devices play). */
const LIBRARY: Audio[] = [
  { id: 1, name: 'Morning medication reminder', language: 'en', duration_seconds: 18 },
  { id: 2, name: 'Evening medication reminder', language: 'en', duration_seconds: 17 },
  { id: 3, name: 'Blood pressure reading reminder', language: 'en', duration_seconds: 20 },
  { id: 4, name: 'Inhaler technique reminder', language: 'en', duration_seconds: 31 },
  { id: 5, name: 'Hydration reminder', language: 'en', duration_seconds: 12 },
  { id: 6, name: 'Recordatorio de medicación', language: 'es', duration_seconds: 19 },
  { id: 7, name: 'Rappel de médicament', language: 'fr', duration_seconds: 18 },
  { id: 8, name: 'Erinnerung an die Medikation', language: 'de', duration_seconds: 19 },
  { id: 9, name: 'Lembrete de medicação', language: 'pt', duration_seconds: 18 },
];

export async function loadAudioLibrary(db: Queryable): Promise<void> {
  await db.execute(sql`
    INSERT INTO audios (id, name, language, duration_seconds)
    SELECT (a->>'id')::bigint, a->>'name', a->>'language', (a->>'duration_seconds')::int
    FROM jsonb_array_elements(${JSON.stringify(LIBRARY)}::jsonb) AS a
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, language = excluded.language,
      duration_seconds = excluded.duration_seconds`);
}

export async function audioLibrary(db: Queryable): Promise<Audio[]> {
  const res = await db.execute<Audio>(
    sql`SELECT id, name, language, duration_seconds FROM audios ORDER BY language, name, id`,
  );
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function knownAudios(db: Queryable, ids: number[]): Promise<number> {
  const res = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM audios WHERE id = ANY(${idArray(ids)}::bigint[])`,
  );
  return res.rows[0]?.n ?? 0;
}

export async function patientsInProgram(db: Queryable, programId: number, ids: number[]): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM patients WHERE program_id = ${programId} AND id = ANY(${idArray(ids)}::bigint[])`);
  return res.rows[0]?.n ?? 0;
}

export async function insertAudioAssignments(
  db: Queryable,
  a: {
    programId: number;
    patientIds: number[];
    audioIds: number[];
    date: string;
    time: string;
    times: number;
    by: number;
  },
): Promise<number> {
  const res = await db.execute(sql`
    INSERT INTO audio_assignments (program_id, patient_id, audio_id, start_date, at_time, times, assigned_by)
    SELECT ${a.programId}, p, au, ${a.date}::date, ${a.time}::time, ${a.times}, ${a.by}
    FROM unnest(${idArray(a.patientIds)}::bigint[]) AS p CROSS JOIN unnest(${idArray(a.audioIds)}::bigint[]) AS au`);
  return res.rowCount ?? 0;
}

/** A patient's audio reminders in a program: the ones still to play first, then by start. */
export async function audioAssignmentsOf(
  db: Queryable,
  programId: number,
  patientId: number,
): Promise<AudioAssignment[]> {
  const res = await db.execute<AudioAssignment>(sql`
    SELECT s.id, json_build_object('id', au.id, 'name', au.name, 'language', au.language) AS audio,
      to_char(s.start_date, 'YYYY-MM-DD') AS start_date,
      to_char(s.start_date + (s.times - 1), 'YYYY-MM-DD') AS end_date,
      to_char(s.at_time, 'HH24:MI') AS at_time, s.times,
      CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS assigned_by,
      ${isoUtc(sql`s.created_at`)} AS created_at
    FROM audio_assignments s
    JOIN audios au ON au.id = s.audio_id
    LEFT JOIN admins a ON a.id = s.assigned_by
    WHERE s.program_id = ${programId} AND s.patient_id = ${patientId}
    ORDER BY (s.start_date + (s.times - 1)) < current_date, s.start_date DESC, s.id DESC
    LIMIT 200`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function notificationPatient(db: Queryable, patientId: number, programId: number) {
  const res = await db.execute<{
    first_name: string;
    phone_number: string | null;
    email: string | null;
    settings: Record<string, boolean>;
  }>(sql`
    SELECT first_name, phone_number, email, notification_settings AS settings
    FROM patients WHERE id = ${patientId} AND program_id = ${programId}`);
  return res.rows[0] ?? null;
}

/** Turns one channel on in the patient's notification settings (they opted in). */
export async function optIn(db: Queryable, patientId: number, channel: string) {
  await db.execute(sql`
    UPDATE patients SET notification_settings = notification_settings || jsonb_build_object(${channel}::text, true)
    WHERE id = ${patientId}`);
}

export async function insertNotification(
  db: Queryable,
  n: {
    programId: number;
    patientId: number;
    type: string;
    title: string;
    body: string;
    status: string;
    smsMessageId: number | null;
    sentBy: number | null;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO patient_notifications (program_id, patient_id, type, title, body, status, sms_message_id, sent_by)
    VALUES (${n.programId}, ${n.patientId}, ${n.type}, ${n.title}, ${n.body}, ${n.status}, ${n.smsMessageId}, ${n.sentBy})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

/** A patient's notifications; an SMS one shows the state of its text (queued, delivered, failed …). */
export async function notificationsOf(
  db: Queryable,
  patientId: number,
  opts: { id?: number; page: number; perPage: number },
) {
  const res = await db.execute<PatientNotification>(sql`
    SELECT n.id, n.patient_id, n.type, n.title, n.body,
      CASE WHEN s.id IS NULL THEN n.status WHEN s.status = 'received' THEN 'delivered' ELSE s.status END AS status,
      CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS sent_by,
      ${isoUtc(sql`n.created_at`)} AS created_at
    FROM patient_notifications n
    LEFT JOIN sms_messages s ON s.id = n.sms_message_id
    LEFT JOIN admins a ON a.id = n.sent_by
    WHERE n.patient_id = ${patientId} ${opts.id ? sql`AND n.id = ${opts.id}` : sql``}
    ORDER BY n.id DESC LIMIT ${opts.perPage} OFFSET ${(opts.page - 1) * opts.perPage}`);
  const total = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM patient_notifications WHERE patient_id = ${patientId}`,
  );
  return {
    rows: res.rows.map((r) => ({ ...r, id: Number(r.id), patient_id: Number(r.patient_id) })),
    total: total.rows[0]?.n ?? 0,
  };
}

/** Marks some of a staff member's messenger notifications of one program read. */
export async function readStaffNotifications(
  db: Queryable,
  adminId: number,
  programId: number,
  ids: number[],
) {
  const res = await db.execute(sql`
    UPDATE messenger_notifications n SET read_at = now()
    FROM conversations c
    WHERE c.id = n.conversation_id AND c.program_id = ${programId} AND n.admin_id = ${adminId}
      AND n.id = ANY(${idArray(ids)}::bigint[]) AND n.read_at IS NULL`);
  return res.rowCount ?? 0;
}

const SCHEDULE = sql`s.id, s.patient_id, s.type, s.title, s.body, to_char(s.at_time, 'HH24:MI') AS time, s.days,
  to_char(s.start_date, 'YYYY-MM-DD') AS start_date, to_char(s.end_date, 'YYYY-MM-DD') AS end_date,
  ${isoUtc(sql`s.next_at`)} AS next_at, s.sent, s.stopped_at IS NULL AND s.next_at IS NOT NULL AS active,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS created_by,
  ${isoUtc(sql`s.created_at`)} AS created_at`;

/** A patient's reminders in a program (or one of them): the active ones first, newest first. */
export async function schedulesOf(
  db: Queryable,
  programId: number,
  patientId: number,
  id?: number,
): Promise<NotificationSchedule[]> {
  const res = await db.execute<NotificationSchedule>(sql`
    SELECT ${SCHEDULE} FROM notification_schedules s LEFT JOIN admins a ON a.id = s.created_by
    WHERE s.program_id = ${programId} AND s.patient_id = ${patientId} ${id === undefined ? sql`` : sql`AND s.id = ${id}`}
    ORDER BY (s.stopped_at IS NULL AND s.next_at IS NOT NULL) DESC, s.id DESC LIMIT 200`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id), patient_id: Number(r.patient_id) }));
}

export async function insertSchedule(
  db: Queryable,
  s: {
    programId: number;
    patientId: number;
    type: string;
    title: string;
    body: string;
    time: string;
    days: number[];
    startDate: string;
    endDate: string | null;
    nextAt: number;
    createdBy: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO notification_schedules (program_id, patient_id, type, title, body, at_time, days, start_date, end_date, next_at, created_by)
    VALUES (${s.programId}, ${s.patientId}, ${s.type}, ${s.title}, ${s.body}, ${s.time}::time,
      ${`{${s.days.join(',')}}`}::int[], ${s.startDate}::date, ${s.endDate}::date, ${new Date(s.nextAt).toISOString()}::timestamptz, ${s.createdBy})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function stopSchedule(
  db: Queryable,
  id: number,
  programId: number,
  patientId: number,
  by: number,
) {
  const res = await db.execute(sql`
    UPDATE notification_schedules SET stopped_at = now(), stopped_by = ${by}, next_at = NULL
    WHERE id = ${id} AND program_id = ${programId} AND patient_id = ${patientId}`);
  return (res.rowCount ?? 0) > 0;
}

export type DueSchedule = {
  id: number;
  program_id: number;
  patient_id: number;
  type: 'sms' | 'email' | 'push';
  title: string;
  body: string;
  time: string;
  days: number[];
  start_date: string;
  end_date: string | null;
  time_zone: string | null;
};

/** Reminders due now, locked for this sender (another process skips them), oldest first. */
export async function dueSchedules(db: Queryable, now: Date, batch: number): Promise<DueSchedule[]> {
  const res = await db.execute<DueSchedule>(sql`
    SELECT s.id, s.program_id, s.patient_id, s.type, s.title, s.body, to_char(s.at_time, 'HH24:MI') AS time, s.days,
      to_char(s.start_date, 'YYYY-MM-DD') AS start_date, to_char(s.end_date, 'YYYY-MM-DD') AS end_date, p.time_zone
    FROM notification_schedules s JOIN patients p ON p.id = s.patient_id
    WHERE s.next_at <= ${now.toISOString()}::timestamptz AND s.stopped_at IS NULL
    ORDER BY s.next_at LIMIT ${batch} FOR UPDATE OF s SKIP LOCKED`);
  return res.rows.map((r) => ({
    ...r,
    id: Number(r.id),
    program_id: Number(r.program_id),
    patient_id: Number(r.patient_id),
  }));
}

export async function advanceSchedule(db: Queryable, id: number, nextAt: number | null, sent: boolean) {
  await db.execute(sql`
    UPDATE notification_schedules
    SET next_at = ${nextAt === null ? null : new Date(nextAt).toISOString()}::timestamptz, sent = sent + ${sent ? 1 : 0}
    WHERE id = ${id}`);
}

/** The patient's time zone (reminders follow the patient's wall clock). */
export async function patientZone(db: Queryable, patientId: number): Promise<string | null> {
  const res = await db.execute<{ time_zone: string | null }>(
    sql`SELECT time_zone FROM patients WHERE id = ${patientId}`,
  );
  return res.rows[0]?.time_zone ?? null;
}
