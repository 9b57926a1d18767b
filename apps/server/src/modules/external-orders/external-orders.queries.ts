import type {
  ExternalOrder,
  ExternalOrderHistoryEntry,
  ExternalOrderStatus,
  ExternalPatient,
  MatchCandidate,
} from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { escapeLike } from '../../platform/db/like';
import { pageOfHits } from '../../platform/db/page';
import { isoUtc } from '../../platform/db/time';
import type { ImportRow } from './external-orders.csv';

/** `external_orders/{id}` and `external_order_statuses/history/{orderId}` name an order without its program. */
export const externalOrderObject = defineObjectKind(
  'external_order',
  (id) => sql`SELECT program_id FROM external_orders WHERE id = ${id}`,
);
/** `external_orders/users/{id}` names a pharmacy patient. */
export const externalPatientObject = defineObjectKind(
  'external_patient',
  (id) => sql`SELECT program_id FROM external_patients WHERE id = ${id}`,
);

const EXTERNAL_PATIENT = sql`json_build_object('id', x.id, 'pharmacy_patient_id', x.pharmacy_patient_id,
  'first_name', x.first_name, 'last_name', x.last_name, 'dob', x.dob, 'phone', x.phone, 'mrn', x.mrn,
  'patient', CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'first_name', p.first_name,
    'last_name', p.last_name, 'mrn', p.mrn) END)`;

const ORDER = sql`o.id, o.order_number, o.status, ${EXTERNAL_PATIENT} AS external_patient, o.drug_name, o.ndc,
  o.strength, o.quantity, o.days_supply, o.sig, o.times_per_day, o.per_dose, o.times, to_char(o.need_by_date, 'YYYY-MM-DD') AS need_by_date,
  o.automation, o.prescriber, ${isoUtc(sql`o.fill_verified_at`)} AS fill_verified_at,
  ${isoUtc(sql`o.schedule_verified_at`)} AS schedule_verified_at, ${isoUtc(sql`o.finalized_at`)} AS finalized_at,
  o.regimen_id, f.file_name AS equipment_file, o.carrier, o.tracking_number, ${isoUtc(sql`o.created_at`)} AS created_at`;

const FROM = sql`FROM external_orders o
  JOIN external_patients x ON x.id = o.external_patient_id
  LEFT JOIN patients p ON p.id = x.patient_id
  LEFT JOIN external_order_files f ON f.id = o.equipment_file_id`;

const toOrder = (r: ExternalOrder): ExternalOrder => ({
  ...r,
  id: Number(r.id),
  regimen_id: r.regimen_id === null ? null : Number(r.regimen_id),
});

export type OrderFilters = {
  programId: number;
  date?: string;
  statuses?: ExternalOrderStatus[];
  onlyAutomation: boolean;
  verifiedOnly: boolean;
  search: string;
  searchDrug: string;
  patientId?: number;
};

export async function listOrders(
  db: Queryable,
  f: OrderFilters,
  page: { page: number; perPage: number },
): Promise<{ rows: ExternalOrder[]; total: number }> {
  const where: SQL[] = [sql`o.program_id = ${f.programId}`];
  if (f.date) where.push(sql`o.need_by_date = ${f.date}::date`);
  if (f.statuses?.length) where.push(sql`o.status = ANY(${`{${f.statuses.join(',')}}`}::text[])`);
  if (f.onlyAutomation) where.push(sql`o.automation`);
  if (f.verifiedOnly) where.push(sql`o.status = 'verified'`);
  if (f.patientId) where.push(sql`x.patient_id = ${f.patientId}`);
  if (f.search) {
    const like = `%${escapeLike(f.search)}%`;
    where.push(sql`(x.first_name || ' ' || x.last_name ILIKE ${like} OR x.last_name || ', ' || x.first_name ILIKE ${like}
      OR p.first_name || ' ' || p.last_name ILIKE ${like} OR x.mrn ILIKE ${like} OR p.mrn ILIKE ${like}
      OR x.pharmacy_patient_id ILIKE ${like} OR o.order_number ILIKE ${like} OR x.dob::text = ${f.search})`);
  }
  if (f.searchDrug) {
    const like = `%${escapeLike(f.searchDrug)}%`;
    where.push(
      sql`(o.drug_name ILIKE ${like} OR replace(o.ndc, '-', '') ILIKE ${`%${escapeLike(f.searchDrug.replaceAll('-', ''))}%`})`,
    );
  }
  // Found, ordered and counted on the orders' keys; only the page is joined and built (issue 27).
  const { rows, total } = await pageOfHits<
    ExternalOrder & { k_need: string; k_last: string; k_first: string }
  >(db, {
    hits: sql`SELECT o.id, o.need_by_date, x.last_name, x.first_name ${FROM} WHERE ${sql.join(where, sql` AND `)}`,
    order: sql`need_by_date, last_name, first_name, id`,
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
    build: sql`SELECT ${ORDER}, page.need_by_date AS k_need, page.last_name AS k_last, page.first_name AS k_first
      ${FROM} JOIN page ON page.id = o.id`,
    buildOrder: sql`x.k_need, x.k_last, x.k_first, x.id`,
  });
  return { rows: rows.map(({ k_need: _n, k_last: _l, k_first: _f, ...r }) => toOrder(r)), total };
}

