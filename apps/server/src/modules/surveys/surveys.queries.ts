import {
  SURVEY_DUE_DAYS,
  type Survey,
  type SurveyAssignment,
  type SurveyCard,
  type SurveyEngagement,
  type SurveyFolder,
  type SurveyQuestionInput,
  type SurveyResponse,
  type SurveyTrigger,
  type SurveyWorklistItem,
} from '@caredeck/contracts';
import type { Fired, ScoredAnswer } from '@caredeck/domain';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import type { Queryable } from '../../platform/db/client';
import { containsPattern } from '../../platform/db/like';
import { pageOfHits } from '../../platform/db/page';
import { isoUtc } from '../../platform/db/time';

export const surveyObject = defineObjectKind(
  'survey',
  (id) => sql`SELECT program_id FROM surveys WHERE id = ${id}`,
);

export const surveyFolderObject = defineObjectKind(
  'survey folder',
  (id) => sql`SELECT program_id FROM survey_folders WHERE id = ${id}`,
);

const DUE = sql.raw(`interval '${SURVEY_DUE_DAYS} days'`);
const person = (alias: string) =>
  sql.raw(
    `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'name', ${alias}.given_name || ' ' || ${alias}.family_name) END`,
  );
const ids = (list: readonly number[]) => sql`${`{${list.join(',')}}`}::bigint[]`;

// ---------------------------------------------------------------- surveys and folders

const QUESTIONS = sql`coalesce((SELECT json_agg(json_build_object('id', q.id, 'position', q.position, 'text', q.text,
    'kind', q.kind, 'options', q.options, 'min', q.min, 'max', q.max, 'required', q.required) ORDER BY q.position)
  FROM survey_questions q WHERE q.survey_id = s.id AND q.removed_at IS NULL), '[]'::json)`;
const TRIGGERS = sql`coalesce((SELECT json_agg(json_build_object('id', t.id, 'kind', t.kind, 'question_id', t.question_id,
    'value', t.value, 'is_active', t.is_active) ORDER BY t.kind DESC, q.position NULLS FIRST, t.id)
  FROM survey_triggers t LEFT JOIN survey_questions q ON q.id = t.question_id
  WHERE t.survey_id = s.id AND (q.id IS NULL OR q.removed_at IS NULL)), '[]'::json)`;

type SurveyRow = Omit<Survey, 'max_score'>;

/** A program's surveys by name (or one), with questions, triggers and open assignments, in one statement. */
export async function surveysOf(
  db: Queryable,
  programId: number,
  filter: { id?: number; folderId?: number; search?: string } = {},
): Promise<SurveyRow[]> {
  const res = await db.execute<SurveyRow>(sql`
    SELECT s.id, s.program_id, s.name, s.description, s.folder_id, s.url, s.analyse_url, s.version,
      ${QUESTIONS} AS questions, ${TRIGGERS} AS triggers,
      (SELECT count(*)::int FROM survey_assignments a WHERE a.survey_id = s.id AND a.status = 'pending') AS open_assignments,
      ${isoUtc(sql`s.created_at`)} AS created_at, ${isoUtc(sql`s.updated_at`)} AS updated_at
    FROM surveys s
    WHERE s.program_id = ${programId}
      ${filter.id === undefined ? sql`` : sql`AND s.id = ${filter.id}`}
      ${filter.folderId === undefined ? sql`` : sql`AND s.folder_id = ${filter.folderId}`}
      ${filter.search ? sql`AND s.name ILIKE ${containsPattern(filter.search)}` : sql``}
    ORDER BY lower(s.name), s.id`);
  return res.rows;
}

