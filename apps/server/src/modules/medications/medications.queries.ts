import type { CreateRegimenInput, DiseaseState, Order, Pod, Regimen, Script } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

/** A regimen named by `regimens/{r}` without its program. */
export const regimenObject = defineObjectKind(
  'regimen',
  (id) => sql`SELECT program_id FROM regimens WHERE id = ${id}`,
);

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const POD = sql`json_build_object('id', d.id, 'regimen_id', d.regimen_id, 'barcode', d.barcode, 'prefix', d.prefix,
  'num', d.num, 'original_servings', d.original_servings, 'servings_remaining', d.servings_remaining,
  'linked_regimen_id', d.linked_regimen_id, 'created_at', ${ts(sql`d.created_at`)})`;

const REGIMEN = sql`r.id, r.patient_id, r.order_id, r.parent_id, r.type, r.name, r.repeat, r.interval,
  r.time_cascade AS "timeCascade", r.billable, r.lockout_time, r.times AS time, r.num, r.created_by_name AS created_by,
  ${ts(sql`r.scheduled_at`)} AS scheduled_at, ${ts(sql`r.end_at`)} AS end_at, r.multi_pod, r.unlock_before,
  r.device_serial, r.status, ${ts(sql`r.completed_at`)} AS completed_at,
  coalesce((SELECT json_agg(${POD} ORDER BY d.num, d.id) FROM pods d WHERE d.regimen_id = r.id), '[]'::json) AS pods`;

export async function regimensOf(db: Queryable, patientId: number, regimenId?: number): Promise<Regimen[]> {
  const res = await db.execute<Regimen>(sql`
    SELECT ${REGIMEN} FROM regimens r
    WHERE r.patient_id = ${patientId} ${regimenId ? sql`AND r.id = ${regimenId}` : sql``}
    ORDER BY r.status, r.scheduled_at, r.id`);
  return res.rows;
}

export async function regimenById(db: Queryable, regimenId: number): Promise<Regimen | null> {
  const res = await db.execute<Regimen>(sql`SELECT ${REGIMEN} FROM regimens r WHERE r.id = ${regimenId}`);
  return res.rows[0] ?? null;
}

export async function insertRegimen(
  db: Queryable,
  r: CreateRegimenInput & { patientId: number; programId: number; orderId: number | null; adminId: number },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO regimens (patient_id, program_id, order_id, parent_id, type, name, repeat, interval, time_cascade, billable,
      lockout_time, times, num, created_by_name, created_by, scheduled_at, end_at, multi_pod, unlock_before, device_serial)
    VALUES (${r.patientId}, ${r.programId}, ${r.orderId}, ${r.parent_id ?? null}, ${r.type}, ${r.name}, ${r.repeat},
      ${r.interval}, ${r.timeCascade}, ${r.billable}, ${r.lockout_time},
      ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify([...r.time].sort())}::jsonb)), ${r.num},
      ${r.created_by ?? null}, ${r.adminId}, ${r.scheduled_at}, ${r.end_at ?? null}, ${r.multi_pod}, ${r.unlock_before},
      ${r.device_serial ?? null})
    RETURNING id`);
  return res.rows[0]!.id;
}

/** The registered device of a serial, if the fleet has it (its kind, program and patient). */
export async function deviceOfSerial(db: Queryable, serial: string) {
  const res = await db.execute<{ kind: string; program_id: number | null; patient_id: number | null }>(
    sql`SELECT kind, program_id, patient_id FROM devices WHERE serial = ${serial}`,
  );
  return res.rows[0] ?? null;
}

/**
 * Serialises, until the transaction ends, the regimen writes that name one device: two device orders sent at
 * once for the same dispenser cannot both find it free.
 */
export async function lockDeviceSerial(db: Queryable, serial: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`regimen-device:${serial}`}, 0))`);
}

