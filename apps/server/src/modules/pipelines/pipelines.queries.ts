import type {
  PatientPipeline,
  Pipeline,
  PipelineLog,
  PipelineStage,
  PipelineTemplate,
  PipelineUser,
  StageStay,
} from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import type { Queryable } from '../../platform/db/client';
import { containsPattern } from '../../platform/db/like';
import { isoUtc } from '../../platform/db/time';

export const pipelineObject = defineObjectKind(
  'pipeline',
  (id) => sql`SELECT program_id FROM pipelines WHERE id = ${id}`,
);
export const stageObject = defineObjectKind(
  'pipeline stage',
  (id) =>
    sql`SELECT p.program_id FROM pipeline_stages s JOIN pipelines p ON p.id = s.pipeline_id WHERE s.id = ${id}`,
);

const ids = (list: readonly number[]) => sql`${`{${list.join(',')}}`}::bigint[]`;
const person = (alias: string) =>
  sql.raw(
    `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'name', ${alias}.given_name || ' ' || ${alias}.family_name) END`,
  );
const patientJson = sql`json_build_object('id', pt.id, 'name', pt.last_name || ', ' || pt.first_name, 'mrn', pt.mrn)`;

const STAGE = sql`json_build_object('id', s.id, 'pipeline_id', s.pipeline_id, 'name', s.name, 'position', s.position,
  'color', s.color,
  'users', (SELECT count(*)::int FROM pipeline_patients pp WHERE pp.stage_id = s.id),
  'rule', CASE WHEN r.id IS NULL THEN NULL ELSE json_build_object('id', r.id, 'name', r.name) END)`;

type PipelineRow = Omit<Pipeline, 'users'>;

/** Pipelines of the programs by name (or one), each with its stages and counts, in one statement. */
export async function pipelinesOf(
  db: Queryable,
  programIds: readonly number[],
  f: { id?: number; search?: string; state?: 'all' | 'active' | 'empty' } = {},
): Promise<PipelineRow[]> {
  const state =
    f.state === 'active'
      ? sql`AND EXISTS (SELECT 1 FROM pipeline_patients x WHERE x.pipeline_id = p.id AND x.status = 'active')`
      : f.state === 'empty'
        ? sql`AND NOT EXISTS (SELECT 1 FROM pipeline_patients x WHERE x.pipeline_id = p.id AND x.status = 'active')`
        : sql``;
  const res = await db.execute<PipelineRow>(sql`
    SELECT p.id, p.program_id, p.name, p.description,
      coalesce((SELECT json_agg(${STAGE} ORDER BY s.position) FROM pipeline_stages s
        LEFT JOIN rules r ON r.id = s.rule_id WHERE s.pipeline_id = p.id), '[]'::json) AS stages,
      (SELECT count(*)::int FROM pipeline_patients x WHERE x.pipeline_id = p.id AND x.status = 'active') AS users_count,
      (SELECT count(*)::int FROM pipeline_patients x WHERE x.pipeline_id = p.id AND x.status = 'completed') AS completed_count,
      ${person('a')} AS created_by, ${isoUtc(sql`p.created_at`)} AS created_at
    FROM pipelines p LEFT JOIN admins a ON a.id = p.created_by
    WHERE p.program_id = ANY(${ids(programIds)})
      ${f.id === undefined ? sql`` : sql`AND p.id = ${f.id}`}
      ${f.search ? sql`AND p.name ILIKE ${containsPattern(f.search)}` : sql``}
      ${state}
    ORDER BY lower(p.name), p.id`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id), program_id: Number(r.program_id) }));
}

const USER = sql`json_build_object('patient', ${patientJson}, 'stage_id', pp.stage_id,
  'added_at', ${isoUtc(sql`pp.added_at`)}, 'moved_at', ${isoUtc(sql`pp.moved_at`)},
  'days_in_stage', floor(extract(epoch FROM now() - pp.moved_at) / 86400)::int, 'added_by', ${person('ab')})`;