export async function surveyProgram(db: Queryable, surveyId: number): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(
    sql`SELECT program_id FROM surveys WHERE id = ${surveyId}`,
  );
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function insertSurvey(
  db: Queryable,
  row: {
    programId: number;
    name: string;
    description: string;
    folderId: number | null;
    url: string | null;
    analyseUrl: string | null;
    createdBy: number;
  },
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    WITH s AS (
      INSERT INTO surveys (program_id, name, description, folder_id, url, analyse_url, created_by)
      VALUES (${row.programId}, ${row.name}, ${row.description}, ${row.folderId}, ${row.url}, ${row.analyseUrl}, ${row.createdBy})
      RETURNING id)
    INSERT INTO survey_triggers (survey_id, kind, updated_by) SELECT id, 'score', ${row.createdBy} FROM s
    RETURNING survey_id AS id`);
  return Number(res.rows[0]!.id);
}

/**
 * Replaces the questions: kept ids are updated in place (their triggers stay), the others are removed
 * (kept for older responses), new ones inserted with a switched-off trigger. Bumps the version unless
 * `bump` is false (a new survey's first questions).
 */
export async function replaceQuestions(
  db: Queryable,
  surveyId: number,
  questions: (Omit<SurveyQuestionInput, 'options' | 'min' | 'max' | 'required'> & {
    options: { value: string; label: string; score: number }[];
    min: number | null;
    max: number | null;
    required: boolean;
  })[],
  adminId: number,
  bump: boolean,
): Promise<void> {
  const kept = questions.flatMap((q) => (q.id === undefined ? [] : [q.id]));
  await db.execute(sql`
    UPDATE survey_questions SET removed_at = now()
    WHERE survey_id = ${surveyId} AND removed_at IS NULL AND NOT (id = ANY(${ids(kept)}))`);
  for (const [i, q] of questions.entries()) {
    const options = JSON.stringify(q.options);
    if (q.id !== undefined) {
      await db.execute(sql`
        UPDATE survey_questions SET position = ${i + 1}, text = ${q.text}, kind = ${q.kind}, options = ${options}::jsonb,
          min = ${q.min}, max = ${q.max}, required = ${q.required}
        WHERE id = ${q.id} AND survey_id = ${surveyId}`);
      continue;
    }
    await db.execute(sql`
      WITH q AS (
        INSERT INTO survey_questions (survey_id, position, text, kind, options, min, max, required)
        VALUES (${surveyId}, ${i + 1}, ${q.text}, ${q.kind}, ${options}::jsonb, ${q.min}, ${q.max}, ${q.required})
        RETURNING id)
      INSERT INTO survey_triggers (survey_id, question_id, kind, updated_by)
      SELECT ${surveyId}, id, 'question', ${adminId} FROM q WHERE ${q.kind} <> 'text'`);
  }
  await db.execute(sql`
    UPDATE surveys SET updated_at = now() ${bump ? sql`, version = version + 1` : sql``} WHERE id = ${surveyId}`);
}

/** The ids of a survey's current questions (a kept id must be one of them). */
export async function questionIds(db: Queryable, surveyId: number): Promise<number[]> {
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM survey_questions WHERE survey_id = ${surveyId} AND removed_at IS NULL`,
  );
  return res.rows.map((r) => Number(r.id));
}

export async function updateSurvey(
  db: Queryable,
  surveyId: number,
  set: {
    name?: string;
    description?: string;
    url?: string | null;
    analyseUrl?: string | null;
    folderId?: number | null;
  },
): Promise<void> {
  const parts: SQL[] = [sql`updated_at = now()`];
  if (set.name !== undefined) parts.push(sql`name = ${set.name}`);
  if (set.description !== undefined) parts.push(sql`description = ${set.description}`);
  if (set.url !== undefined) parts.push(sql`url = ${set.url}`);
  if (set.analyseUrl !== undefined) parts.push(sql`analyse_url = ${set.analyseUrl}`);
  if (set.folderId !== undefined) parts.push(sql`folder_id = ${set.folderId}`);
  await db.execute(sql`UPDATE surveys SET ${sql.join(parts, sql`, `)} WHERE id = ${surveyId}`);
}

export async function foldersOf(db: Queryable, programId: number, id?: number): Promise<SurveyFolder[]> {
  const res = await db.execute<SurveyFolder>(sql`
    SELECT f.id, f.program_id, f.name,
      (SELECT count(*)::int FROM surveys s WHERE s.folder_id = f.id) AS surveys
    FROM survey_folders f
    WHERE f.program_id = ${programId} ${id === undefined ? sql`` : sql`AND f.id = ${id}`}
    ORDER BY lower(f.name), f.id`);
  return res.rows;
}