/** Whether a device already runs an active regimen (a device-order regimen on it answers 409). */
export async function deviceBusy(db: Queryable, serial: string): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM regimens WHERE device_serial = ${serial} AND status = 'active' LIMIT 1`,
  );
  return (res.rowCount ?? 0) > 0;
}

export async function updateRegimen(
  db: Queryable,
  regimenId: number,
  changes: Record<string, unknown>,
): Promise<void> {
  const columns: Record<string, string> = {
    name: 'name',
    repeat: 'repeat',
    interval: 'interval',
    timeCascade: 'time_cascade',
    billable: 'billable',
    lockout_time: 'lockout_time',
    num: 'num',
    created_by: 'created_by_name',
    scheduled_at: 'scheduled_at',
    end_at: 'end_at',
    multi_pod: 'multi_pod',
    unlock_before: 'unlock_before',
    device_serial: 'device_serial',
  };
  const sets: SQL[] = [];
  for (const [key, column] of Object.entries(columns))
    if (changes[key] !== undefined) sets.push(sql`${sql.raw(column)} = ${changes[key] as string}`);
  if (Array.isArray(changes.time))
    sets.push(
      sql`times = ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify([...changes.time].sort())}::jsonb))`,
    );
  if (changes.status === 'completed')
    sets.push(sql`status = 'completed', completed_at = coalesce(completed_at, now())`);
  if (sets.length === 0) return;
  await db.execute(sql`UPDATE regimens SET ${sql.join(sets, sql`, `)} WHERE id = ${regimenId}`);
}

/** The regimen's schedule as it will be kept, for the checks that span stored and changed fields. */
export async function regimenSchedule(db: Queryable, regimenId: number) {
  const res = await db.execute<{
    repeat: string;
    time: string[];
    lockout_time: number;
    unlock_before: number;
    scheduled_at: string;
    end_at: string | null;
    type: string;
    patient_id: number;
  }>(sql`SELECT repeat, times AS time, lockout_time, unlock_before, ${ts(sql`scheduled_at`)} AS scheduled_at,
    ${ts(sql`end_at`)} AS end_at, type, patient_id FROM regimens WHERE id = ${regimenId}`);
  return res.rows[0] ?? null;
}

export async function completeRegimen(db: Queryable, patientId: number, regimenId: number): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE regimens SET status = 'completed', completed_at = coalesce(completed_at, now())
    WHERE id = ${regimenId} AND patient_id = ${patientId}`);
  return (res.rowCount ?? 0) > 0;
}

const ORDER = sql`o.id, o.patient_id, o.regimen_id, o.drug_name, o.strength, o.route, o.form, o.quantity, o.refills,
  o.instructions, o.status, ${ts(sql`o.created_at`)} AS created_at,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS prescriber`;

export async function ordersOf(db: Queryable, patientId: number, ids?: number[]): Promise<Order[]> {
  const res = await db.execute<Order>(sql`
    SELECT ${ORDER} FROM medication_orders o LEFT JOIN admins a ON a.id = o.prescriber_id
    WHERE o.patient_id = ${patientId} ${ids ? sql`AND o.id = ANY(${idArray(ids)}::bigint[])` : sql``}
    ORDER BY o.id DESC`);
  return res.rows;
}

export async function insertOrders(
  db: Queryable,
  o: { patientId: number; programId: number; adminId: number; regimenId: number | null },
  orders: {
    drug_name: string;
    strength?: string | null;
    route?: string | null;
    form?: string | null;
    quantity?: number | null;
    refills?: number | null;
    instructions?: string | null;
    prescriber_id?: number | null;
  }[],
): Promise<number[]> {
  const payload = orders.map((x) => ({
    drug_name: x.drug_name,
    strength: x.strength ?? null,
    route: x.route ?? null,
    form: x.form ?? null,
    quantity: x.quantity ?? null,
    refills: x.refills ?? null,
    instructions: x.instructions ?? null,
    prescriber_id: x.prescriber_id ?? null,
  }));
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO medication_orders (patient_id, program_id, regimen_id, drug_name, strength, route, form, quantity, refills,
      instructions, prescriber_id, created_by)
    SELECT ${o.patientId}, ${o.programId}, ${o.regimenId}::bigint, drug_name, strength, route, form, quantity, refills,
      instructions, prescriber_id, ${o.adminId}
    FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS x(drug_name text, strength text, route text, form text,
      quantity int, refills int, instructions text, prescriber_id bigint)
    RETURNING id`);
  return res.rows.map((r) => r.id);
}

export async function orderOfPatient(db: Queryable, patientId: number, orderId: number): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM medication_orders WHERE id = ${orderId} AND patient_id = ${patientId}`,
  );
  return (res.rowCount ?? 0) > 0;
}

