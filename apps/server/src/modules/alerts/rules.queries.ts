import { sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

/** A rule, named by `rules/{id}` without its program. */
export const ruleObject = defineObjectKind(
  'rule',
  (id) => sql`SELECT program_id FROM rules WHERE id = ${id}`,
);

export type RuleRow = {
  id: number;
  program_id: number;
  name: string;
  observable: string;
  criterion: { comparison: string; value: number; aggregation: string; window_minutes: number };
  outcome: { type: string; alert_type: string; notify_role: string | null; sms_text?: string | null };
  active: boolean;
  version: number;
  updated_at: string;
  updated_by: { id: number; name: string } | null;
};

const ruleColumns = sql`
  r.id, r.program_id, r.name, r.observable, r.criterion, r.outcome, r.active, r.version, r.updated_at,
  CASE WHEN a.id IS NULL THEN NULL
       ELSE json_build_object('id', a.id, 'name', trim(concat_ws(' ', a.given_name, a.family_name))) END AS updated_by`;

export async function rulesOf(db: Queryable, programIds: number[], ids: number[] | null) {
  const res = await db.execute<RuleRow>(sql`
    SELECT ${ruleColumns} FROM rules r LEFT JOIN admins a ON a.id = r.updated_by
    WHERE r.program_id = ANY(${idArray(programIds)}::bigint[])
      ${ids ? sql`AND r.id = ANY(${idArray(ids)}::bigint[])` : sql``}
    ORDER BY r.program_id, r.id`);
  return res.rows;
}

export async function activeRules(db: Queryable, programIds: number[]) {
  const res = await db.execute<RuleRow>(sql`
    SELECT ${ruleColumns} FROM rules r LEFT JOIN admins a ON a.id = r.updated_by
    WHERE r.active AND r.program_id = ANY(${idArray(programIds)}::bigint[]) ORDER BY r.id`);
  return res.rows;
}

export type RuleDefinition = {
  name: string;
  observable: string;
  criterion: RuleRow['criterion'];
  outcome: RuleRow['outcome'];
  active: boolean;
};

/** Inserts a rule and its first version. */
export async function insertRule(db: Queryable, programId: number, d: RuleDefinition, adminId: number) {
  const res = await db.execute<{ id: number }>(sql`
    WITH r AS (
      INSERT INTO rules (program_id, name, observable, criterion, outcome, active, updated_by)
      VALUES (${programId}, ${d.name}, ${d.observable}, ${JSON.stringify(d.criterion)}::jsonb,
              ${JSON.stringify(d.outcome)}::jsonb, ${d.active}, ${adminId})
      RETURNING id
    ),
    v AS (
      INSERT INTO rule_versions (rule_id, version, definition, admin_id)
      SELECT id, 1, ${JSON.stringify(d)}::jsonb, ${adminId} FROM r
    )
    SELECT id FROM r`);
  return res.rows[0]!.id;
}

/** Replaces a rule's definition as its next version. */
export async function updateRule(db: Queryable, id: number, d: RuleDefinition, adminId: number) {
  await db.execute(sql`
    WITH r AS (
      UPDATE rules SET name = ${d.name}, observable = ${d.observable}, criterion = ${JSON.stringify(d.criterion)}::jsonb,
        outcome = ${JSON.stringify(d.outcome)}::jsonb, active = ${d.active}, version = version + 1,
        updated_by = ${adminId}, updated_at = now()
      WHERE id = ${id}
      RETURNING id, version
    )
    INSERT INTO rule_versions (rule_id, version, definition, admin_id)
    SELECT id, version, ${JSON.stringify(d)}::jsonb, ${adminId} FROM r`);
}

export async function deleteRule(db: Queryable, id: number) {
  await db.execute(sql`DELETE FROM rules WHERE id = ${id}`);
}

export type ValueRow = { patient_id: number; value: number; at: string | null };

const AGGREGATES: Record<string, string> = { average: 'avg', min: 'min', max: 'max', count: 'count' };

/** A reading observable of every active patient of the program, aggregated over the window. */
export async function readingValues(
  db: Queryable,
  programId: number,
  type: string,
  aggregation: string,
  windowMinutes: number,
) {
  const since = sql`now() - make_interval(mins => ${windowMinutes})`;
  const res =
    aggregation === 'latest'
      ? await db.execute<ValueRow>(sql`
          SELECT DISTINCT ON (m.patient_id) m.patient_id, m.value, m.measured_at AS at
          FROM measurements m JOIN patients p ON p.id = m.patient_id AND p.active
          WHERE m.program_id = ${programId} AND m.type = ${type} AND m.measured_at > ${since}
          ORDER BY m.patient_id, m.measured_at DESC`)
      : await db.execute<ValueRow>(sql`
          SELECT m.patient_id, round((${sql.raw(AGGREGATES[aggregation] ?? 'avg')}(m.value))::numeric, 1)::float8 AS value,
                 max(m.measured_at) AS at
          FROM measurements m JOIN patients p ON p.id = m.patient_id AND p.active
          WHERE m.program_id = ${programId} AND m.type = ${type} AND m.measured_at > ${since}
          GROUP BY m.patient_id`);
  return res.rows;
}

/** Whole days since the newest reading (or since the device was handed out) of patients with a measuring device. */
export async function daysWithoutReading(db: Queryable, programId: number) {
  const res = await db.execute<ValueRow>(sql`
    SELECT p.id AS patient_id,
           floor(extract(epoch FROM now() - coalesce(
             (SELECT max(m.measured_at) FROM measurements m WHERE m.patient_id = p.id),
             min(coalesce(d.provisioned_at, d.created_at)))) / 86400)::float8 AS value,
           (SELECT max(m.measured_at) FROM measurements m WHERE m.patient_id = p.id) AS at
    FROM patients p JOIN devices d ON d.patient_id = p.id
      AND d.kind IN ('bp_cuff', 'pulse_oximeter', 'scale', 'glucometer')
    WHERE p.active AND p.program_id = ${programId}
    GROUP BY p.id`);
  return res.rows;
}

export async function patientNames(db: Queryable, ids: number[]) {
  const res = await db.execute<{ id: number; name: string; mrn: string | null }>(sql`
    SELECT id, trim(concat_ws(', ', last_name, first_name)) AS name, mrn FROM patients
    WHERE id = ANY(${idArray(ids)}::bigint[])`);
  return res.rows;
}

export async function adminsWithRole(db: Queryable, programId: number, role: string) {
  const res = await db.execute<{ admin_id: number }>(sql`
    SELECT DISTINCT admin_id FROM admin_program_roles WHERE program_id = ${programId} AND role = ${role}`);
  return res.rows.map((r) => r.admin_id);
}

/** What a rule's text to patients needs: the number and the first name. */
export async function patientsToText(db: Queryable, patientIds: number[]) {
  if (patientIds.length === 0) return [];
  const res = await db.execute<{ id: number; first_name: string; phone_number: string | null }>(sql`
    SELECT id, first_name, phone_number FROM patients
    WHERE id = ANY(${`{${patientIds.join(',')}}`}::int[]) AND active`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}
