import {
  CARE_ROLES,
  SURVEY_MESSAGES as M,
  pageOf,
  type StaffRole,
  SURVEY_TRIGGER_NEEDS_VALUE,
  type Survey,
  type SurveyAnswer,
  type SurveyQuestionInput,
  type SurveyResponse,
} from '@caredeck/contracts';
import { firedTriggers, maxScore, type ScoredQuestion, scoreAnswers } from '@caredeck/domain';
import { programAccess } from '../../platform/access/access.queries';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { audit } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import {
  assignmentById,
  assignmentState,
  assignmentsOfPatient,
  cardOf,
  completeAssignment,
  deleteFolder,
  engagementsOf,
  folderProgram,
  foldersOf,
  insertAssignment,
  insertEvent,
  insertFolder,
  insertSurvey,
  lockAssignment,
  patientInProgram,
  patientsOfProgram,
  questionIds,
  questionsOfSurveys,
  type ResponseRow,
  renameFolder,
  replaceQuestions,
  responseById,
  responsesOfAssignment,
  responsesOfPatient,
  saveResponse,
  surveyProgram,
  surveysOf,
  triggerHits,
  triggerOf,
  triggersOfSurvey,
  unassign,
  updateSurvey,
  updateTrigger,
  worklist,
} from './surveys.queries';

/** Who builds surveys and assigns them: the roles that look after patients. Triggers: the clinical roles. */
export const SURVEY_EDITOR_ROLES: readonly StaffRole[] = CARE_ROLES;
export const TRIGGER_EDITOR_ROLES: readonly StaffRole[] = ['admin', 'physician', 'enterprise_admin'];
/** Live event to a program: an assignment or response changed (ids only). */
export const SURVEYS_EVENT = 'surveys.changed';

type AssignInput = {
  reassign_after_days: number | null;
  is_private: boolean;
  admin_assign: boolean;
  scheduled_at: string | null;
};
type QuestionIn = Omit<SurveyQuestionInput, 'options' | 'min' | 'max' | 'required'> & {
  options: { value: string; label: string; score: number }[];
  min: number | null;
  max: number | null;
  required: boolean;
};

const SCORING = {
  answerRequired: M.answerRequired,
  unknownOption: M.unknownOption,
  oneOption: M.oneOption,
  outOfRange: M.outOfRange,
  unknownQuestion: M.unknownQuestion,
};

