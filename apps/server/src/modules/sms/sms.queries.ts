import type { GroupMessage, TempThread } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { pageOfHits } from '../../platform/db/page';
import { isoUtc } from '../../platform/db/time';

export type SmsRow = {
  id: number;
  patient_id: number | null;
  phone: string;
  direction: 'outbound' | 'inbound';
  body: string;
  kind: string;
  status: 'queued' | 'sent' | 'delivered' | 'failed' | 'received' | 'blocked';
  attempts: number;
  is_read: boolean;
  sent_by: { id: number; name: string } | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
};

const COLUMNS = sql`s.id, s.patient_id, s.phone, s.direction, s.body, s.kind, s.status, s.attempts, s.is_read,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS sent_by,
  ${isoUtc(sql`s.created_at`)} AS created_at, ${isoUtc(sql`s.sent_at`)} AS sent_at, ${isoUtc(sql`s.delivered_at`)} AS delivered_at`;

function select(where: SQL, order: SQL, limit: number, offset = 0): SQL {
  return sql`SELECT ${COLUMNS} FROM sms_messages s LEFT JOIN admins a ON a.id = s.sent_by
    WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * Queues one outbound text inside the caller's transaction (delivery happens after commit). A phone that
 * opted out gets nothing: the row is kept as `blocked`, so the thread shows why.
 */
export async function queueSms(
  db: Queryable,
  m: {
    programId: number;
    patientId: number | null;
    phone: string;
    body: string;
    kind: string;
    sentBy: number | null;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO sms_messages (program_id, patient_id, phone, direction, body, kind, status, sent_by, is_read)
    VALUES (${m.programId}, ${m.patientId}, ${m.phone}, 'outbound', ${m.body}, ${m.kind},
      CASE WHEN EXISTS (SELECT 1 FROM sms_opt_outs o WHERE o.phone = ${m.phone}) THEN 'blocked' ELSE 'queued' END,
      ${m.sentBy}, true)
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function smsById(db: Queryable, id: number): Promise<SmsRow | null> {
  const res = await db.execute<SmsRow>(select(sql`s.id = ${id}`, sql`s.id`, 1));
  return res.rows[0] ?? null;
}

export async function patientThread(db: Queryable, patientId: number, page: number, perPage: number) {
  const res = await db.execute<SmsRow>(
    select(sql`s.patient_id = ${patientId}`, sql`s.id DESC`, perPage, (page - 1) * perPage),
  );
  const total = await db.execute<{ n: number; unread: number }>(sql`
    SELECT count(*)::int AS n, count(*) FILTER (WHERE direction = 'inbound' AND NOT is_read)::int AS unread
    FROM sms_messages WHERE patient_id = ${patientId}`);
  return { rows: res.rows, total: total.rows[0]?.n ?? 0, unread: total.rows[0]?.unread ?? 0 };
}

export async function markPatientRead(db: Queryable, patientId: number): Promise<number> {
  const res = await db.execute(sql`
    UPDATE sms_messages SET is_read = true WHERE patient_id = ${patientId} AND direction = 'inbound' AND NOT is_read`);
  return res.rowCount ?? 0;
}

/** The program that last texted a phone (where a reply from an unknown number belongs). */
export async function lastProgramTexting(db: Queryable, phone: string): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(sql`
    SELECT program_id FROM sms_messages WHERE phone = ${phone} AND direction = 'outbound' AND program_id IS NOT NULL
    ORDER BY id DESC LIMIT 1`);
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function providerIdSeen(db: Queryable, providerId: string): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM sms_messages WHERE provider_id = ${providerId} AND direction = 'inbound'`,
  );
  return (res.rowCount ?? 0) > 0;
}

/** The unknown numbers of some programs, one row per program and phone: unread first, then the latest. */
export async function tempThreads(db: Queryable, programIds: number[]): Promise<TempThread[]> {
  const res = await db.execute<TempThread>(sql`
    SELECT t.phone, t.program_id, l.body AS last_body, l.direction AS last_direction,
      ${isoUtc(sql`l.created_at`)} AS last_at, t.unread, t.total
    FROM (
      SELECT s.program_id, s.phone, max(s.id) AS last_id,
        (count(*) FILTER (WHERE s.direction = 'inbound' AND NOT s.is_read))::int AS unread, count(*)::int AS total
      FROM sms_messages s
      WHERE s.patient_id IS NULL AND s.program_id = ANY(${idArray(programIds)}::bigint[])
      GROUP BY s.program_id, s.phone
    ) t JOIN sms_messages l ON l.id = t.last_id
    ORDER BY t.unread > 0 DESC, t.last_id DESC
    LIMIT 200`);
  return res.rows.map((r) => ({ ...r, program_id: Number(r.program_id) }));
}