export async function folderProgram(db: Queryable, folderId: number): Promise<number | null> {
  const res = await db.execute<{ program_id: number }>(
    sql`SELECT program_id FROM survey_folders WHERE id = ${folderId}`,
  );
  return res.rows[0] ? Number(res.rows[0].program_id) : null;
}

export async function insertFolder(db: Queryable, programId: number, name: string, adminId: number) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO survey_folders (program_id, name, created_by) VALUES (${programId}, ${name}, ${adminId}) RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function renameFolder(db: Queryable, folderId: number, name: string) {
  await db.execute(sql`UPDATE survey_folders SET name = ${name} WHERE id = ${folderId}`);
}

export async function deleteFolder(db: Queryable, folderId: number) {
  await db.execute(sql`DELETE FROM survey_folders WHERE id = ${folderId}`);
}

// ---------------------------------------------------------------- assignments

const ASSIGNMENT = sql`json_build_object(
  'id', a.id, 'survey', json_build_object('id', s.id, 'name', s.name, 'version', s.version),
  'patient_id', a.patient_id, 'program_id', a.program_id,
  'status', CASE WHEN a.status = 'pending' AND a.scheduled_at > now() THEN 'scheduled'
                 WHEN a.status = 'pending' THEN 'open' ELSE a.status END,
  'scheduled_at', ${isoUtc(sql`a.scheduled_at`)}, 'due_at', ${isoUtc(sql`(a.scheduled_at + ${DUE})`)},
  'overdue', a.status = 'pending' AND a.scheduled_at + ${DUE} < now(),
  'is_private', a.is_private, 'admin_assign', a.admin_assign, 'reassign_after_days', a.reassign_after_days,
  'assigned_by', ${person('ab')}, 'assigned_at', ${isoUtc(sql`a.assigned_at`)},
  'completed_at', ${isoUtc(sql`a.completed_at`)},
  'score', CASE WHEN r.status = 'completed' THEN r.score END,
  'flagged', coalesce(r.status = 'completed' AND jsonb_array_length(r.triggers) > 0, false),
  'response_id', CASE WHEN r.status = 'in_progress' THEN r.id END)`;
const ASSIGNMENT_FROM = sql`survey_assignments a JOIN surveys s ON s.id = a.survey_id
  LEFT JOIN survey_responses r ON r.assignment_id = a.id
  LEFT JOIN admins ab ON ab.id = a.assigned_by`;

export async function assignmentsOfPatient(db: Queryable, patientId: number): Promise<SurveyAssignment[]> {
  const res = await db.execute<{ a: SurveyAssignment }>(sql`
    SELECT ${ASSIGNMENT} AS a FROM ${ASSIGNMENT_FROM}
    WHERE a.patient_id = ${patientId} AND a.status <> 'unassigned'
    ORDER BY (a.status = 'pending') DESC, a.scheduled_at DESC, a.id DESC`);
  return res.rows.map((r) => r.a);
}

export async function assignmentById(db: Queryable, id: number): Promise<SurveyAssignment | null> {
  const res = await db.execute<{ a: SurveyAssignment }>(
    sql`SELECT ${ASSIGNMENT} AS a FROM ${ASSIGNMENT_FROM} WHERE a.id = ${id}`,
  );
  return res.rows[0]?.a ?? null;
}

/** The patient's pending assignment of the survey and whether one was ever completed, locking the pending one. */
export async function assignmentState(db: Queryable, patientId: number, surveyId: number) {
  const res = await db.execute<{ pending: number | null; completed: number | null }>(sql`
    SELECT
      (SELECT id FROM survey_assignments WHERE patient_id = ${patientId} AND survey_id = ${surveyId} AND status = 'pending') AS pending,
      (SELECT id FROM survey_assignments WHERE patient_id = ${patientId} AND survey_id = ${surveyId} AND status = 'completed'
       ORDER BY completed_at DESC LIMIT 1) AS completed`);
  const r = res.rows[0]!;
  return {
    pending: r.pending === null ? null : Number(r.pending),
    completed: r.completed === null ? null : Number(r.completed),
  };
}