/** 02 §7 "Surveys" (ADR 036). */
export function createSurveysService(deps: { db: Database; realtime: Realtime }) {
  const { db, realtime } = deps;

  const programOf = (actor: StaffActor) => {
    if (!actor.program) throw new Error('a survey use case needs the program the access hook resolved');
    return actor.program.id;
  };

  const programFor = (actor: StaffActor, programId: number, roles?: readonly StaffRole[]) =>
    requireProgramRole(db, actor.adminId, programId, roles);

  const view = (s: Omit<Survey, 'max_score'>): Survey => ({ ...s, max_score: maxScore(s.questions) });

  async function one(db: Queryable, programId: number, surveyId: number): Promise<Survey> {
    const [s] = await surveysOf(db, programId, { id: surveyId });
    if (!s) throw AppError.notFound(M.notFound);
    return view(s);
  }

  async function folderIn(programId: number, folderId: number | null) {
    if (folderId === null) return;
    if ((await folderProgram(db, folderId)) !== programId)
      throw AppError.validation({ folder_id: [M.folderNotFound] });
  }

  /** A survey of the patient's program (another program's answers the same 404 as none). */
  async function surveyForPatient(programId: number, surveyId: number) {
    if ((await surveyProgram(db, surveyId)) !== programId) throw AppError.notFound(M.notFound);
  }

  const normalise = (q: SurveyQuestionInput): QuestionIn => ({
    ...q,
    options:
      q.kind === 'single' || q.kind === 'multiple'
        ? (q.options ?? []).map((o) => ({ ...o, score: o.score ?? 0 }))
        : [],
    min: q.kind === 'number' ? (q.min ?? null) : null,
    max: q.kind === 'number' ? (q.max ?? null) : null,
    required: q.required ?? true,
  });

  /** Answers as people read them: the option labels, the number, or the text; private ones only for their staff. */
  async function readable(
    actor: StaffActor,
    rows: ResponseRow[],
    withAnswers: boolean,
  ): Promise<SurveyResponse[]> {
    const questions = withAnswers
      ? await questionsOfSurveys(db, [...new Set(rows.map((r) => r.survey.id))])
      : [];
    const byId = new Map(questions.map((q) => [q.id, q]));
    return rows.map(({ raw_answers, assigned_by_id, ...r }) => {
      const mine = assigned_by_id === actor.adminId || r.recorded_by?.id === actor.adminId;
      if (!withAnswers || (r.is_private && !mine)) return r;
      const answers: SurveyAnswer[] = raw_answers.map((a) => {
        const q = byId.get(a.question_id);
        const labels = (v: string) => q?.options.find((o) => o.value === v)?.label ?? v;
        const display = Array.isArray(a.value)
          ? a.value.map(labels).join(', ')
          : typeof a.value === 'string' && q && q.kind !== 'text'
            ? labels(a.value)
            : String(a.value);
        return {
          question_id: a.question_id,
          question: q?.text ?? '',
          value: a.value,
          display,
          score: a.score,
        };
      });
      return { ...r, answers };
    });
  }

  async function assignOne(
    tx: Queryable,
    actor: StaffActor,
    programId: number,
    patientId: number,
    surveyId: number,
    input: AssignInput,
  ): Promise<{ outcome: 'assigned' | 'completed' | 'pending'; id: number }> {
    const state = await assignmentState(tx, patientId, surveyId);
    if (state.pending !== null) return { outcome: 'pending', id: state.pending };
    if (state.completed !== null && input.reassign_after_days === null)
      return { outcome: 'completed', id: state.completed };
    const id = await insertAssignment(tx, {
      programId,
      surveyId,
      patientId,
      scheduledAt: input.scheduled_at,
      isPrivate: input.is_private,
      adminAssign: input.admin_assign,
      reassignAfterDays: input.reassign_after_days,
      assignedBy: actor.adminId,
    });
    if (id === null)
      return { outcome: 'pending', id: (await assignmentState(tx, patientId, surveyId)).pending! };
    await insertEvent(tx, {
      assignmentId: id,
      kind: 'assigned',
      adminId: actor.adminId,
      detail: {
        scheduled_at: input.scheduled_at,
        admin_assign: input.admin_assign,
        is_private: input.is_private,
      },
    });
    return { outcome: 'assigned', id };
  }

  return {
    // ------------------------------------------------------------ surveys and folders
    async list(actor: StaffActor, q: { program_id: number; folder_id?: number; search?: string }) {
      const programId = await programFor(actor, q.program_id);
      const rows = await surveysOf(db, programId, { folderId: q.folder_id, search: q.search });
      return { data: rows.map(view) };
    },

    async create(
      actor: StaffActor,
      input: {
        program_id: number;
        name: string;
        description: string;
        folder_id: number | null;
        url: string | null;
        analyse_url: string | null;
        questions: SurveyQuestionInput[];
      },
    ) {
      const programId = await programFor(actor, input.program_id, SURVEY_EDITOR_ROLES);
      await folderIn(programId, input.folder_id);
      if (input.questions.some((q) => q.id !== undefined))
        throw AppError.validation({ questions: [M.unknownQuestion] });
      try {
        const data = await db.transaction(async (tx) => {
          const id = await insertSurvey(tx, {
            programId,
            name: input.name,
            description: input.description,
            folderId: input.folder_id,
            url: input.url,
            analyseUrl: input.analyse_url,
            createdBy: actor.adminId,
          });
          if (input.questions.length > 0)
            await replaceQuestions(tx, id, input.questions.map(normalise), actor.adminId, false);
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId,
            action: 'survey.create',
            subjectType: 'survey',
            subjectId: id,
            details: { questions: input.questions.length },
            ip: actor.ip,
          });
          return one(tx, programId, id);
        });
        return { message: M.created, data };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.nameTaken] });
        throw error;
      }
    },

    async updateLink(
      actor: StaffActor,
      surveyId: number,
      input: { url: string | null; analyse_url?: string | null },
    ) {
      const programId = programOf(actor);
      await db.transaction(async (tx) => {
        await updateSurvey(tx, surveyId, { url: input.url, analyseUrl: input.analyse_url });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'survey.link',
          subjectType: 'survey',
          subjectId: surveyId,
          details: {},
          ip: actor.ip,
        });
      });
      return { message: M.linkUpdated, data: await one(db, programId, surveyId) };
    },

    async saveQuestions(
      actor: StaffActor,
      surveyId: number,
      input: { questions: SurveyQuestionInput[]; name?: string; description?: string },
    ) {
      const programId = programOf(actor);
      const current = new Set(await questionIds(db, surveyId));
      const errors: Record<string, string[]> = {};
      input.questions.forEach((q, i) => {
        if (q.id !== undefined && !current.has(q.id)) errors[`questions.${i}.id`] = [M.unknownQuestion];
      });
      if (Object.keys(errors).length > 0) throw AppError.validation(errors);
      try {
        await db.transaction(async (tx) => {
          if (input.name !== undefined || input.description !== undefined)
            await updateSurvey(tx, surveyId, { name: input.name, description: input.description });
          await replaceQuestions(tx, surveyId, input.questions.map(normalise), actor.adminId, true);
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId,
            action: 'survey.questions',
            subjectType: 'survey',
            subjectId: surveyId,
            details: { questions: input.questions.length },
            ip: actor.ip,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.nameTaken] });
        throw error;
      }
      return { message: M.questionsSaved, data: await one(db, programId, surveyId) };
    },

    async folders(actor: StaffActor, programId: number) {
      return { data: await foldersOf(db, await programFor(actor, programId)) };
    },

    async createFolder(actor: StaffActor, input: { program_id: number; name: string }) {
      const programId = await programFor(actor, input.program_id, SURVEY_EDITOR_ROLES);
      try {
        const id = await insertFolder(db, programId, input.name, actor.adminId);
        return { message: M.folderCreated, data: (await foldersOf(db, programId, id))[0]! };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.folderNameTaken] });
        throw error;
      }
    },

    async updateFolder(actor: StaffActor, input: { folder_id: number; name: string }) {
      const program = await folderProgram(db, input.folder_id);
      if (program === null) throw AppError.notFound(M.folderNotFound);
      const programId = await programFor(actor, program, SURVEY_EDITOR_ROLES).catch(() => {
        throw AppError.notFound(M.folderNotFound);
      });
      try {
        await renameFolder(db, input.folder_id, input.name);
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.folderNameTaken] });
        throw error;
      }
      return { message: M.folderUpdated, data: (await foldersOf(db, programId, input.folder_id))[0]! };
    },

    async deleteFolder(actor: StaffActor, folderId: number) {
      const program = await folderProgram(db, folderId);
      if (program === null) throw AppError.notFound(M.folderNotFound);
      const access = await programAccess(db, actor.adminId, program);
      if (!access) throw AppError.notFound(M.folderNotFound);
      if (!access.roles.some((r) => SURVEY_EDITOR_ROLES.includes(r))) throw AppError.forbidden();
      await deleteFolder(db, folderId);
      return { message: M.folderDeleted };
    },

    async moveToFolder(actor: StaffActor, surveyId: number, folderId: number | null) {
      const programId = programOf(actor);
      await folderIn(programId, folderId);
      await updateSurvey(db, surveyId, { folderId });
      return {
        message: folderId === null ? M.removedFromFolder : M.movedToFolder,
        data: await one(db, programId, surveyId),
      };
    },

    // ------------------------------------------------------------ assignments

    async assign(actor: StaffActor, patientId: number, surveyId: number, input: AssignInput) {
      const programId = programOf(actor);
      await surveyForPatient(programId, surveyId);
      if ((await questionIds(db, surveyId)).length === 0)
        throw AppError.validation({ survey: [M.noQuestions] });
      const result = await db.transaction(async (tx) => {
        const r = await assignOne(tx, actor, programId, patientId, surveyId, input);
        if (r.outcome === 'assigned')
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId,
            action: 'survey.assign',
            subjectType: 'patient',
            subjectId: patientId,
            details: { survey_id: surveyId, assignment_id: r.id },
            ip: actor.ip,
          });
        return r;
      });
      if (result.outcome === 'pending') throw AppError.conflict(M.alreadyAssigned);
      if (result.outcome === 'assigned')
        realtime.toProgram(programId, SURVEYS_EVENT, { patient_id: patientId });
      return {
        message: result.outcome === 'completed' ? M.alreadyCompleted : M.assigned,
        data: (await assignmentById(db, result.id))!,
      };
    },

    async bulkAssign(
      actor: StaffActor,
      input: AssignInput & { program_id: number; survey_ids: number[]; user_ids: number[] },
    ) {
      const programId = await programFor(actor, input.program_id, SURVEY_EDITOR_ROLES);
      const surveyIds = [...new Set(input.survey_ids)];
      const errors: Record<string, string[]> = {};
      for (const [i, id] of surveyIds.entries()) {
        if ((await surveyProgram(db, id)) !== programId) errors[`survey_ids.${i}`] = [M.notFound];
        else if ((await questionIds(db, id)).length === 0) errors[`survey_ids.${i}`] = [M.noQuestions];
      }
      const userIds = [...new Set(input.user_ids)];
      const found = await patientsOfProgram(db, programId, userIds);
      if (found.length !== userIds.length) errors.user_ids = [M.patientsNotFound];
      if (Object.keys(errors).length > 0) throw AppError.validation(errors);
      const counts = await db.transaction(async (tx) => {
        const c = { assigned: 0, already_completed: 0, already_assigned: 0 };
        for (const surveyId of surveyIds)
          for (const patientId of userIds) {
            const r = await assignOne(tx, actor, programId, patientId, surveyId, input);
            if (r.outcome === 'assigned') c.assigned++;
            else if (r.outcome === 'completed') c.already_completed++;
            else c.already_assigned++;
          }
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'survey.bulk_assign',
          subjectType: 'program',
          subjectId: programId,
          details: { surveys: surveyIds, patients: userIds.length, ...c },
          ip: actor.ip,
        });
        return c;
      });
      if (counts.assigned > 0) realtime.toProgram(programId, SURVEYS_EVENT, {});
      return { message: M.bulkAssigned, ...counts };
    },

    async patientSurveys(actor: StaffActor, patientId: number, available: boolean) {
      const programId = programOf(actor);
      const assignments = await assignmentsOfPatient(db, patientId);
      if (!available) return { data: assignments };
      const pending = new Set(
        assignments.filter((a) => a.status === 'open' || a.status === 'scheduled').map((a) => a.survey.id),
      );
      const surveys = (await surveysOf(db, programId)).filter(
        (s) => s.questions.length > 0 && !pending.has(s.id),
      );
      return { data: surveys.map(view) };
    },

    async unassign(actor: StaffActor, patientId: number, surveyId: number) {
      const programId = programOf(actor);
      await surveyForPatient(programId, surveyId);
      const id = await db.transaction(async (tx) => {
        const unassigned = await unassign(tx, patientId, surveyId, actor.adminId);
        if (unassigned === null) return null;
        await insertEvent(tx, { assignmentId: unassigned, kind: 'unassigned', adminId: actor.adminId });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'survey.unassign',
          subjectType: 'patient',
          subjectId: patientId,
          details: { survey_id: surveyId, assignment_id: unassigned },
          ip: actor.ip,
        });
        return unassigned;
      });
      if (id === null) throw AppError.notFound(M.assignmentNotFound);
      realtime.toProgram(programId, SURVEYS_EVENT, { patient_id: patientId });
      return { message: M.unassigned };
    },

    // ------------------------------------------------------------ responses

    async responses(
      actor: StaffActor,
      patientId: number,
      q: {
        page: number;
        per_page: number;
        incomplete?: boolean;
        version?: number;
        loadAnswers?: boolean;
        survey_id?: number;
      },
    ) {
      const res = await responsesOfPatient(db, patientId, q);
      return pageOf(await readable(actor, res.rows, q.loadAnswers ?? false), q, res.total);
    },

    async assignmentResponses(actor: StaffActor, patientId: number, assignmentId: number) {
      const a = await assignmentById(db, assignmentId);
      if (!a || a.patient_id !== patientId) throw AppError.notFound(M.assignmentNotFound);
      return { data: await readable(actor, await responsesOfAssignment(db, assignmentId), true) };
    },

    async respond(
      actor: StaffActor,
      patientId: number,
      assignmentId: number,
      input: { answers: { question_id: number; value: string | number | string[] }[]; complete: boolean },
    ) {
      const programId = programOf(actor);
      const result = await db.transaction(async (tx) => {
        const a = await lockAssignment(tx, assignmentId, patientId);
        if (!a || a.program_id !== programId) throw AppError.notFound(M.assignmentNotFound);
        if (a.status !== 'pending') throw AppError.conflict(M.notOpen);
        const rows = (await questionsOfSurveys(tx, [a.survey_id])).filter((q) => !q.removed);
        const questions: ScoredQuestion[] = rows;
        const scored = scoreAnswers(questions, input.answers, input.complete, SCORING);
        if (Object.keys(scored.errors).length > 0) throw AppError.validation(scored.errors);
        const triggers = input.complete
          ? firedTriggers(await triggersOfSurvey(tx, a.survey_id), questions, scored.answers, scored.score)
          : [];
        const saved = await saveResponse(tx, {
          assignmentId,
          surveyId: a.survey_id,
          patientId,
          programId,
          version: a.version,
          answers: scored.answers,
          score: scored.score,
          maxScore: maxScore(questions),
          triggers,
          complete: input.complete,
          recordedBy: actor.adminId,
        });
        if (saved.created) await insertEvent(tx, { assignmentId, kind: 'opened', adminId: actor.adminId });
        await insertEvent(tx, {
          assignmentId,
          kind: input.complete ? 'completed' : 'answered',
          adminId: actor.adminId,
          detail: input.complete
            ? { score: scored.score, triggers: triggers.length }
            : { answered: scored.answers.length },
        });
        if (input.complete) {
          await completeAssignment(tx, assignmentId);
          if (a.reassign_after_days !== null) {
            const next = await insertAssignment(tx, {
              programId,
              surveyId: a.survey_id,
              patientId,
              scheduledAt: new Date(Date.now() + a.reassign_after_days * 86_400_000).toISOString(),
              isPrivate: a.is_private,
              adminAssign: a.admin_assign,
              reassignAfterDays: a.reassign_after_days,
              assignedBy: actor.adminId,
              previousId: assignmentId,
            });
            if (next !== null)
              await insertEvent(tx, {
                assignmentId: next,
                kind: 'reassigned',
                adminId: null,
                detail: { after_days: a.reassign_after_days, previous_id: assignmentId },
              });
          }
        }
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: input.complete ? 'survey.complete' : 'survey.answer',
          subjectType: 'patient',
          subjectId: patientId,
          details: { assignment_id: assignmentId, response_id: saved.id, triggers: triggers.length },
          ip: actor.ip,
        });
        return saved.id;
      });
      realtime.toProgram(programId, SURVEYS_EVENT, { patient_id: patientId });
      const [data] = await readable(actor, [(await responseById(db, result))!], true);
      return { message: input.complete ? M.responseCompleted : M.responseSaved, data: data! };
    },

    // ------------------------------------------------------------ program views

    async worklist(
      actor: StaffActor,
      q: { page: number; per_page: number; status: string; survey_id?: number; search?: string },
    ) {
      const res = await worklist(db, programOf(actor), q);
      return pageOf(res.rows, q, res.total);
    },

    async card(actor: StaffActor, surveyId: number) {
      const programId = programOf(actor);
      const card = await cardOf(db, programId, surveyId);
      if (!card) throw AppError.notFound(M.notFound);
      const max = maxScore((await questionsOfSurveys(db, [surveyId])).filter((q) => !q.removed));
      const step = max > 0 ? max / 5 : 1;
      const bands = Array.from({ length: 5 }, (_, i) => ({
        from: Math.round(i * step * 100) / 100,
        to: Math.round((i + 1) * step * 100) / 100,
        count: card.scores.filter((s) => (i === 4 ? s >= i * step : s >= i * step && s < (i + 1) * step))
          .length,
      }));
      const { scores: _scores, ...rest } = card;
      return { data: { ...rest, max_score: max, score_bands: bands } };
    },

    async setTrigger(
      actor: StaffActor,
      kind: 'score' | 'question',
      surveyId: number,
      triggerId: number,
      set: { value?: number | null; is_active?: boolean },
    ) {
      const programId = programOf(actor);
      const trigger = await triggerOf(db, triggerId, surveyId, programId, kind);
      if (!trigger) throw AppError.notFound(M.triggerNotFound);
      if (set.is_active === true && (set.value ?? trigger.value) === null)
        throw AppError.validation({ is_active: [SURVEY_TRIGGER_NEEDS_VALUE] });
      const data = await db.transaction(async (tx) => {
        const updated = await updateTrigger(
          tx,
          triggerId,
          { value: set.value, isActive: set.is_active },
          actor.adminId,
        );
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'survey.trigger',
          subjectType: 'survey',
          subjectId: surveyId,
          details: { trigger_id: triggerId, ...set },
          ip: actor.ip,
        });
        return updated;
      });
      return {
        message: set.is_active === undefined ? M.triggerUpdated : M.triggerToggled,
        data: {
          ...data,
          id: Number(data.id),
          question_id: data.question_id === null ? null : Number(data.question_id),
        },
      };
    },

    async patientTriggers(actor: StaffActor, patientId: number) {
      const programId = programOf(actor);
      if (!(await patientInProgram(db, patientId, programId))) throw AppError.notFound('Patient not found');
      return { data: await triggerHits(db, programId, patientId) };
    },

    async engagements(actor: StaffActor, patientId: number, surveyId: number) {
      const programId = programOf(actor);
      if (!(await patientInProgram(db, patientId, programId))) throw AppError.notFound('Patient not found');
      await surveyForPatient(programId, surveyId);
      return { data: await engagementsOf(db, programId, patientId, surveyId) };
    },
  };
}

export type SurveysService = ReturnType<typeof createSurveysService>;