export async function regimensOfPatient(db: Queryable, patientId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const res = await db.execute<{ id: number }>(sql`
    SELECT id FROM regimens WHERE patient_id = ${patientId} AND id = ANY(${idArray(ids)}::bigint[])`);
  return res.rows.map((r) => r.id);
}

/** The next `count` barcodes: PREFIX + 8 digits from the global sequence + a check digit (mod 10). */
export async function nextPodCodes(
  db: Queryable,
  prefix: string,
  count: number,
  reserve: boolean,
): Promise<string[]> {
  const res = reserve
    ? await db.execute<{ n: string }>(
        sql`SELECT nextval('pod_code_seq')::text AS n FROM generate_series(1, ${count})`,
      )
    : await db.execute<{ n: string }>(sql`
        SELECT (coalesce((SELECT last_value + CASE WHEN is_called THEN 1 ELSE 0 END FROM pod_code_seq), 100000) + g - 1)::text AS n
        FROM generate_series(1, ${count}) AS g`);
  return res.rows.map((r) => podCode(prefix, r.n));
}

export function podCode(prefix: string, n: string): string {
  const digits = n.padStart(8, '0');
  let sum = 0;
  for (const [i, d] of [...digits].reverse().entries()) sum += Number(d) * (i % 2 === 0 ? 3 : 1);
  return `${prefix}${digits}${(10 - (sum % 10)) % 10}`;
}

export async function insertPods(
  db: Queryable,
  p: {
    regimenId: number;
    patientId: number;
    programId: number;
    prefix: string;
    original: number;
    remaining: number;
    linkedRegimenId: number | null;
    codes: string[];
  },
): Promise<Pod[]> {
  const res = await db.execute<Pod>(sql`
    WITH start AS (SELECT coalesce(max(num), 0) AS n FROM pods WHERE regimen_id = ${p.regimenId}),
    inserted AS (
      INSERT INTO pods (regimen_id, patient_id, program_id, barcode, prefix, num, original_servings, servings_remaining,
        linked_regimen_id)
      SELECT ${p.regimenId}, ${p.patientId}, ${p.programId}, code, ${p.prefix}, start.n + ord, ${p.original}, ${p.remaining},
        ${p.linkedRegimenId}::bigint
      FROM start, unnest(${`{${p.codes.join(',')}}`}::text[]) WITH ORDINALITY AS c(code, ord)
      RETURNING *
    )
    SELECT ${POD} AS pod FROM inserted d ORDER BY d.num`);
  return res.rows.map((r) => (r as unknown as { pod: Pod }).pod);
}

/** Pods of the patient by barcode (labels), with the regimen name printed on them. */
export async function podsForLabels(db: Queryable, patientId: number, barcodes: string[]) {
  const res = await db.execute<{
    barcode: string;
    num: number;
    original_servings: number;
    regimen_name: string;
    regimen_id: number;
    pod_id: number;
  }>(sql`
    SELECT d.barcode, d.num, d.original_servings, r.name AS regimen_name, r.id AS regimen_id, d.id AS pod_id
    FROM pods d JOIN regimens r ON r.id = d.regimen_id
    WHERE d.patient_id = ${patientId} AND d.barcode = ANY(${`{${barcodes.map((b) => `"${b.replace(/["\\]/g, '')}"`).join(',')}}`}::text[])
    ORDER BY r.id, d.num`);
  return res.rows;
}