export async function insertAssignment(
  db: Queryable,
  row: {
    programId: number;
    surveyId: number;
    patientId: number;
    scheduledAt: string | null;
    isPrivate: boolean;
    adminAssign: boolean;
    reassignAfterDays: number | null;
    assignedBy: number | null;
    previousId?: number;
  },
): Promise<number | null> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO survey_assignments (program_id, survey_id, patient_id, scheduled_at, is_private, admin_assign,
      reassign_after_days, assigned_by, previous_id)
    VALUES (${row.programId}, ${row.surveyId}, ${row.patientId}, coalesce(${row.scheduledAt}::timestamptz, now()),
      ${row.isPrivate}, ${row.adminAssign}, ${row.reassignAfterDays}, ${row.assignedBy}, ${row.previousId ?? null})
    ON CONFLICT (patient_id, survey_id) WHERE status = 'pending' DO NOTHING
    RETURNING id`);
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

export async function insertEvent(
  db: Queryable,
  e: { assignmentId: number; kind: string; adminId: number | null; detail?: Record<string, unknown> },
) {
  await db.execute(sql`
    INSERT INTO survey_events (assignment_id, kind, admin_id, detail)
    VALUES (${e.assignmentId}, ${e.kind}, ${e.adminId}, ${JSON.stringify(e.detail ?? {})}::jsonb)`);
}

/** Unassigns the patient's pending assignment of the survey; its id, or null when none was pending. */
export async function unassign(db: Queryable, patientId: number, surveyId: number, adminId: number) {
  const res = await db.execute<{ id: number }>(sql`
    UPDATE survey_assignments SET status = 'unassigned', unassigned_at = now(), unassigned_by = ${adminId}
    WHERE patient_id = ${patientId} AND survey_id = ${surveyId} AND status = 'pending'
    RETURNING id`);
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

/** Patients of the program among the ids (bulk assignment). */
export async function patientsOfProgram(db: Queryable, programId: number, patientIds: readonly number[]) {
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM patients WHERE program_id = ${programId} AND id = ANY(${ids(patientIds)})`,
  );
  return res.rows.map((r) => Number(r.id));
}

// ---------------------------------------------------------------- responses

/** The assignment a response is recorded on, locked, with its survey's version. */
export async function lockAssignment(db: Queryable, assignmentId: number, patientId: number) {
  const res = await db.execute<{
    id: number;
    survey_id: number;
    program_id: number;
    status: string;
    scheduled_at: string;
    reassign_after_days: number | null;
    is_private: boolean;
    admin_assign: boolean;
    version: number;
  }>(sql`
    SELECT a.id, a.survey_id, a.program_id, a.status, a.scheduled_at, a.reassign_after_days, a.is_private,
      a.admin_assign, s.version
    FROM survey_assignments a JOIN surveys s ON s.id = a.survey_id
    WHERE a.id = ${assignmentId} AND a.patient_id = ${patientId}
    FOR UPDATE OF a`);
  const r = res.rows[0];
  return r
    ? { ...r, id: Number(r.id), survey_id: Number(r.survey_id), program_id: Number(r.program_id) }
    : null;
}

export async function saveResponse(
  db: Queryable,
  r: {
    assignmentId: number;
    surveyId: number;
    patientId: number;
    programId: number;
    version: number;
    answers: ScoredAnswer[];
    score: number;
    maxScore: number;
    triggers: Fired[];
    complete: boolean;
    recordedBy: number;
  },
): Promise<{ id: number; created: boolean }> {
  const res = await db.execute<{ id: number; created: boolean }>(sql`
    INSERT INTO survey_responses (assignment_id, survey_id, patient_id, program_id, version, status, answers, score,
      max_score, triggers, recorded_by, completed_at)
    VALUES (${r.assignmentId}, ${r.surveyId}, ${r.patientId}, ${r.programId}, ${r.version},
      ${r.complete ? 'completed' : 'in_progress'}, ${JSON.stringify(r.answers)}::jsonb,
      ${r.complete ? r.score : null}, ${r.maxScore}, ${JSON.stringify(r.triggers)}::jsonb, ${r.recordedBy},
      ${r.complete ? sql`now()` : sql`NULL`})
    ON CONFLICT (assignment_id) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status,
      answers = EXCLUDED.answers, score = EXCLUDED.score, max_score = EXCLUDED.max_score,
      triggers = EXCLUDED.triggers, recorded_by = EXCLUDED.recorded_by, completed_at = EXCLUDED.completed_at
    RETURNING id, (xmax = 0) AS created`);
  return { id: Number(res.rows[0]!.id), created: res.rows[0]!.created };
}