/** The active patients of a pipeline (or one stage's), longest in their stage first. */
export async function usersOf(
  db: Queryable,
  pipelineId: number,
  q: { stageId?: number; patientId?: number; limit: number; offset?: number },
): Promise<{ rows: PipelineUser[]; total: number }> {
  const res = await db.execute<{ u: PipelineUser; total: number }>(sql`
    SELECT ${USER} AS u, count(*) OVER ()::int AS total
    FROM pipeline_patients pp JOIN patients pt ON pt.id = pp.patient_id LEFT JOIN admins ab ON ab.id = pp.added_by
    WHERE pp.pipeline_id = ${pipelineId} AND pp.status = 'active'
      ${q.stageId === undefined ? sql`` : sql`AND pp.stage_id = ${q.stageId}`}
      ${q.patientId === undefined ? sql`` : sql`AND pp.patient_id = ${q.patientId}`}
    ORDER BY pp.moved_at, pt.last_name, pt.first_name, pt.id
    LIMIT ${q.limit} OFFSET ${q.offset ?? 0}`);
  return { rows: res.rows.map((r) => r.u), total: res.rows[0]?.total ?? 0 };
}

/**
 * The board: the first `perStage` patients of each stage, longest in their stage first. Each stage's
 * count (`stages[].users`) says how many it holds; the stage-users route pages the rest (issue 27: a
 * single cap over the whole board left later stages empty without a word).
 */
export async function boardUsersOf(
  db: Queryable,
  pipelineId: number,
  perStage: number,
): Promise<PipelineUser[]> {
  // Per stage, from its (stage_id, moved_at) index: the first rows by time in the stage, with ties (so
  // that the name order among patients moved at the same moment is kept), then ordered in full.
  const res = await db.execute<{ u: PipelineUser }>(sql`
    SELECT ${USER} AS u FROM pipeline_stages st
    CROSS JOIN LATERAL (
      SELECT z.* FROM (
        SELECT x.* FROM pipeline_patients x
        WHERE x.stage_id = st.id AND x.pipeline_id = ${pipelineId} AND x.status = 'active'
        ORDER BY x.moved_at FETCH FIRST ${perStage} ROWS WITH TIES) z
      JOIN patients y ON y.id = z.patient_id
      ORDER BY z.moved_at, y.last_name, y.first_name, y.id LIMIT ${perStage}) pp
    JOIN patients pt ON pt.id = pp.patient_id LEFT JOIN admins ab ON ab.id = pp.added_by
    WHERE st.pipeline_id = ${pipelineId}
    ORDER BY pp.moved_at, pt.last_name, pt.first_name, pt.id`);
  return res.rows.map((r) => r.u);
}