export async function insertUsage(
  db: Queryable,
  u: {
    patientId: number;
    regimenId: number;
    podId: number | null;
    takenAt: string;
    servings: number;
    note: string | null;
    adminId: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO medication_usages (patient_id, regimen_id, pod_id, taken_at, servings, note, recorded_by)
    VALUES (${u.patientId}, ${u.regimenId}, ${u.podId}, ${u.takenAt}, ${u.servings}, ${u.note}, ${u.adminId})
    RETURNING id`);
  return res.rows[0]!.id;
}

/** Takes servings from a pod of the regimen; false when the pod is not the regimen's or has too few left. */
export async function takeServings(
  db: Queryable,
  podId: number,
  regimenId: number,
  servings: number,
): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE pods SET servings_remaining = servings_remaining - ${servings}
    WHERE id = ${podId} AND (regimen_id = ${regimenId} OR linked_regimen_id = ${regimenId})
      AND servings_remaining >= ${servings}`);
  return (res.rowCount ?? 0) > 0;
}

/** Deletes a dose recorded by hand and gives its servings back to its pod. */
export async function deleteUsage(db: Queryable, patientId: number, usageId: number): Promise<boolean> {
  const res = await db.execute<{ pod_id: number | null; servings: number }>(sql`
    DELETE FROM medication_usages WHERE id = ${usageId} AND patient_id = ${patientId} AND source = 'manual'
    RETURNING pod_id, servings`);
  const row = res.rows[0];
  if (!row) return false;
  if (row.pod_id)
    await db.execute(sql`
      UPDATE pods SET servings_remaining = least(original_servings, servings_remaining + ${row.servings})
      WHERE id = ${row.pod_id}`);
  return true;
}

const USAGE = sql`u.id, u.regimen_id, u.pod_id, ${ts(sql`u.taken_at`)} AS taken_at, u.servings, u.note, u.kind, u.source,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS recorded_by`;

export async function usageById(db: Queryable, usageId: number) {
  const res = await db.execute(sql`
    SELECT ${USAGE} FROM medication_usages u LEFT JOIN admins a ON a.id = u.recorded_by WHERE u.id = ${usageId}`);
  return res.rows[0] as never;
}

export async function recentUsages(db: Queryable, patientId: number) {
  const res = await db.execute(sql`
    SELECT ${USAGE} FROM medication_usages u LEFT JOIN admins a ON a.id = u.recorded_by
    WHERE u.patient_id = ${patientId} ORDER BY u.taken_at DESC LIMIT 20`);
  return res.rows as never[];
}

const SCRIPT = sql`s.id, s.drug_name, s.sig, s.quantity, s.refills, s.prescriber, s.written_at, ${ts(sql`s.updated_at`)} AS updated_at`;

export async function scriptsOf(db: Queryable, patientId: number): Promise<Script[]> {
  const res = await db.execute<Script>(
    sql`SELECT ${SCRIPT} FROM scripts s WHERE s.patient_id = ${patientId} ORDER BY s.id`,
  );
  return res.rows;
}

export async function upsertScript(
  db: Queryable,
  s: {
    id?: number;
    patientId: number;
    programId: number;
    drug_name: string;
    sig?: string | null;
    quantity?: number | null;
    refills?: number | null;
    prescriber?: string | null;
    written_at?: string | null;
  },
): Promise<boolean> {
  if (s.id) {
    // A change names what changes: an absent field keeps its value, null empties it.
    const parts: SQL[] = [sql`drug_name = ${s.drug_name}`, sql`updated_at = now()`];
    if (s.sig !== undefined) parts.push(sql`sig = ${s.sig}`);
    if (s.quantity !== undefined) parts.push(sql`quantity = ${s.quantity}`);
    if (s.refills !== undefined) parts.push(sql`refills = ${s.refills}`);
    if (s.prescriber !== undefined) parts.push(sql`prescriber = ${s.prescriber}`);
    if (s.written_at !== undefined) parts.push(sql`written_at = ${s.written_at}`);
    const res = await db.execute(sql`
      UPDATE scripts SET ${sql.join(parts, sql`, `)} WHERE id = ${s.id} AND patient_id = ${s.patientId}`);
    return (res.rowCount ?? 0) > 0;
  }
  await db.execute(sql`
    INSERT INTO scripts (patient_id, program_id, drug_name, sig, quantity, refills, prescriber, written_at)
    VALUES (${s.patientId}, ${s.programId}, ${s.drug_name}, ${s.sig ?? null}, ${s.quantity ?? null}, ${s.refills ?? null},
      ${s.prescriber ?? null}, ${s.written_at ?? null})`);
  return true;
}