export async function ordersByIds(db: Queryable, programId: number, ids: number[], forUpdate = false) {
  const res = await db.execute<
    ExternalOrder & { patient_id: number | null; external_patient_id: number }
  >(sql`
    SELECT ${ORDER}, x.patient_id, x.id AS external_patient_id ${FROM}
    WHERE o.program_id = ${programId} AND o.id = ANY(${idArray(ids)}::bigint[])
    ORDER BY o.id ${forUpdate ? sql`FOR UPDATE OF o` : sql``}`);
  return res.rows.map((r) => ({
    ...toOrder(r),
    patient_id: r.patient_id === null ? null : Number(r.patient_id),
  }));
}

/** A patient's orders needed by a date (cancelled ones left out), in order number order. */
export async function ordersOfPatientDate(
  db: Queryable,
  programId: number,
  patientId: number,
  day: string,
  forUpdate = false,
): Promise<ExternalOrder[]> {
  const res = await db.execute<ExternalOrder>(sql`
    SELECT ${ORDER} ${FROM}
    WHERE o.program_id = ${programId} AND x.patient_id = ${patientId} AND o.need_by_date = ${day}::date
      AND o.status <> 'cancelled'
    ORDER BY o.order_number ${forUpdate ? sql`FOR UPDATE OF o` : sql``}`);
  return res.rows.map(toOrder);
}

/** Who verified the last of these orders' fill files and schedules, and when. */
export async function verifiers(db: Queryable, ids: number[]) {
  const res = await db.execute<{
    fill_at: string | null;
    fill_by: { id: number; name: string } | null;
    schedule_at: string | null;
    schedule_by: { id: number; name: string } | null;
  }>(sql`
    WITH f AS (SELECT fill_verified_at AS at, fill_verified_by AS by FROM external_orders
               WHERE id = ANY(${idArray(ids)}::bigint[]) ORDER BY fill_verified_at DESC NULLS LAST LIMIT 1),
         s AS (SELECT schedule_verified_at AS at, schedule_verified_by AS by FROM external_orders
               WHERE id = ANY(${idArray(ids)}::bigint[]) ORDER BY schedule_verified_at DESC NULLS LAST LIMIT 1)
    SELECT ${isoUtc(sql`f.at`)} AS fill_at,
      (SELECT json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) FROM admins a WHERE a.id = f.by) AS fill_by,
      ${isoUtc(sql`s.at`)} AS schedule_at,
      (SELECT json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) FROM admins a WHERE a.id = s.by) AS schedule_by
    FROM f, s`);
  return res.rows[0] ?? { fill_at: null, fill_by: null, schedule_at: null, schedule_by: null };
}