export async function pipelineProgram(db: Queryable, pipelineId: number): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(
    sql`SELECT program_id FROM pipelines WHERE id = ${pipelineId}`,
  );
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function insertPipeline(
  db: Queryable,
  row: { programId: number; name: string; description: string; createdBy: number },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO pipelines (program_id, name, description, created_by)
    VALUES (${row.programId}, ${row.name}, ${row.description}, ${row.createdBy}) RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function insertStages(
  db: Queryable,
  pipelineId: number,
  stages: readonly { name: string; color: string | null }[],
) {
  for (const [i, s] of stages.entries())
    await db.execute(sql`
      INSERT INTO pipeline_stages (pipeline_id, name, position, color) VALUES (${pipelineId}, ${s.name}, ${i + 1}, ${s.color})`);
}

export async function deletePipeline(db: Queryable, pipelineId: number) {
  await db.execute(sql`DELETE FROM pipeline_patients WHERE pipeline_id = ${pipelineId}`);
  await db.execute(sql`DELETE FROM pipelines WHERE id = ${pipelineId}`);
}

// ---------------------------------------------------------------- stages

export async function stagesOf(db: Queryable, pipelineId: number, id?: number): Promise<PipelineStage[]> {
  const res = await db.execute<{ s: PipelineStage }>(sql`
    SELECT ${STAGE} AS s FROM pipeline_stages s LEFT JOIN rules r ON r.id = s.rule_id
    WHERE s.pipeline_id = ${pipelineId} ${id === undefined ? sql`` : sql`AND s.id = ${id}`}
    ORDER BY s.position`);
  return res.rows.map((r) => r.s);
}

export async function stageOfPipeline(db: Queryable, pipelineId: number, stageId: number) {
  const res = await db.execute<{ id: number; position: number }>(sql`
    SELECT id, position FROM pipeline_stages WHERE id = ${stageId} AND pipeline_id = ${pipelineId}`);
  return res.rows[0] ?? null;
}

export async function firstStage(db: Queryable, pipelineId: number): Promise<number | null> {
  const res = await db.execute<{ id: number }>(sql`
    SELECT id FROM pipeline_stages WHERE pipeline_id = ${pipelineId} ORDER BY position LIMIT 1`);
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

/** Puts a stage at a position (1-based, clamped), shifting the others; a new stage when `stageId` is null. */
export async function placeStage(
  db: Queryable,
  pipelineId: number,
  stageId: number | null,
  set: { name?: string; color?: string | null; position?: number },
): Promise<number> {
  // Lock the pipeline's stages: two edits of one pipeline never interleave their positions.
  const current = await db.execute<{ id: number }>(sql`
    SELECT id FROM pipeline_stages WHERE pipeline_id = ${pipelineId} ORDER BY position FOR UPDATE`);
  const order = current.rows.map((r) => Number(r.id)).filter((id) => id !== stageId);
  let id = stageId;
  if (id === null) {
    const res = await db.execute<{ id: number }>(sql`
      INSERT INTO pipeline_stages (pipeline_id, name, position, color)
      VALUES (${pipelineId}, ${set.name!}, ${order.length + 1000}, ${set.color ?? null}) RETURNING id`);
    id = Number(res.rows[0]!.id);
  } else {
    const parts: SQL[] = [];
    if (set.name !== undefined) parts.push(sql`name = ${set.name}`);
    if (set.color !== undefined) parts.push(sql`color = ${set.color}`);
    if (parts.length > 0)
      await db.execute(sql`UPDATE pipeline_stages SET ${sql.join(parts, sql`, `)} WHERE id = ${id}`);
  }
  const oldIndex = current.rows.findIndex((r) => Number(r.id) === id);
  const at = Math.min(
    Math.max((set.position ?? (oldIndex >= 0 ? oldIndex + 1 : order.length + 1)) - 1, 0),
    order.length,
  );
  order.splice(at, 0, id);
  // Positions are rewritten in one statement (no unique index to trip over on the way).
  await db.execute(sql`
    UPDATE pipeline_stages s SET position = o.position
    FROM unnest(${ids(order)}) WITH ORDINALITY AS o(id, position) WHERE s.id = o.id`);
  return id;
}

export async function deleteStage(db: Queryable, pipelineId: number, stageId: number) {
  await db.execute(sql`DELETE FROM pipeline_stages WHERE id = ${stageId}`);
  await db.execute(sql`
    UPDATE pipeline_stages s SET position = o.rn
    FROM (SELECT id, row_number() OVER (ORDER BY position) AS rn FROM pipeline_stages WHERE pipeline_id = ${pipelineId}) o
    WHERE s.id = o.id`);
}

export async function stageCounts(db: Queryable, stageId: number) {
  const res = await db.execute<{ users: number; stages: number }>(sql`
    SELECT (SELECT count(*)::int FROM pipeline_patients WHERE stage_id = ${stageId}) AS users,
      (SELECT count(*)::int FROM pipeline_stages WHERE pipeline_id = (SELECT pipeline_id FROM pipeline_stages WHERE id = ${stageId})) AS stages`);
  return res.rows[0]!;
}

export async function setStageRule(db: Queryable, stageId: number, ruleId: number | null) {
  await db.execute(sql`UPDATE pipeline_stages SET rule_id = ${ruleId} WHERE id = ${stageId}`);
}

export async function stagePipeline(db: Queryable, stageId: number) {
  const res = await db.execute<{ pipeline_id: number; program_id: number }>(sql`
    SELECT s.pipeline_id, p.program_id FROM pipeline_stages s JOIN pipelines p ON p.id = s.pipeline_id WHERE s.id = ${stageId}`);
  const r = res.rows[0];
  return r ? { pipelineId: Number(r.pipeline_id), programId: Number(r.program_id) } : null;
}

export async function ruleProgram(db: Queryable, ruleId: number): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(
    sql`SELECT program_id FROM rules WHERE id = ${ruleId}`,
  );
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function stageRules(db: Queryable, programId: number) {
  const res = await db.execute<{
    pipeline: { id: number; name: string };
    stage: { id: number; name: string };
    rule: { id: number; name: string; active: boolean };
  }>(sql`
    SELECT json_build_object('id', p.id, 'name', p.name) AS pipeline, json_build_object('id', s.id, 'name', s.name) AS stage,
      json_build_object('id', r.id, 'name', r.name, 'active', r.active) AS rule
    FROM pipeline_stages s JOIN pipelines p ON p.id = s.pipeline_id JOIN rules r ON r.id = s.rule_id
    WHERE p.program_id = ${programId}
    ORDER BY lower(p.name), s.position`);
  return res.rows;
}

// ---------------------------------------------------------------- patients in pipelines

/** Patients of the program among the ids. */
export async function patientsOfProgram(db: Queryable, programId: number, patientIds: readonly number[]) {
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM patients WHERE program_id = ${programId} AND id = ANY(${ids(patientIds)})`,
  );
  return res.rows.map((r) => Number(r.id));
}

/** Patients of the program named by id or MRN (a CSV's cells), with what matched. */
export async function patientsByIdOrMrn(db: Queryable, programId: number, keys: readonly string[]) {
  const numbers = keys.filter((k) => /^[1-9][0-9]{0,15}$/.test(k)).map(Number);
  const res = await db.execute<{ id: number; mrn: string | null }>(sql`
    SELECT id, mrn FROM patients
    WHERE program_id = ${programId} AND (id = ANY(${ids(numbers)}) OR mrn = ANY(${`{${keys.map((k) => `"${k.replace(/["\\]/g, '')}"`).join(',')}}`}::text[]))`);
  return res.rows.map((r) => ({ id: Number(r.id), mrn: r.mrn }));
}

/**
 * Adds patients to a stage of the pipeline: new ones join, completed ones rejoin, active ones stay where
 * they are. Returns the patients that joined; each gets an 'added' event.
 */
export async function addPatients(
  db: Queryable,
  pipelineId: number,
  stageId: number,
  patientIds: readonly number[],
  adminId: number | null,
  kind: 'added' | 'rule_moved' = 'added',
  detail: Record<string, unknown> = {},
): Promise<number[]> {
  const res = await db.execute<{ patient_id: number }>(sql`
    INSERT INTO pipeline_patients (pipeline_id, patient_id, stage_id, status, added_by)
    SELECT ${pipelineId}, unnest(${ids(patientIds)}), ${stageId}, 'active', ${adminId}
    ON CONFLICT (pipeline_id, patient_id) DO UPDATE SET stage_id = EXCLUDED.stage_id, status = 'active',
      added_by = EXCLUDED.added_by, added_at = now(), moved_at = now(), completed_at = NULL
      WHERE pipeline_patients.status = 'completed'
    RETURNING patient_id`);
  const joined = res.rows.map((r) => Number(r.patient_id));
  if (joined.length > 0)
    await db.execute(sql`
      INSERT INTO pipeline_events (pipeline_id, patient_id, kind, to_stage_id, admin_id, detail)
      SELECT ${pipelineId}, unnest(${ids(joined)}), ${kind}, ${stageId}, ${adminId}, ${JSON.stringify(detail)}::jsonb`);
  return joined;
}

/** Moves an active patient to a stage; the stage it left, or null when not in the pipeline. */
export async function movePatient(
  db: Queryable,
  pipelineId: number,
  patientId: number,
  toStageId: number,
  adminId: number | null,
  kind: 'moved' | 'rule_moved' = 'moved',
  detail: Record<string, unknown> = {},
): Promise<{ from: number } | null> {
  const res = await db.execute<{ from_stage: number }>(sql`
    WITH old AS (
      SELECT stage_id FROM pipeline_patients WHERE pipeline_id = ${pipelineId} AND patient_id = ${patientId} AND status = 'active'
      FOR UPDATE)
    UPDATE pipeline_patients pp SET stage_id = ${toStageId}, moved_at = now()
    FROM old WHERE pp.pipeline_id = ${pipelineId} AND pp.patient_id = ${patientId}
    RETURNING old.stage_id AS from_stage`);
  const from = res.rows[0]?.from_stage;
  if (from === undefined) return null;
  await db.execute(sql`
    INSERT INTO pipeline_events (pipeline_id, patient_id, kind, from_stage_id, to_stage_id, admin_id, detail)
    VALUES (${pipelineId}, ${patientId}, ${kind}, ${from}, ${toStageId}, ${adminId}, ${JSON.stringify(detail)}::jsonb)`);
  return { from: Number(from) };
}

export async function activeStageOf(
  db: Queryable,
  pipelineId: number,
  patientId: number,
): Promise<number | null> {
  const res = await db.execute<{ stage_id: number }>(sql`
    SELECT stage_id FROM pipeline_patients WHERE pipeline_id = ${pipelineId} AND patient_id = ${patientId} AND status = 'active'`);
  return res.rows[0] ? Number(res.rows[0].stage_id) : null;
}

/** Completes (kind 'completed') or removes (kind 'removed') an active patient; false when not active. */
export async function leavePipeline(
  db: Queryable,
  pipelineId: number,
  patientId: number,
  adminId: number,
  kind: 'completed' | 'removed',
  detail: Record<string, unknown> = {},
): Promise<boolean> {
  const res = await db.execute<{ from_stage: number }>(sql`
    WITH old AS (
      SELECT stage_id FROM pipeline_patients WHERE pipeline_id = ${pipelineId} AND patient_id = ${patientId} AND status = 'active'
      FOR UPDATE)
    ${
      kind === 'completed'
        ? sql`UPDATE pipeline_patients pp SET status = 'completed', stage_id = NULL, completed_at = now(), moved_at = now()
            FROM old WHERE pp.pipeline_id = ${pipelineId} AND pp.patient_id = ${patientId}`
        : sql`DELETE FROM pipeline_patients pp USING old WHERE pp.pipeline_id = ${pipelineId} AND pp.patient_id = ${patientId}`
    }
    RETURNING old.stage_id AS from_stage`);
  if (res.rows.length === 0) return false;
  await db.execute(sql`
    INSERT INTO pipeline_events (pipeline_id, patient_id, kind, from_stage_id, admin_id, detail)
    VALUES (${pipelineId}, ${patientId}, ${kind}, ${res.rows[0]!.from_stage}, ${adminId}, ${JSON.stringify(detail)}::jsonb)`);
  return true;
}

const stageRef = (alias: string) =>
  sql.raw(
    `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'name', ${alias}.name) END`,
  );

export async function logsOf(db: Queryable, pipelineId: number, patientId: number): Promise<PipelineLog[]> {
  const res = await db.execute<PipelineLog>(sql`
    SELECT e.id, e.kind, ${stageRef('fs')} AS from_stage, ${stageRef('ts')} AS to_stage, ${person('a')} AS by,
      ${isoUtc(sql`e.at`)} AS at, e.detail
    FROM pipeline_events e
    LEFT JOIN pipeline_stages fs ON fs.id = e.from_stage_id LEFT JOIN pipeline_stages ts ON ts.id = e.to_stage_id
    LEFT JOIN admins a ON a.id = e.admin_id
    WHERE e.pipeline_id = ${pipelineId} AND e.patient_id = ${patientId}
    ORDER BY e.at DESC, e.id DESC`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Each stay in a stage: from the event that entered it to the next event, oldest first. */
export async function staysOf(db: Queryable, pipelineId: number, patientId: number): Promise<StageStay[]> {
  const res = await db.execute<StageStay>(sql`
    WITH e AS (
      SELECT to_stage_id, at, lead(at) OVER (ORDER BY at, id) AS left_at
      FROM pipeline_events WHERE pipeline_id = ${pipelineId} AND patient_id = ${patientId})
    SELECT json_build_object('id', s.id, 'name', s.name) AS stage, ${isoUtc(sql`e.at`)} AS entered_at,
      ${isoUtc(sql`e.left_at`)} AS left_at,
      round((extract(epoch FROM coalesce(e.left_at, now()) - e.at) / 86400)::numeric, 1)::float AS days
    FROM e JOIN pipeline_stages s ON s.id = e.to_stage_id
    ORDER BY e.at`);
  return res.rows;
}

const MEMBERSHIP = sql`json_build_object('pipeline', json_build_object('id', p.id, 'name', p.name), 'program_id', p.program_id,
  'patient', ${patientJson},
  'stage', CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object('id', s.id, 'name', s.name) END,
  'status', pp.status, 'added_at', ${isoUtc(sql`pp.added_at`)}, 'moved_at', ${isoUtc(sql`pp.moved_at`)},
  'completed_at', ${isoUtc(sql`pp.completed_at`)})`;
const MEMBERSHIP_FROM = sql`pipeline_patients pp JOIN pipelines p ON p.id = pp.pipeline_id
  JOIN patients pt ON pt.id = pp.patient_id LEFT JOIN pipeline_stages s ON s.id = pp.stage_id`;

export async function membershipsOfPatient(db: Queryable, patientId: number): Promise<PatientPipeline[]> {
  const res = await db.execute<{ m: PatientPipeline }>(sql`
    SELECT ${MEMBERSHIP} AS m FROM ${MEMBERSHIP_FROM}
    WHERE pp.patient_id = ${patientId}
    ORDER BY (pp.status = 'active') DESC, lower(p.name)`);
  return res.rows.map((r) => r.m);
}

export async function membershipsOfProgram(
  db: Queryable,
  programId: number,
  q: { page: number; per_page: number; search?: string },
): Promise<{ rows: PatientPipeline[]; total: number }> {
  const res = await db.execute<{ m: PatientPipeline; total: number }>(sql`
    SELECT ${MEMBERSHIP} AS m, count(*) OVER ()::int AS total FROM ${MEMBERSHIP_FROM}
    WHERE p.program_id = ${programId}
      ${q.search ? sql`AND (pt.last_name || ', ' || pt.first_name ILIKE ${containsPattern(q.search)} OR pt.mrn ILIKE ${containsPattern(q.search)})` : sql``}
    ORDER BY pt.last_name, pt.first_name, pt.id, lower(p.name)
    LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`);
  return { rows: res.rows.map((r) => r.m), total: res.rows[0]?.total ?? 0 };
}

/** The pipelines a patient is active in. */
export async function activePipelinesOf(db: Queryable, patientId: number): Promise<number[]> {
  const res = await db.execute<{ pipeline_id: number }>(sql`
    SELECT pipeline_id FROM pipeline_patients WHERE patient_id = ${patientId} AND status = 'active'`);
  return res.rows.map((r) => Number(r.pipeline_id));
}

// ---------------------------------------------------------------- templates

export async function templatesFor(db: Queryable, programId: number): Promise<PipelineTemplate[]> {
  const res = await db.execute<PipelineTemplate>(sql`
    SELECT t.id, t.program_id, t.enterprise_id, t.name, t.stages FROM pipeline_templates t
    WHERE t.program_id = ${programId}
       OR t.enterprise_id = (SELECT enterprise_id FROM programs WHERE id = ${programId})
    ORDER BY lower(t.name), t.id`);
  return res.rows.map((r) => ({
    ...r,
    id: Number(r.id),
    program_id: r.program_id === null ? null : Number(r.program_id),
    enterprise_id: r.enterprise_id === null ? null : Number(r.enterprise_id),
  }));
}

export async function insertTemplate(
  db: Queryable,
  row: {
    programId: number | null;
    enterpriseId: number | null;
    name: string;
    stages: unknown;
    createdBy: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO pipeline_templates (program_id, enterprise_id, name, stages, created_by)
    VALUES (${row.programId}, ${row.enterpriseId}, ${row.name}, ${JSON.stringify(row.stages)}::jsonb, ${row.createdBy})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

// ---------------------------------------------------------------- reports

export async function reportRows(db: Queryable, pipelineId: number, month: string | null) {
  const patients = await db.execute<{
    name: string;
    mrn: string | null;
    stage: string | null;
    status: string;
    added_at: string;
    moved_at: string;
    completed_at: string | null;
  }>(sql`
    SELECT pt.last_name || ', ' || pt.first_name AS name, pt.mrn, s.name AS stage, pp.status,
      ${isoUtc(sql`pp.added_at`)} AS added_at, ${isoUtc(sql`pp.moved_at`)} AS moved_at, ${isoUtc(sql`pp.completed_at`)} AS completed_at
    FROM pipeline_patients pp JOIN patients pt ON pt.id = pp.patient_id LEFT JOIN pipeline_stages s ON s.id = pp.stage_id
    WHERE pp.pipeline_id = ${pipelineId}
    ORDER BY s.position NULLS LAST, pt.last_name, pt.first_name`);
  const range = month
    ? sql`AND e.at >= ${`${month}-01`}::date AND e.at < (${`${month}-01`}::date + interval '1 month')`
    : sql``;
  const moves = await db.execute<{
    at: string;
    name: string;
    kind: string;
    from_stage: string | null;
    to_stage: string | null;
    by: string | null;
  }>(sql`
    SELECT ${isoUtc(sql`e.at`)} AS at, pt.last_name || ', ' || pt.first_name AS name, e.kind, fs.name AS from_stage,
      ts.name AS to_stage, a.given_name || ' ' || a.family_name AS by
    FROM pipeline_events e JOIN patients pt ON pt.id = e.patient_id
    LEFT JOIN pipeline_stages fs ON fs.id = e.from_stage_id LEFT JOIN pipeline_stages ts ON ts.id = e.to_stage_id
    LEFT JOIN admins a ON a.id = e.admin_id
    WHERE e.pipeline_id = ${pipelineId} ${range}
    ORDER BY e.at, e.id`);
  return { patients: patients.rows, moves: moves.rows };
}

export async function stageReportRows(db: Queryable, pipelineId: number) {
  const res = await db.execute<{
    position: number;
    name: string;
    now: number;
    entered: number;
    average_days: number | null;
  }>(sql`
    WITH stays AS (
      SELECT to_stage_id, extract(epoch FROM coalesce(lead(at) OVER (PARTITION BY patient_id ORDER BY at, id), now()) - at) / 86400 AS days
      FROM pipeline_events WHERE pipeline_id = ${pipelineId})
    SELECT s.position, s.name,
      (SELECT count(*)::int FROM pipeline_patients pp WHERE pp.stage_id = s.id) AS now,
      (SELECT count(*)::int FROM stays WHERE stays.to_stage_id = s.id) AS entered,
      (SELECT round(avg(days)::numeric, 1)::float FROM stays WHERE stays.to_stage_id = s.id) AS average_days
    FROM pipeline_stages s WHERE s.pipeline_id = ${pipelineId} ORDER BY s.position`);
  return res.rows;
}

// ---------------------------------------------------------------- pre-stage rules

/** The stages whose pre-stage rule is one of these (rule alerts just opened), with their pipeline. */
export async function stagesOfRules(db: Queryable, ruleIds: readonly number[]) {
  if (ruleIds.length === 0) return [];
  const res = await db.execute<{
    stage_id: number;
    pipeline_id: number;
    program_id: number;
    rule_id: number;
  }>(sql`
    SELECT s.id AS stage_id, s.pipeline_id, p.program_id, s.rule_id
    FROM pipeline_stages s JOIN pipelines p ON p.id = s.pipeline_id WHERE s.rule_id = ANY(${ids(ruleIds)})`);
  return res.rows.map((r) => ({
    stageId: Number(r.stage_id),
    pipelineId: Number(r.pipeline_id),
    programId: Number(r.program_id),
    ruleId: Number(r.rule_id),
  }));
}

export async function patientProgram(db: Queryable, patientId: number): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(
    sql`SELECT program_id FROM patients WHERE id = ${patientId}`,
  );
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function isEnterpriseAdmin(
  db: Queryable,
  adminId: number,
  enterpriseId: number,
): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM admin_enterprise_roles WHERE admin_id = ${adminId} AND enterprise_id = ${enterpriseId} AND role = 'enterprise_admin'`);
  return (res.rowCount ?? 0) > 0;
}