export async function completeAssignment(db: Queryable, assignmentId: number) {
  await db.execute(
    sql`UPDATE survey_assignments SET status = 'completed', completed_at = now() WHERE id = ${assignmentId}`,
  );
}

const RESPONSE = sql`json_build_object(
  'id', r.id, 'assignment_id', r.assignment_id, 'survey', json_build_object('id', s.id, 'name', s.name),
  'patient_id', r.patient_id, 'version', r.version, 'status', r.status,
  'started_at', ${isoUtc(sql`r.started_at`)}, 'completed_at', ${isoUtc(sql`r.completed_at`)},
  'score', r.score, 'max_score', r.max_score,
  'reassign_after_hours', CASE WHEN r.status = 'completed' AND a.reassign_after_days IS NOT NULL
    THEN greatest(0, round(extract(epoch FROM (r.completed_at + make_interval(days => a.reassign_after_days) - now())) / 3600)) END,
  'recorded_by', ${person('rb')}, 'triggers', r.triggers, 'answered', jsonb_array_length(r.answers),
  'is_private', a.is_private, 'assigned_by_id', a.assigned_by)`;
const RESPONSE_FROM = sql`survey_responses r JOIN surveys s ON s.id = r.survey_id
  JOIN survey_assignments a ON a.id = r.assignment_id LEFT JOIN admins rb ON rb.id = r.recorded_by`;

export type ResponseRow = SurveyResponse & {
  is_private: boolean;
  assigned_by_id: number | null;
  raw_answers: ScoredAnswer[];
};

export async function responsesOfPatient(
  db: Queryable,
  patientId: number,
  q: { page: number; per_page: number; incomplete?: boolean; version?: number; survey_id?: number },
): Promise<{ rows: ResponseRow[]; total: number }> {
  const where = sql`r.patient_id = ${patientId}
    ${q.incomplete ? sql`AND r.status = 'in_progress'` : sql``}
    ${q.version === undefined ? sql`` : sql`AND r.version = ${q.version}`}
    ${q.survey_id === undefined ? sql`` : sql`AND r.survey_id = ${q.survey_id}`}`;
  const res = await db.execute<{ r: ResponseRow; answers: ScoredAnswer[]; total: number }>(sql`
    SELECT ${RESPONSE} AS r, r.answers, count(*) OVER ()::int AS total
    FROM ${RESPONSE_FROM} WHERE ${where}
    ORDER BY coalesce(r.completed_at, r.started_at) DESC, r.id DESC
    LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`);
  const total = res.rows[0]?.total ?? (q.page > 1 ? await countResponses(db, where) : 0);
  return { rows: res.rows.map((x) => ({ ...x.r, raw_answers: x.answers })), total };
}