/** Inbound texts from unknown numbers to a program, by phone (temp messages). */
export async function tempMessages(db: Queryable, programIds: number[] | null, phone: string | null) {
  const scope = programIds ? sql`s.program_id = ANY(${idArray(programIds)}::bigint[])` : sql`true`;
  const res = await db.execute<SmsRow & { program_id: number }>(sql`
    SELECT ${COLUMNS}, s.program_id FROM sms_messages s LEFT JOIN admins a ON a.id = s.sent_by
    WHERE s.patient_id IS NULL AND ${scope} ${phone ? sql`AND s.phone = ${phone}` : sql``}
    ORDER BY s.id DESC LIMIT 500`);
  return res.rows;
}

/**
 * Marks temp messages read, all or none: null (nothing changed) when any id is not a temp message of
 * `programIds` (ADR 062: ids of another tenant's objects answer 404).
 */
export async function markTempRead(
  db: Queryable,
  programIds: number[],
  ids: number[],
): Promise<number[] | null> {
  const unique = [...new Set(ids)];
  const res = await db.execute<{ id: number }>(sql`
    WITH visible AS (
      SELECT id FROM sms_messages
      WHERE id = ANY(${idArray(unique)}::bigint[]) AND patient_id IS NULL
        AND program_id = ANY(${idArray(programIds)}::bigint[])
    )
    UPDATE sms_messages SET is_read = true
    WHERE id IN (SELECT id FROM visible) AND (SELECT count(*) FROM visible) = ${unique.length}
    RETURNING id`);
  if (res.rows.length !== unique.length) return null;
  return res.rows.map((r) => Number(r.id));
}