/** The orders already stored under these order numbers (a re-import's duplicates). */
export async function ordersByNumbers(db: Queryable, programId: number, numbers: string[]) {
  const res = await db.execute<{
    id: number;
    order_number: string;
    status: ExternalOrderStatus;
    tracking_number: string | null;
    shipped: boolean;
    delivered: boolean;
  }>(sql`
    SELECT id, order_number, status, tracking_number, shipped_at IS NOT NULL AS shipped, delivered_at IS NOT NULL AS delivered
    FROM external_orders
    WHERE program_id = ${programId}
      AND lower(order_number) = ANY(SELECT lower(n) FROM jsonb_array_elements_text(${JSON.stringify(numbers)}::jsonb) AS n)
    FOR UPDATE`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * The pharmacy patients of a file, created when new (a known one keeps its stored name), with the CareDeck
 * patient each is linked to.
 */
export async function upsertExternalPatients(
  db: Queryable,
  programId: number,
  people: Pick<ImportRow, 'pharmacy_patient_id' | 'first_name' | 'last_name' | 'dob' | 'phone' | 'mrn'>[],
) {
  const res = await db.execute<{ id: number; pharmacy_patient_id: string; patient_id: number | null }>(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(people)}::jsonb)
        AS i(pharmacy_patient_id text, first_name text, last_name text, dob date, phone text, mrn text)
    ), inserted AS (
      INSERT INTO external_patients (program_id, pharmacy_patient_id, first_name, last_name, dob, phone, mrn)
      SELECT ${programId}, pharmacy_patient_id, first_name, last_name, dob, phone, mrn FROM input
      ON CONFLICT (program_id, pharmacy_patient_id) DO NOTHING
      RETURNING id, pharmacy_patient_id, patient_id
    )
    SELECT id, pharmacy_patient_id, patient_id FROM inserted
    UNION ALL
    SELECT e.id, e.pharmacy_patient_id, e.patient_id FROM external_patients e JOIN input i
      ON e.program_id = ${programId} AND e.pharmacy_patient_id = i.pharmacy_patient_id`);
  const map = new Map<string, { id: number; patient_id: number | null }>();
  for (const r of res.rows)
    map.set(r.pharmacy_patient_id, {
      id: Number(r.id),
      patient_id: r.patient_id === null ? null : Number(r.patient_id),
    });
  return map;
}

/**
 * Links each unlinked pharmacy patient that matches exactly one CareDeck patient of the program (the same
 * MRN, or the same date of birth with the same first and last name, ignoring case and accents of spacing).
 * Returns the links made.
 */
export async function linkExactMatches(db: Queryable, programId: number, externalIds: number[]) {
  const res = await db.execute<{ id: number; patient_id: number }>(sql`
    WITH candidates AS (
      SELECT x.id, min(p.id) AS patient_id, count(DISTINCT p.id) AS n
      FROM external_patients x
      JOIN patients p ON p.program_id = x.program_id
        AND ((x.mrn IS NOT NULL AND lower(p.mrn) = lower(x.mrn))
          OR (p.dob = x.dob AND lower(trim(p.first_name)) = lower(x.first_name) AND lower(trim(p.last_name)) = lower(x.last_name)))
      WHERE x.program_id = ${programId} AND x.patient_id IS NULL AND x.id = ANY(${idArray(externalIds)}::bigint[])
      GROUP BY x.id
    )
    UPDATE external_patients e SET patient_id = c.patient_id, linked_at = now()
    FROM candidates c WHERE e.id = c.id AND c.n = 1
    RETURNING e.id, e.patient_id`);
  return res.rows.map((r) => ({ id: Number(r.id), patient_id: Number(r.patient_id) }));
}

export async function insertOrders(
  db: Queryable,
  programId: number,
  rows: (ImportRow & { external_patient_id: number; status: ExternalOrderStatus })[],
) {
  const payload = rows.map((r) => ({
    external_patient_id: r.external_patient_id,
    order_number: r.order_number,
    status: r.status,
    drug_name: r.drug_name,
    ndc: r.ndc,
    strength: r.strength,
    quantity: r.quantity,
    days_supply: r.days_supply,
    sig: r.sig,
    times_per_day: r.times_per_day,
    per_dose: r.per_dose,
    times: r.times,
    need_by_date: r.need_by_date,
    automation: r.automation,
    prescriber: r.prescriber,
    carrier: r.carrier,
    tracking_number: r.tracking_number,
  }));
  const res = await db.execute<{ id: number; status: ExternalOrderStatus }>(sql`
    INSERT INTO external_orders (program_id, external_patient_id, order_number, status, drug_name, ndc, strength, quantity,
      days_supply, sig, times_per_day, per_dose, times, need_by_date, automation, prescriber, carrier, tracking_number)
    SELECT ${programId}, external_patient_id, order_number, status, drug_name, ndc, strength, quantity, days_supply, sig,
      times_per_day, per_dose, ARRAY(SELECT jsonb_array_elements_text(times)), need_by_date, automation, prescriber,
      carrier, tracking_number
    FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS r(external_patient_id bigint, order_number text,
      status text, drug_name text, ndc text, strength text, quantity int, days_supply int, sig text, times_per_day int,
      per_dose int, times jsonb, need_by_date date, automation boolean, prescriber text, carrier text, tracking_number text)
    RETURNING id, status`);
  return res.rows.map((r) => ({ id: Number(r.id), status: r.status }));
}

/** History rows in one statement. */
export async function insertHistory(
  db: Queryable,
  programId: number,
  adminId: number | null,
  rows: {
    orderId: number;
    from: ExternalOrderStatus | null;
    to: ExternalOrderStatus;
    note?: string | null;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    INSERT INTO external_order_history (order_id, program_id, from_status, to_status, admin_id, note)
    SELECT order_id, ${programId}, from_status, to_status, ${adminId}::bigint, note
    FROM jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ order_id: r.orderId, from_status: r.from, to_status: r.to, note: r.note ?? null })))}::jsonb)
      AS h(order_id bigint, from_status text, to_status text, note text)`);
}