export async function scriptOfPatient(db: Queryable, patientId: number, scriptId: number): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM scripts WHERE id = ${scriptId} AND patient_id = ${patientId}`,
  );
  return (res.rowCount ?? 0) > 0;
}

const DISEASE = sql`x.id, x.conditions, array_to_json(x.regimen_ids) AS regimen_ids, x.script_id, ${ts(sql`x.started_at`)} AS started_at,
  ${ts(sql`x.ended_at`)} AS ended_at`;

export async function diseaseStatesOf(
  db: Queryable,
  patientId: number,
  id?: number,
): Promise<DiseaseState[]> {
  const res = await db.execute<DiseaseState>(sql`
    SELECT ${DISEASE} FROM disease_states x
    WHERE x.patient_id = ${patientId} AND x.deleted_at IS NULL ${id ? sql`AND x.id = ${id}` : sql``}
    ORDER BY x.ended_at NULLS FIRST, x.id`);
  return res.rows;
}

export async function insertDiseaseState(
  db: Queryable,
  d: {
    patientId: number;
    programId: number;
    conditions: unknown[];
    regimenIds: number[];
    scriptId: number | null;
    adminId: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO disease_states (patient_id, program_id, conditions, regimen_ids, script_id, created_by)
    VALUES (${d.patientId}, ${d.programId}, ${JSON.stringify(d.conditions)}::jsonb, ${idArray(d.regimenIds)}::bigint[],
      ${d.scriptId}, ${d.adminId})
    RETURNING id`);
  return res.rows[0]!.id;
}

export async function changeDiseaseState(
  db: Queryable,
  patientId: number,
  id: number,
  change: { regimenIds?: number[]; end?: true; delete?: true },
): Promise<boolean> {
  const sets: SQL[] = [];
  if (change.regimenIds) sets.push(sql`regimen_ids = ${idArray(change.regimenIds)}::bigint[]`);
  if (change.end) sets.push(sql`ended_at = coalesce(ended_at, now())`);
  if (change.delete) sets.push(sql`deleted_at = now()`);
  const res = await db.execute(sql`
    UPDATE disease_states SET ${sql.join(sets, sql`, `)}
    WHERE id = ${id} AND patient_id = ${patientId} AND deleted_at IS NULL`);
  return (res.rowCount ?? 0) > 0;
}

/** Pods of the program created in the period, with their regimen and patient, for the pods export. */
export async function podsExportBatch(
  db: Queryable,
  programId: number,
  period: { start: string; end: string },
  afterId: number,
  limit: number,
) {
  const res = await db.execute<{
    id: number;
    barcode: string;
    num: number;
    original_servings: number;
    servings_remaining: number;
    created_on: string;
    regimen: string;
    regimen_status: string;
    mrn: string | null;
    last_name: string;
    first_name: string;
  }>(sql`
    SELECT d.id, d.barcode, d.num, d.original_servings, d.servings_remaining,
      to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS created_on, r.name AS regimen, r.status AS regimen_status,
      p.mrn, p.last_name, p.first_name
    FROM pods d JOIN regimens r ON r.id = d.regimen_id JOIN patients p ON p.id = d.patient_id
    WHERE d.program_id = ${programId} AND d.id > ${afterId}
      AND d.created_at >= ${period.start}::date AND d.created_at < (${period.end}::date + 1)
    ORDER BY d.id LIMIT ${limit}`);
  return res.rows;
}