async function countResponses(db: Queryable, where: SQL) {
  const res = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM survey_responses r WHERE ${where}`,
  );
  return res.rows[0]!.n;
}

export async function responsesOfAssignment(db: Queryable, assignmentId: number): Promise<ResponseRow[]> {
  const res = await db.execute<{ r: ResponseRow; answers: ScoredAnswer[] }>(sql`
    SELECT ${RESPONSE} AS r, r.answers FROM ${RESPONSE_FROM} WHERE r.assignment_id = ${assignmentId} ORDER BY r.id`);
  return res.rows.map((x) => ({ ...x.r, raw_answers: x.answers }));
}

export async function responseById(db: Queryable, id: number): Promise<ResponseRow | null> {
  const res = await db.execute<{ r: ResponseRow; answers: ScoredAnswer[] }>(
    sql`SELECT ${RESPONSE} AS r, r.answers FROM ${RESPONSE_FROM} WHERE r.id = ${id}`,
  );
  return res.rows[0] ? { ...res.rows[0].r, raw_answers: res.rows[0].answers } : null;
}

/** Every question (removed ones too) of the surveys, for reading older answers. */
export async function questionsOfSurveys(db: Queryable, surveyIds: readonly number[]) {
  if (surveyIds.length === 0) return [];
  const res = await db.execute<{
    id: number;
    survey_id: number;
    text: string;
    kind: 'single' | 'multiple' | 'number' | 'text';
    options: { value: string; label: string; score: number }[];
    min: number | null;
    max: number | null;
    required: boolean;
    removed: boolean;
  }>(sql`
    SELECT id, survey_id, text, kind, options, min, max, required, removed_at IS NOT NULL AS removed
    FROM survey_questions WHERE survey_id = ANY(${ids(surveyIds)}) ORDER BY survey_id, position`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id), survey_id: Number(r.survey_id) }));
}

export async function triggersOfSurvey(db: Queryable, surveyId: number): Promise<SurveyTrigger[]> {
  const res = await db.execute<SurveyTrigger>(sql`
    SELECT id, kind, question_id, value, is_active FROM survey_triggers WHERE survey_id = ${surveyId}`);
  return res.rows.map((r) => ({
    ...r,
    id: Number(r.id),
    question_id: r.question_id === null ? null : Number(r.question_id),
  }));
}

// ---------------------------------------------------------------- triggers

export async function triggerOf(
  db: Queryable,
  id: number,
  surveyId: number,
  programId: number,
  kind: 'score' | 'question',
) {
  const res = await db.execute<SurveyTrigger>(sql`
    SELECT t.id, t.kind, t.question_id, t.value, t.is_active FROM survey_triggers t JOIN surveys s ON s.id = t.survey_id
    WHERE t.id = ${id} AND t.survey_id = ${surveyId} AND s.program_id = ${programId} AND t.kind = ${kind}`);
  return res.rows[0] ?? null;
}

export async function updateTrigger(
  db: Queryable,
  id: number,
  set: { value?: number | null; isActive?: boolean },
  adminId: number,
): Promise<SurveyTrigger> {
  const res = await db.execute<SurveyTrigger>(sql`
    UPDATE survey_triggers SET updated_at = now(), updated_by = ${adminId}
      ${set.value === undefined ? sql`` : sql`, value = ${set.value}`}
      ${set.isActive === undefined ? sql`` : sql`, is_active = ${set.isActive}`}
      ${set.value === null ? sql`, is_active = false` : sql``}
    WHERE id = ${id}
    RETURNING id, kind, question_id, value, is_active`);
  return res.rows[0]!;
}

export async function triggerHits(db: Queryable, programId: number, patientId: number) {
  const res = await db.execute<{
    response_id: number;
    survey: { id: number; name: string };
    completed_at: string;
    hit: Fired;
  }>(sql`
    SELECT r.id AS response_id, json_build_object('id', s.id, 'name', s.name) AS survey,
      ${isoUtc(sql`r.completed_at`)} AS completed_at, t.hit
    FROM survey_responses r JOIN surveys s ON s.id = r.survey_id
    CROSS JOIN LATERAL jsonb_array_elements(r.triggers) AS t(hit)
    WHERE r.patient_id = ${patientId} AND r.program_id = ${programId} AND r.status = 'completed'
    ORDER BY r.completed_at DESC, r.id DESC`);
  return res.rows.map((r) => ({
    ...r.hit,
    response_id: Number(r.response_id),
    survey: r.survey,
    completed_at: r.completed_at,
  }));
}

export async function engagementsOf(
  db: Queryable,
  programId: number,
  patientId: number,
  surveyId: number,
): Promise<SurveyEngagement[]> {
  const res = await db.execute<SurveyEngagement>(sql`
    SELECT e.id, e.assignment_id, e.kind, ${isoUtc(sql`e.at`)} AS at, ${person('ad')} AS by, e.detail
    FROM survey_events e JOIN survey_assignments a ON a.id = e.assignment_id
    LEFT JOIN admins ad ON ad.id = e.admin_id
    WHERE a.program_id = ${programId} AND a.patient_id = ${patientId} AND a.survey_id = ${surveyId}
    ORDER BY e.at DESC, e.id DESC`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id), assignment_id: Number(r.assignment_id) }));
}

// ---------------------------------------------------------------- worklist and card

const WORKLIST_FILTER: Record<string, SQL> = {
  todo: sql`(a.status = 'pending' AND a.scheduled_at <= now())
    OR (a.status = 'completed' AND a.completed_at > now() - interval '7 days' AND jsonb_array_length(r.triggers) > 0)`,
  open: sql`a.status = 'pending' AND a.scheduled_at <= now()`,
  overdue: sql`a.status = 'pending' AND a.scheduled_at + ${DUE} < now()`,
  scheduled: sql`a.status = 'pending' AND a.scheduled_at > now()`,
  flagged: sql`a.status = 'completed' AND jsonb_array_length(r.triggers) > 0`,
  completed: sql`a.status = 'completed'`,
};

export async function worklist(
  db: Queryable,
  programId: number,
  q: { page: number; per_page: number; status: string; survey_id?: number; search?: string },
): Promise<{ rows: SurveyWorklistItem[]; total: number }> {
  // Found, ordered and counted on the assignments alone; only the page's rows are joined and built into
  // JSON (`count(*) OVER ()` built every match's JSON before the page was cut: issue 27).
  const { rows, total } = await pageOfHits<{
    a: SurveyAssignment;
    patient: SurveyWorklistItem['patient'];
    triggers: SurveyWorklistItem['triggers'];
  }>(db, {
    hits: sql`
      SELECT a.id,
        (a.status = 'completed' AND coalesce(jsonb_array_length(r.triggers) > 0, false)) AS flagged,
        (a.status = 'pending' AND a.scheduled_at + ${DUE} < now()) AS overdue,
        CASE WHEN a.status = 'completed' THEN -extract(epoch FROM a.completed_at) ELSE extract(epoch FROM a.scheduled_at) END AS t
      FROM survey_assignments a LEFT JOIN survey_responses r ON r.assignment_id = a.id
      ${q.search ? sql`JOIN patients p ON p.id = a.patient_id` : sql``}
      WHERE a.program_id = ${programId} AND (${WORKLIST_FILTER[q.status]!})
        ${q.survey_id === undefined ? sql`` : sql`AND a.survey_id = ${q.survey_id}`}
        ${q.search ? sql`AND (p.last_name || ', ' || p.first_name ILIKE ${containsPattern(q.search)} OR p.mrn ILIKE ${containsPattern(q.search)})` : sql``}`,
    order: sql`flagged DESC, overdue DESC, t, id`,
    limit: q.per_page,
    offset: (q.page - 1) * q.per_page,
    build: sql`
      SELECT page.flagged, page.overdue, page.t, page.id AS aid, ${ASSIGNMENT} AS a,
        json_build_object('id', p.id, 'name', p.last_name || ', ' || p.first_name, 'mrn', p.mrn) AS patient,
        coalesce(CASE WHEN r.status = 'completed' THEN r.triggers END, '[]'::jsonb) AS triggers
      FROM page JOIN ${ASSIGNMENT_FROM} ON a.id = page.id JOIN patients p ON p.id = a.patient_id`,
    buildOrder: sql`x.flagged DESC, x.overdue DESC, x.t, x.aid`,
  });
  return {
    rows: rows.map((r) => ({ ...r.a, patient: r.patient, triggers: r.triggers })),
    total,
  };
}

export async function cardOf(
  db: Queryable,
  programId: number,
  surveyId: number,
): Promise<(Omit<SurveyCard, 'max_score' | 'score_bands'> & { scores: number[] }) | null> {
  const res = await db.execute<
    Omit<SurveyCard, 'max_score' | 'score_bands'> & { scores: number[] | null }
  >(sql`
    SELECT json_build_object('id', s.id, 'name', s.name, 'version', s.version) AS survey,
      count(a.id) FILTER (WHERE a.status <> 'unassigned')::int AS assigned,
      count(a.id) FILTER (WHERE a.status = 'pending' AND a.scheduled_at <= now())::int AS open,
      count(a.id) FILTER (WHERE a.status = 'pending' AND a.scheduled_at + ${DUE} < now())::int AS overdue,
      count(a.id) FILTER (WHERE a.status = 'pending' AND a.scheduled_at > now())::int AS scheduled,
      count(a.id) FILTER (WHERE a.status = 'completed')::int AS completed,
      CASE WHEN count(a.id) FILTER (WHERE a.status <> 'unassigned' AND a.scheduled_at <= now()) = 0 THEN NULL
        ELSE round(100.0 * count(a.id) FILTER (WHERE a.status = 'completed')
          / count(a.id) FILTER (WHERE a.status <> 'unassigned' AND a.scheduled_at <= now()), 1)::float END AS completion_rate,
      round(avg(r.score) FILTER (WHERE r.status = 'completed')::numeric, 2)::float AS average_score,
      count(r.id) FILTER (WHERE r.status = 'completed' AND jsonb_array_length(r.triggers) > 0)::int AS flagged,
      ${isoUtc(sql`max(r.completed_at)`)} AS last_completed_at,
      array_agg(r.score) FILTER (WHERE r.status = 'completed') AS scores
    FROM surveys s
    LEFT JOIN survey_assignments a ON a.survey_id = s.id
    LEFT JOIN survey_responses r ON r.assignment_id = a.id
    WHERE s.id = ${surveyId} AND s.program_id = ${programId}
    GROUP BY s.id`);
  const r = res.rows[0];
  return r ? { ...r, scores: r.scores ?? [] } : null;
}

// ---------------------------------------------------------------- alerts

/** Open assignments overdue (pending_assessments_alerts) and flagged completions of the last 7 days (completed_surveys_alerts). */
export async function surveySignals(db: Queryable, programIds: readonly number[]) {
  const res = await db.execute<{
    type: 'pending_assessments_alerts' | 'completed_surveys_alerts';
    key: string;
    patient_id: number;
    program_id: number;
    breached: boolean;
    at: string;
    survey: string;
    score: number | null;
    triggers: Fired[];
    due_at: string | null;
  }>(sql`
    SELECT 'pending_assessments_alerts' AS type, a.id::text AS key, a.patient_id, a.program_id,
      a.status = 'pending' AS breached,
      ${isoUtc(sql`CASE WHEN a.status = 'pending' THEN a.scheduled_at + ${DUE} ELSE coalesce(a.completed_at, a.unassigned_at) END`)} AS at,
      s.name AS survey, NULL::float AS score, '[]'::jsonb AS triggers, ${isoUtc(sql`(a.scheduled_at + ${DUE})`)} AS due_at
    FROM survey_assignments a JOIN surveys s ON s.id = a.survey_id
    WHERE a.program_id = ANY(${ids(programIds)}) AND a.scheduled_at + ${DUE} < now()
      AND (a.status = 'pending' OR coalesce(a.completed_at, a.unassigned_at) > now() - interval '2 days')
    UNION ALL
    SELECT 'completed_surveys_alerts', r.id::text, r.patient_id, r.program_id, true, ${isoUtc(sql`r.completed_at`)},
      s.name, r.score, r.triggers, NULL
    FROM survey_responses r JOIN surveys s ON s.id = r.survey_id
    WHERE r.program_id = ANY(${ids(programIds)}) AND r.status = 'completed'
      AND r.completed_at > now() - interval '7 days' AND jsonb_array_length(r.triggers) > 0`);
  return res.rows.map((r) => ({ ...r, patient_id: Number(r.patient_id), program_id: Number(r.program_id) }));
}

export async function patientInProgram(
  db: Queryable,
  patientId: number,
  programId: number,
): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM patients WHERE id = ${patientId} AND program_id = ${programId}`,
  );
  return (res.rowCount ?? 0) > 0;
}