/**
 * Moves orders to a new status (computed per row by `to`, an SQL expression over the locked row `o`), sets
 * `set` columns and writes a history row for each order whose status changed: one statement.
 */
export async function transition(
  db: Queryable,
  input: {
    programId: number;
    ids: number[];
    adminId: number | null;
    set?: SQL;
    to: SQL;
    note?: string | null;
  },
): Promise<{ id: number; from: ExternalOrderStatus; to: ExternalOrderStatus }[]> {
  const res = await db.execute<{ id: number; from: ExternalOrderStatus; to: ExternalOrderStatus }>(sql`
    WITH old AS (
      SELECT id, status FROM external_orders
      WHERE program_id = ${input.programId} AND id = ANY(${idArray(input.ids)}::bigint[]) FOR UPDATE
    ), changed AS (
      UPDATE external_orders o SET ${input.set ? sql`${input.set}, ` : sql``}status = ${input.to}
      FROM old WHERE o.id = old.id
      RETURNING o.id, old.status AS "from", o.status AS "to"
    ), logged AS (
      INSERT INTO external_order_history (order_id, program_id, from_status, to_status, admin_id, note)
      SELECT id, ${input.programId}, "from", "to", ${input.adminId}::bigint, ${input.note ?? null}
      FROM changed WHERE "from" IS DISTINCT FROM "to"
    )
    SELECT id, "from", "to" FROM changed`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function statusCounts(db: Queryable, programId: number) {
  const res = await db.execute<{ status: ExternalOrderStatus; orders: number }>(sql`
    SELECT status, count(*)::int AS orders FROM external_orders WHERE program_id = ${programId} GROUP BY status`);
  return res.rows;
}

export async function historyOf(
  db: Queryable,
  orderId: number,
  onlyShipment = false,
): Promise<ExternalOrderHistoryEntry[]> {
  const res = await db.execute<ExternalOrderHistoryEntry>(sql`
    SELECT h.id, h.from_status AS "from", h.to_status AS "to", ${isoUtc(sql`h.created_at`)} AS at,
      CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS by,
      h.note
    FROM external_order_history h LEFT JOIN admins a ON a.id = h.admin_id
    WHERE h.order_id = ${orderId}
      ${onlyShipment ? sql`AND h.to_status IN ('finalized', 'shipped', 'delivered', 'cancelled')` : sql``}
    ORDER BY h.id`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function trackingOf(db: Queryable, orderId: number) {
  const res = await db.execute<{
    order_id: number;
    order_number: string;
    status: ExternalOrderStatus;
    carrier: string | null;
    tracking_number: string | null;
    shipped_at: string | null;
    delivered_at: string | null;
    equipment_file: { name: string; size: number; rows: number; created_at: string } | null;
  }>(sql`
    SELECT o.id AS order_id, o.order_number, o.status, o.carrier, o.tracking_number,
      ${isoUtc(sql`o.shipped_at`)} AS shipped_at, ${isoUtc(sql`o.delivered_at`)} AS delivered_at,
      CASE WHEN f.id IS NULL THEN NULL ELSE json_build_object('name', f.file_name, 'size', f.size, 'rows', f.rows,
        'created_at', ${isoUtc(sql`f.created_at`)}) END AS equipment_file
    FROM external_orders o LEFT JOIN external_order_files f ON f.id = o.equipment_file_id
    WHERE o.id = ${orderId}`);
  const row = res.rows[0];
  return row ? { ...row, order_id: Number(row.order_id) } : null;
}

/** Shipment details a later export brought for an order already imported. */
export async function recordShipment(
  db: Queryable,
  orderId: number,
  s: {
    carrier: string | null;
    tracking_number: string;
    shipped_at: string | null;
    delivered_at: string | null;
  },
): Promise<void> {
  await db.execute(sql`
    UPDATE external_orders SET carrier = coalesce(${s.carrier}, carrier), tracking_number = ${s.tracking_number},
      shipped_at = coalesce(shipped_at, ${s.shipped_at}::date::timestamptz, ${s.delivered_at}::date::timestamptz),
      delivered_at = coalesce(delivered_at, ${s.delivered_at}::date::timestamptz)
    WHERE id = ${orderId}`);
}

export async function externalPatientById(db: Queryable, id: number): Promise<ExternalPatient | null> {
  const res = await db.execute<ExternalPatient>(sql`
    SELECT (${EXTERNAL_PATIENT}) AS v FROM external_patients x LEFT JOIN patients p ON p.id = x.patient_id
    WHERE x.id = ${id}`);
  const row = res.rows[0] as unknown as { v: ExternalPatient } | undefined;
  return row ? { ...row.v, id: Number(row.v.id) } : null;
}

/**
 * CareDeck patients of the pharmacy patient's program who may be them, with the reasons: the same MRN,
 * date of birth or phone (digits only), or a similar name (trigram similarity, or the same last name).
 */
export async function matchCandidates(db: Queryable, externalId: number): Promise<MatchCandidate[]> {
  const res = await db.execute<MatchCandidate>(sql`
    WITH x AS (
      SELECT program_id, lower(first_name || ' ' || last_name) AS name, lower(last_name) AS last_name, dob,
        nullif(regexp_replace(coalesce(phone, ''), '\\D', '', 'g'), '') AS phone, lower(mrn) AS mrn
      FROM external_patients WHERE id = ${externalId}
    ), scored AS (
      SELECT p.id, p.first_name, p.last_name, to_char(p.dob, 'YYYY-MM-DD') AS dob, p.mrn, p.phone_number,
        array_remove(ARRAY[
          CASE WHEN x.mrn IS NOT NULL AND lower(p.mrn) = x.mrn THEN 'same_mrn' END,
          CASE WHEN p.dob = x.dob THEN 'same_dob' END,
          CASE WHEN lower(p.last_name) = x.last_name
                 OR similarity(lower(p.first_name || ' ' || p.last_name), x.name) >= 0.4 THEN 'similar_name' END,
          CASE WHEN x.phone IS NOT NULL
                 AND right(regexp_replace(coalesce(p.phone_number, ''), '\\D', '', 'g'), 10) = right(x.phone, 10)
               THEN 'same_phone' END
        ], NULL) AS reasons
      FROM patients p, x
      WHERE p.program_id = x.program_id
        AND ((x.mrn IS NOT NULL AND lower(p.mrn) = x.mrn) OR p.dob = x.dob OR lower(p.last_name) = x.last_name
          OR lower(p.first_name || ' ' || p.last_name) % x.name
          OR (x.phone IS NOT NULL AND p.phone_number IS NOT NULL
              AND right(regexp_replace(p.phone_number, '\\D', '', 'g'), 10) = right(x.phone, 10)))
    )
    SELECT * FROM scored WHERE cardinality(reasons) > 0
    ORDER BY cardinality(reasons) DESC, last_name, first_name, id
    LIMIT 20`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function patientOfProgram(db: Queryable, patientId: number, programId: number) {
  const res = await db.execute<{ id: number; first_name: string; last_name: string }>(sql`
    SELECT id, first_name, last_name FROM patients WHERE id = ${patientId} AND program_id = ${programId}`);
  return res.rows[0] ? { ...res.rows[0], id: Number(res.rows[0].id) } : null;
}

/** Whether the pharmacy patient has finalized (or later) orders: relinking them would move real regimens. */
export async function hasFinalizedOrders(db: Queryable, externalId: number): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM external_orders WHERE external_patient_id = ${externalId}
      AND status IN ('finalized', 'shipped', 'delivered') LIMIT 1`);
  return (res.rowCount ?? 0) > 0;
}

export async function linkExternalPatient(
  db: Queryable,
  externalId: number,
  patientId: number,
  adminId: number,
): Promise<void> {
  await db.execute(sql`
    UPDATE external_patients SET patient_id = ${patientId}, linked_by = ${adminId}, linked_at = now()
    WHERE id = ${externalId}`);
}

export async function orderIdsOfExternalPatient(db: Queryable, externalId: number): Promise<number[]> {
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM external_orders WHERE external_patient_id = ${externalId} AND status <> 'cancelled'`,
  );
  return res.rows.map((r) => Number(r.id));
}

/**
 * The active regimen an earlier finalized order of the same drug (by name, ignoring case) created for the
 * patient: a refill updates it instead of adding a second one.
 */
export async function activeRegimensByDrug(db: Queryable, patientId: number, drugNames: string[]) {
  const res = await db.execute<{ drug: string; regimen_id: number }>(sql`
    SELECT DISTINCT ON (lower(o.drug_name)) lower(o.drug_name) AS drug, r.id AS regimen_id
    FROM external_orders o
    JOIN external_patients x ON x.id = o.external_patient_id
    JOIN regimens r ON r.id = o.regimen_id
    WHERE x.patient_id = ${patientId} AND r.patient_id = ${patientId} AND r.status = 'active'
      AND lower(o.drug_name) = ANY(SELECT lower(d) FROM jsonb_array_elements_text(${JSON.stringify(drugNames)}::jsonb) AS d)
    ORDER BY lower(o.drug_name), o.finalized_at DESC NULLS LAST, o.id DESC`);
  return new Map(res.rows.map((r) => [r.drug, Number(r.regimen_id)]));
}

export async function insertEquipmentFile(
  db: Queryable,
  f: {
    programId: number;
    patientId: number;
    needByDate: string;
    key: string;
    fileName: string;
    size: number;
    rows: number;
    adminId: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO external_order_files (program_id, patient_id, need_by_date, storage_key, file_name, size, rows, created_by)
    VALUES (${f.programId}, ${f.patientId}, ${f.needByDate}, ${f.key}, ${f.fileName}, ${f.size}, ${f.rows}, ${f.adminId})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

/** Sets an order's corrected dose times. */
export async function setTimes(db: Queryable, orderId: number, times: string[]): Promise<void> {
  await db.execute(sql`
    UPDATE external_orders SET times = ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(times)}::jsonb))
    WHERE id = ${orderId}`);
}

/** The storage key of an order's equipment file (tests and the download read it back). */
export async function equipmentFileOf(db: Queryable, orderId: number) {
  const res = await db.execute<{ storage_key: string; file_name: string }>(sql`
    SELECT f.storage_key, f.file_name FROM external_orders o JOIN external_order_files f ON f.id = o.equipment_file_id
    WHERE o.id = ${orderId}`);
  return res.rows[0] ?? null;
}

type Move = { programId: number; ids: number[]; adminId: number | null; note?: string | null };

/** Fill files verified: 'verified' when the schedule already is, else 'fill_verified'. */
export function markFillVerified(db: Queryable, m: Move & { adminId: number }) {
  return transition(db, {
    ...m,
    set: sql`fill_verified_at = now(), fill_verified_by = ${m.adminId}`,
    to: sql`CASE WHEN o.schedule_verified_at IS NOT NULL THEN 'verified' ELSE 'fill_verified' END`,
  });
}

/** Schedule verified; with `resetFill` (the pods changed) the fill verification is dropped. */
export function markScheduleVerified(db: Queryable, m: Move & { adminId: number; resetFill: boolean }) {
  return transition(db, {
    ...m,
    set: m.resetFill
      ? sql`schedule_verified_at = now(), schedule_verified_by = ${m.adminId}, fill_verified_at = NULL, fill_verified_by = NULL`
      : sql`schedule_verified_at = now(), schedule_verified_by = ${m.adminId}`,
    to: m.resetFill
      ? sql`'schedule_verified'`
      : sql`CASE WHEN o.fill_verified_at IS NOT NULL THEN 'verified' ELSE 'schedule_verified' END`,
  });
}

/** Linked to a (new) patient: open orders start their review again; finalized ones keep what they are. */
export function markMatched(db: Queryable, m: Move) {
  const done = sql`o.status IN ('finalized', 'shipped', 'delivered')`;
  return transition(db, {
    ...m,
    set: sql`fill_verified_at = CASE WHEN ${done} THEN o.fill_verified_at END,
      fill_verified_by = CASE WHEN ${done} THEN o.fill_verified_by END,
      schedule_verified_at = CASE WHEN ${done} THEN o.schedule_verified_at END,
      schedule_verified_by = CASE WHEN ${done} THEN o.schedule_verified_by END`,
    to: sql`CASE WHEN ${done} THEN o.status ELSE 'matched' END`,
  });
}

export function markFinalized(db: Queryable, m: Move & { regimenId: number; fileId: number }) {
  return transition(db, {
    ...m,
    set: sql`finalized_at = now(), regimen_id = ${m.regimenId}, equipment_file_id = ${m.fileId}`,
    to: sql`'finalized'`,
  });
}

export function markShipment(db: Queryable, m: Move & { to: 'shipped' | 'delivered' }) {
  return transition(db, { ...m, to: sql`${m.to}` });
}