export async function insertInbound(
  db: Queryable,
  m: {
    programId: number | null;
    patientId: number | null;
    phone: string;
    body: string;
    providerId: string | null;
    kind: string;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO sms_messages (program_id, patient_id, phone, direction, body, kind, status, provider_id)
    VALUES (${m.programId}, ${m.patientId}, ${m.phone}, 'inbound', ${m.body}, ${m.kind}, 'received', ${m.providerId})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

/** A patient of the program, with the phone texts go to; null for any other patient. */
export async function patientOfProgram(db: Queryable, patientId: number, programId: number) {
  const res = await db.execute<{ phone_number: string | null }>(sql`
    SELECT phone_number FROM patients WHERE id = ${patientId} AND program_id = ${programId}`);
  return res.rows[0] ?? null;
}

/** The patient a phone belongs to (newest record first when several programs share a number). */
export async function patientsByPhone(db: Queryable, phone: string) {
  const res = await db.execute<{ id: number; program_id: number }>(sql`
    SELECT id, program_id FROM patients
    WHERE phone_number = ${phone}
       OR (length(${phone}) = 12 AND ${phone} LIKE '+1%'
           AND right(regexp_replace(phone_number, '[^0-9]', '', 'g'), 10) = right(${phone}, 10))
    ORDER BY (phone_number = ${phone}) DESC, id DESC LIMIT 5`);
  return res.rows.map((r) => ({ id: Number(r.id), programId: Number(r.program_id) }));
}

export async function setOptOut(db: Queryable, phone: string, optedOut: boolean) {
  if (optedOut)
    await db.execute(sql`INSERT INTO sms_opt_outs (phone) VALUES (${phone}) ON CONFLICT DO NOTHING`);
  else await db.execute(sql`DELETE FROM sms_opt_outs WHERE phone = ${phone}`);
}

export async function isOptedOut(db: Queryable, phone: string): Promise<boolean> {
  const res = await db.execute(sql`SELECT 1 FROM sms_opt_outs WHERE phone = ${phone}`);
  return (res.rowCount ?? 0) > 0;
}

/** Claims up to `batch` due messages (locked: several workers never send one twice). */
export async function dueMessages(db: Queryable, batch: number) {
  const res = await db.execute<{
    id: number;
    phone: string;
    body: string;
    attempts: number;
    patient_id: number | null;
    program_id: number | null;
  }>(sql`
    SELECT id, phone, body, attempts, patient_id, program_id FROM sms_messages
    WHERE status = 'queued' AND next_attempt_at <= now()
    ORDER BY next_attempt_at, id LIMIT ${batch} FOR UPDATE SKIP LOCKED`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function markSent(db: Queryable, id: number, providerId: string, delivered: boolean) {
  await db.execute(sql`
    UPDATE sms_messages SET status = ${delivered ? 'delivered' : 'sent'}, attempts = attempts + 1, sent_at = now(),
      delivered_at = ${delivered ? sql`now()` : sql`NULL`}, provider_id = ${providerId}, last_error = NULL
    WHERE id = ${id}`);
}

/** A failed attempt: retried with backoff (30 s, 2 min, 8 min, 32 min), then failed for good. */
export async function markAttemptFailed(db: Queryable, id: number, error: string, maxAttempts: number) {
  await db.execute(sql`
    UPDATE sms_messages SET attempts = attempts + 1, last_error = ${error.slice(0, 300)},
      status = CASE WHEN attempts + 1 >= ${maxAttempts} THEN 'failed' ELSE 'queued' END,
      next_attempt_at = now() + make_interval(secs => 30 * power(4, attempts))
    WHERE id = ${id}`);
}

/** A provider's delivery report. */
export async function updateStatusByProviderId(
  db: Queryable,
  providerId: string,
  status: 'delivered' | 'failed',
) {
  const res = await db.execute<{ id: number; patient_id: number | null; program_id: number | null }>(sql`
    UPDATE sms_messages SET status = ${status},
      delivered_at = CASE WHEN ${status} = 'delivered' THEN now() ELSE delivered_at END
    WHERE provider_id = ${providerId} AND direction = 'outbound' AND status IN ('sent', 'delivered', 'failed')
    RETURNING id, patient_id, program_id`);
  return res.rows[0] ?? null;
}

/** The active patients of a cohort with their phones (the recipients of a group message). */
export async function groupRecipients(db: Queryable, groupId: number) {
  const res = await db.execute<{ id: number; phone_number: string | null }>(sql`
    SELECT p.id, p.phone_number FROM group_patients gp JOIN patients p ON p.id = gp.patient_id AND p.active
    WHERE gp.group_id = ${groupId} ORDER BY p.id`);
  return res.rows.map((r) => ({ id: Number(r.id), phone_number: r.phone_number }));
}

/** One group message and one queued text per recipient (blocked when the number opted out), in one statement. */
export async function insertGroupMessage(
  db: Queryable,
  m: {
    programId: number;
    groupId: number;
    body: string;
    sentBy: number;
    skipped: number;
    recipients: { patientId: number; phone: string }[];
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    WITH g AS (
      INSERT INTO group_messages (program_id, group_id, body, skipped, sent_by)
      VALUES (${m.programId}, ${m.groupId}, ${m.body}, ${m.skipped}, ${m.sentBy}) RETURNING id
    ), texts AS (
      INSERT INTO sms_messages (program_id, patient_id, phone, direction, body, kind, status, sent_by, is_read, group_message_id)
      SELECT ${m.programId}, (r->>'patientId')::bigint, r->>'phone', 'outbound', ${m.body}, 'group',
        CASE WHEN EXISTS (SELECT 1 FROM sms_opt_outs o WHERE o.phone = r->>'phone') THEN 'blocked' ELSE 'queued' END,
        ${m.sentBy}, true, g.id
      FROM g, json_array_elements(${JSON.stringify(m.recipients)}::json) AS r
    )
    SELECT id FROM g`);
  return Number(res.rows[0]!.id);
}

/** A cohort's group messages, newest first, with the state of their texts counted. */
export async function groupMessages(
  db: Queryable,
  groupId: number,
  page: { page: number; per_page: number },
  id?: number,
): Promise<{ rows: GroupMessage[]; total: number }> {
  // Counted on the messages' ids; each text's recipients and statuses counted for the page only.
  const { rows, total } = await pageOfHits<GroupMessage>(db, {
    hits: sql`SELECT g.id FROM group_messages g
      WHERE g.group_id = ${groupId} ${id === undefined ? sql`` : sql`AND g.id = ${id}`}`,
    order: sql`id DESC`,
    limit: page.per_page,
    offset: (page.page - 1) * page.per_page,
    build: sql`
      SELECT g.id, g.group_id, g.body, g.skipped, ${isoUtc(sql`g.created_at`)} AS created_at,
        CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS sent_by,
        (SELECT count(*)::int FROM sms_messages s WHERE s.group_message_id = g.id) AS recipients,
        (SELECT json_build_object(
            'queued', count(*) FILTER (WHERE s.status = 'queued'),
            'sent', count(*) FILTER (WHERE s.status = 'sent'),
            'delivered', count(*) FILTER (WHERE s.status = 'delivered'),
            'failed', count(*) FILTER (WHERE s.status = 'failed'),
            'blocked', count(*) FILTER (WHERE s.status = 'blocked'))
          FROM sms_messages s WHERE s.group_message_id = g.id) AS statuses
      FROM page JOIN group_messages g ON g.id = page.id LEFT JOIN admins a ON a.id = g.sent_by`,
    buildOrder: sql`x.id DESC`,
  });
  return {
    rows: rows.map((r) => ({ ...r, id: Number(r.id), group_id: Number(r.group_id) })),
    total,
  };
}
