import { PassThrough, type Readable } from 'node:stream';
import {
  CARE_ROLES,
  PIPELINE_MESSAGES as M,
  type NewPipelineBody,
  PIPELINE_REPORT_FILE,
  PIPELINE_STAGE_REPORT_FILE,
  pageOf,
  type StaffRole,
} from '@caredeck/contracts';
import ExcelJS from 'exceljs';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { audit } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import {
  activePipelinesOf,
  activeStageOf,
  addPatients,
  boardUsersOf,
  deletePipeline,
  deleteStage,
  firstStage,
  insertPipeline,
  insertStages,
  insertTemplate,
  isEnterpriseAdmin,
  leavePipeline,
  logsOf,
  membershipsOfPatient,
  membershipsOfProgram,
  movePatient,
  patientProgram,
  patientsByIdOrMrn,
  patientsOfProgram,
  pipelineProgram,
  pipelinesOf,
  placeStage,
  reportRows,
  ruleProgram,
  setStageRule,
  stageCounts,
  stageOfPipeline,
  stagePipeline,
  stageReportRows,
  stageRules,
  stagesOf,
  staysOf,
  templatesFor,
  usersOf,
} from './pipelines.queries';

/** Who builds pipelines and moves patients: the roles that look after patients. */
export const PIPELINE_EDITOR_ROLES: readonly StaffRole[] = CARE_ROLES;
/** Live event to a program: a pipeline or a patient's place in one changed. */
export const PIPELINES_EVENT = 'pipelines.changed';
/** The board shows this many patients of each stage; its count and the stage-users route give the rest. */
export const BOARD_STAGE_LIMIT = 100;

type Stages = { name: string; color: string | null }[];

/** 02 §7 "Pipelines" and 01 §7 (stage-users, complete) (ADR 037). */
export function createPipelinesService(deps: { db: Database; realtime: Realtime }) {
  const { db, realtime } = deps;

  const programOf = (actor: StaffActor) => {
    if (!actor.program) throw new Error('a pipeline use case needs the program the access hook resolved');
    return actor.program.id;
  };
  /** A patient named in the path is one of the pipeline's program (ADR 004: another program's answers 404). */
  const patientOfProgram = async (actor: StaffActor, patientId: number) => {
    if ((await patientProgram(db, patientId)) !== programOf(actor))
      throw AppError.notFound('Patient not found');
  };

  const programFor = (actor: StaffActor, programId: number, roles?: readonly StaffRole[]) =>
    requireProgramRole(db, actor.adminId, programId, roles);

  async function one(q: Queryable, programIds: readonly number[], pipelineId: number, withUsers = true) {
    const [p] = await pipelinesOf(q, programIds, { id: pipelineId });
    if (!p) throw AppError.notFound(M.notFound);
    if (!withUsers) return p;
    return { ...p, users: await boardUsersOf(q, pipelineId, BOARD_STAGE_LIMIT) };
  }

  /** The pipeline of an enterprise path: one of the enterprise's programs', else 404. */
  async function enterprisePipeline(actor: StaffActor, pipelineId: number) {
    const programId = await pipelineProgram(db, pipelineId);
    if (programId === null || !actor.enterprise!.programIds.includes(programId))
      throw AppError.notFound(M.notFound);
    return programId;
  }

  const changed = (programId: number, payload: Record<string, unknown>) =>
    realtime.toProgram(programId, PIPELINES_EVENT, payload);

  async function stageIn(q: Queryable, pipelineId: number, stageId: number | undefined) {
    if (stageId === undefined) {
      const first = await firstStage(q, pipelineId);
      if (first === null) throw AppError.validation({ stage_id: [M.stageNotFound] });
      return first;
    }
    if (!(await stageOfPipeline(q, pipelineId, stageId)))
      throw AppError.validation({ stage_id: [M.stageNotFound] });
    return stageId;
  }

  async function create(actor: StaffActor, programId: number, input: NewPipelineBody) {
    let stages: Stages = (input.stages ?? []).map((s) => ({ name: s.name, color: s.color ?? null }));
    if (input.template_id !== undefined) {
      const template = (await templatesFor(db, programId)).find((t) => t.id === input.template_id);
      if (!template) throw AppError.validation({ template_id: [M.templateNotFound] });
      if (stages.length === 0) stages = template.stages;
    }
    if (stages.length === 0) throw AppError.validation({ stages: [M.stagesRequired] });
    const names = stages.map((s) => s.name.toLowerCase());
    if (new Set(names).size !== names.length) throw AppError.validation({ stages: [M.stageNameTaken] });
    try {
      const data = await db.transaction(async (tx) => {
        const id = await insertPipeline(tx, {
          programId,
          name: input.name,
          description: input.description ?? '',
          createdBy: actor.adminId,
        });
        await insertStages(tx, id, stages);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'pipeline.create',
          subjectType: 'pipeline',
          subjectId: id,
          details: { stages: stages.length },
          ip: actor.ip,
        });
        return one(tx, [programId], id);
      });
      changed(programId, { pipeline_id: data.id });
      return { message: M.created, data };
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.validation({ name: [M.nameTaken] });
      throw error;
    }
  }

  async function remove(actor: StaffActor, programId: number, pipelineId: number) {
    await db.transaction(async (tx) => {
      await deletePipeline(tx, pipelineId);
      await audit(tx, {
        actorAdminId: actor.adminId,
        programId,
        action: 'pipeline.delete',
        subjectType: 'pipeline',
        subjectId: pipelineId,
        details: {},
        ip: actor.ip,
      });
    });
    changed(programId, { pipeline_id: pipelineId });
    return { message: M.deleted };
  }

  /** pipeline_report.xls: the patients and where they are, and the moves of the month (or all). */
  async function download(pipelineId: number, programIds: readonly number[], month: string | undefined) {
    const p = await one(db, programIds, pipelineId, false);
    const rows = await reportRows(db, pipelineId, month ?? null);
    const out = new PassThrough();
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    book.creator = 'CareDeck';
    const patients = book.addWorksheet('Patients', { views: [{ state: 'frozen', ySplit: 1 }] });
    patients.columns = [
      { header: 'Patient', key: 'name', width: 28 },
      { header: 'MRN', key: 'mrn', width: 14 },
      { header: 'Stage', key: 'stage', width: 22 },
      { header: 'Status', key: 'status', width: 12 },
      { header: 'Added', key: 'added_at', width: 22 },
      { header: 'In stage since', key: 'moved_at', width: 22 },
      { header: 'Completed', key: 'completed_at', width: 22 },
    ];
    for (const r of rows.patients) patients.addRow(r).commit();
    patients.commit();
    const moves = book.addWorksheet(month ? `Moves ${month}` : 'Moves', {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    moves.columns = [
      { header: 'When', key: 'at', width: 22 },
      { header: 'Patient', key: 'name', width: 28 },
      { header: 'What', key: 'kind', width: 12 },
      { header: 'From', key: 'from_stage', width: 22 },
      { header: 'To', key: 'to_stage', width: 22 },
      { header: 'By', key: 'by', width: 22 },
    ];
    for (const r of rows.moves) moves.addRow({ ...r, by: r.by ?? 'CareDeck' }).commit();
    moves.commit();
    void book.commit();
    return { fileName: PIPELINE_REPORT_FILE, stream: out as Readable, name: p.name };
  }

  return {
    // ------------------------------------------------------------ pipelines
    async list(
      actor: StaffActor,
      q: { search?: string; compact?: boolean; state?: 'all' | 'active' | 'empty'; program_id?: number },
      enterprise = false,
    ) {
      let programIds = enterprise ? actor.enterprise!.programIds : [programOf(actor)];
      if (enterprise && q.program_id !== undefined) {
        if (!programIds.includes(q.program_id)) throw AppError.notFound('Program not found');
        programIds = [q.program_id];
      }
      return { data: await pipelinesOf(db, programIds, { search: q.search, state: q.state }) };
    },
    async get(actor: StaffActor, pipelineId: number, enterprise = false) {
      const programIds = enterprise ? [await enterprisePipeline(actor, pipelineId)] : [programOf(actor)];
      return { data: await one(db, programIds, pipelineId) };
    },
    async create(actor: StaffActor, input: NewPipelineBody, enterprise = false) {
      if (!enterprise) return create(actor, programOf(actor), input);
      if (input.program_id === undefined || !actor.enterprise!.programIds.includes(input.program_id))
        throw AppError.validation({ program_id: ['Choose a program of the enterprise.'] });
      return create(actor, await programFor(actor, input.program_id, PIPELINE_EDITOR_ROLES), input);
    },
    async remove(actor: StaffActor, pipelineId: number, enterprise = false) {
      const programId = enterprise ? await enterprisePipeline(actor, pipelineId) : programOf(actor);
      if ((await pipelineProgram(db, pipelineId)) !== programId) throw AppError.notFound(M.notFound);
      if (enterprise) await programFor(actor, programId, PIPELINE_EDITOR_ROLES);
      return remove(actor, programId, pipelineId);
    },
    async download(actor: StaffActor, pipelineId: number, month: string | undefined, enterprise = false) {
      const programIds = enterprise ? [await enterprisePipeline(actor, pipelineId)] : [programOf(actor)];
      return download(pipelineId, programIds, month);
    },

    /** pipeline_stage_report.xls: each stage with patients now, entries and average days there. */
    async stagesDownload(actor: StaffActor, pipelineId: number) {
      await one(db, [programOf(actor)], pipelineId, false);
      const rows = await stageReportRows(db, pipelineId);
      const out = new PassThrough();
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      book.creator = 'CareDeck';
      const sheet = book.addWorksheet('Stages', { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = [
        { header: '#', key: 'position', width: 5 },
        { header: 'Stage', key: 'name', width: 26 },
        { header: 'Patients now', key: 'now', width: 14 },
        { header: 'Entries', key: 'entered', width: 10 },
        { header: 'Average days', key: 'average_days', width: 14 },
      ];
      for (const r of rows) sheet.addRow(r).commit();
      sheet.commit();
      void book.commit();
      return { fileName: PIPELINE_STAGE_REPORT_FILE, stream: out as Readable };
    },

    // ------------------------------------------------------------ stages
    async stages(actor: StaffActor, pipelineId: number) {
      programOf(actor);
      return { data: await stagesOf(db, pipelineId) };
    },
    async createStage(
      actor: StaffActor,
      pipelineId: number,
      input: { name: string; color: string | null; position?: number },
    ) {
      const programId = programOf(actor);
      try {
        const id = await db.transaction((tx) => placeStage(tx, pipelineId, null, input));
        changed(programId, { pipeline_id: pipelineId });
        return { message: M.stageCreated, data: (await stagesOf(db, pipelineId, id))[0]! };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.stageNameTaken] });
        throw error;
      }
    },
    async updateStage(
      actor: StaffActor,
      pipelineId: number,
      stageId: number,
      input: { name?: string; color?: string | null; position?: number },
    ) {
      const programId = programOf(actor);
      if (!(await stageOfPipeline(db, pipelineId, stageId))) throw AppError.notFound(M.stageNotFound);
      try {
        await db.transaction((tx) => placeStage(tx, pipelineId, stageId, input));
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.stageNameTaken] });
        throw error;
      }
      changed(programId, { pipeline_id: pipelineId });
      return { message: M.stageUpdated, data: (await stagesOf(db, pipelineId, stageId))[0]! };
    },
    async deleteStage(actor: StaffActor, pipelineId: number, stageId: number) {
      const programId = programOf(actor);
      if (!(await stageOfPipeline(db, pipelineId, stageId))) throw AppError.notFound(M.stageNotFound);
      await db.transaction(async (tx) => {
        const counts = await stageCounts(tx, stageId);
        if (counts.users > 0) throw AppError.validation({ stage_id: [M.stageNotEmpty] });
        if (counts.stages <= 1) throw AppError.validation({ stage_id: [M.lastStage] });
        await deleteStage(tx, pipelineId, stageId);
      });
      changed(programId, { pipeline_id: pipelineId });
      return { message: M.stageDeleted };
    },
    async stageUsers(
      actor: StaffActor,
      pipelineId: number,
      stageId: number,
      q: { page: number; per_page: number },
    ) {
      await one(db, [programOf(actor)], pipelineId, false);
      if (!(await stageOfPipeline(db, pipelineId, stageId))) throw AppError.notFound(M.stageNotFound);
      const res = await usersOf(db, pipelineId, {
        stageId,
        limit: q.per_page,
        offset: (q.page - 1) * q.per_page,
      });
      return pageOf(res.rows, q, res.total);
    },

    // ------------------------------------------------------------ patients
    async addUsers(actor: StaffActor, pipelineId: number, input: { user_ids: number[]; stage_id?: number }) {
      const programId = programOf(actor);
      const wanted = [...new Set(input.user_ids)];
      if ((await patientsOfProgram(db, programId, wanted)).length !== wanted.length)
        throw AppError.validation({ user_ids: [M.patientsNotFound] });
      const added = await db.transaction(async (tx) => {
        const stage = await stageIn(tx, pipelineId, input.stage_id);
        const joined = await addPatients(tx, pipelineId, stage, wanted, actor.adminId);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'pipeline.add_users',
          subjectType: 'pipeline',
          subjectId: pipelineId,
          details: { added: joined.length, stage_id: stage },
          ip: actor.ip,
        });
        return joined.length;
      });
      changed(programId, { pipeline_id: pipelineId });
      return { message: M.usersAdded, added, already: wanted.length - added };
    },

    async bulkUpload(actor: StaffActor, pipelineId: number, csv: string) {
      const programId = programOf(actor);
      const keys = [
        ...new Set(
          csv
            .split(/\r?\n/)
            .map((line) =>
              line
                .split(/[,;\t]/)[0]!
                .trim()
                .replace(/^"|"$/g, ''),
            )
            .filter((k) => k && !/^(id|mrn|patient|patient_id|user_id)$/i.test(k)),
        ),
      ].slice(0, 5000);
      if (keys.length === 0) throw AppError.validation({ file: [M.csvEmpty] });
      const found = await patientsByIdOrMrn(db, programId, keys);
      const matched = new Set(found.flatMap((p) => [String(p.id), p.mrn ?? '']));
      const notFound = keys.filter((k) => !matched.has(k));
      const patientIds = [...new Set(found.map((p) => p.id))];
      const added = await db.transaction(async (tx) => {
        const stage = await stageIn(tx, pipelineId, undefined);
        const joined =
          patientIds.length > 0 ? await addPatients(tx, pipelineId, stage, patientIds, actor.adminId) : [];
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'pipeline.bulk_upload',
          subjectType: 'pipeline',
          subjectId: pipelineId,
          details: { rows: keys.length, added: joined.length, not_found: notFound.length },
          ip: actor.ip,
        });
        return joined.length;
      });
      changed(programId, { pipeline_id: pipelineId });
      return {
        message: M.usersAdded,
        added,
        already: patientIds.length - added,
        not_found: notFound.slice(0, 100),
      };
    },

    async move(actor: StaffActor, pipelineId: number, patientId: number, toId: number) {
      const programId = programOf(actor);
      const data = await db.transaction(async (tx) => {
        if (!(await stageOfPipeline(tx, pipelineId, toId)))
          throw AppError.validation({ to_id: [M.stageNotFound] });
        const current = await activeStageOf(tx, pipelineId, patientId);
        if (current === null) throw AppError.notFound(M.notInPipeline);
        if (current === toId) throw AppError.validation({ to_id: [M.sameStage] });
        await movePatient(tx, pipelineId, patientId, toId, actor.adminId);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'pipeline.move',
          subjectType: 'patient',
          subjectId: patientId,
          details: { pipeline_id: pipelineId, from: current, to: toId },
          ip: actor.ip,
        });
        return (await usersOf(tx, pipelineId, { patientId, limit: 1 })).rows[0]!;
      });
      changed(programId, { pipeline_id: pipelineId, patient_id: patientId });
      return { message: M.moved, data };
    },

    async complete(actor: StaffActor, pipelineId: number, patientId: number, newPipelineId: number | null) {
      const programId = programOf(actor);
      if ((await pipelineProgram(db, pipelineId)) !== programId) throw AppError.notFound(M.notFound);
      if (newPipelineId !== null && (await pipelineProgram(db, newPipelineId)) !== programId)
        throw AppError.validation({ new_pipeline_id: [M.notFound] });
      await db.transaction(async (tx) => {
        const left = await leavePipeline(tx, pipelineId, patientId, actor.adminId, 'completed', {
          new_pipeline_id: newPipelineId,
        });
        if (!left) throw AppError.notFound(M.notInPipeline);
        if (newPipelineId !== null) {
          const stage = await stageIn(tx, newPipelineId, undefined);
          await addPatients(tx, newPipelineId, stage, [patientId], actor.adminId, 'added', {
            from_pipeline_id: pipelineId,
          });
        }
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'pipeline.complete',
          subjectType: 'patient',
          subjectId: patientId,
          details: { pipeline_id: pipelineId, new_pipeline_id: newPipelineId },
          ip: actor.ip,
        });
      });
      changed(programId, { pipeline_id: pipelineId, patient_id: patientId });
      return { message: M.completed };
    },

    async history(actor: StaffActor, pipelineId: number, patientId: number) {
      await patientOfProgram(actor, patientId);
      return { data: await staysOf(db, pipelineId, patientId) };
    },
    async logs(actor: StaffActor, pipelineId: number, patientId: number) {
      await patientOfProgram(actor, patientId);
      return { data: await logsOf(db, pipelineId, patientId) };
    },

    async allUserPipelines(
      actor: StaffActor,
      q: { program_id: number; page: number; per_page: number; search?: string },
    ) {
      const programId = await programFor(actor, q.program_id);
      const res = await membershipsOfProgram(db, programId, q);
      return pageOf(res.rows, q, res.total);
    },

    async userPipelines(actor: StaffActor, patientId: number) {
      const programId = (await patientProgram(db, patientId)) ?? 0;
      await programFor(actor, programId).catch(() => {
        throw AppError.notFound('Patient not found');
      });
      return { data: await membershipsOfPatient(db, patientId) };
    },

    async addUserToPipeline(
      actor: StaffActor,
      input: { user_id: number; pipeline_id: number; stage_id?: number },
    ) {
      const programId = await pipelineProgram(db, input.pipeline_id);
      if (programId === null) throw AppError.notFound(M.notFound);
      await programFor(actor, programId, PIPELINE_EDITOR_ROLES).catch((error) => {
        throw error instanceof AppError && error.code === 'forbidden' ? error : AppError.notFound(M.notFound);
      });
      if ((await patientsOfProgram(db, programId, [input.user_id])).length === 0)
        throw AppError.validation({ user_id: [M.patientsNotFound] });
      await db.transaction(async (tx) => {
        const stage = await stageIn(tx, input.pipeline_id, input.stage_id);
        await addPatients(tx, input.pipeline_id, stage, [input.user_id], actor.adminId);
      });
      changed(programId, { pipeline_id: input.pipeline_id, patient_id: input.user_id });
      const data = (await membershipsOfPatient(db, input.user_id)).find(
        (m) => m.pipeline.id === input.pipeline_id,
      )!;
      return { message: M.usersAdded, data };
    },

    async setUserPipelines(actor: StaffActor, patientId: number, pipelineIds: number[]) {
      const programId = programOf(actor);
      const wanted = [...new Set(pipelineIds)];
      const known = new Set((await pipelinesOf(db, [programId])).map((p) => p.id));
      const errors = wanted.flatMap((id, i) =>
        known.has(id) ? [] : [[`pipelines.${i}`, [M.notFound as string]] as [string, string[]]],
      );
      if (errors.length > 0) throw AppError.validation(Object.fromEntries(errors));
      await db.transaction(async (tx) => {
        const current = await activePipelinesOf(tx, patientId);
        for (const id of wanted.filter((p) => !current.includes(p)))
          await addPatients(tx, id, await stageIn(tx, id, undefined), [patientId], actor.adminId);
        for (const id of current.filter((p) => !wanted.includes(p)))
          await leavePipeline(tx, id, patientId, actor.adminId, 'removed');
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'pipeline.set_user_pipelines',
          subjectType: 'patient',
          subjectId: patientId,
          details: { pipelines: wanted },
          ip: actor.ip,
        });
      });
      changed(programId, { patient_id: patientId });
      return { message: M.pipelinesUpdated, data: await membershipsOfPatient(db, patientId) };
    },

    // ------------------------------------------------------------ templates and rules
    async templates(actor: StaffActor, programId: number) {
      return { data: await templatesFor(db, await programFor(actor, programId)) };
    },
    async createTemplate(
      actor: StaffActor,
      input: {
        program_id?: number;
        enterprise_id?: number;
        name: string;
        stages: { name: string; color: string | null }[];
      },
    ) {
      let programId: number | null = null;
      let enterpriseId: number | null = null;
      if (input.program_id !== undefined)
        programId = await programFor(actor, input.program_id, PIPELINE_EDITOR_ROLES);
      else {
        enterpriseId = input.enterprise_id!;
        if (!(await isEnterpriseAdmin(db, actor.adminId, enterpriseId)))
          throw AppError.notFound('Enterprise not found');
      }
      const id = await insertTemplate(db, {
        programId,
        enterpriseId,
        name: input.name,
        stages: input.stages.map((s) => ({ name: s.name, color: s.color ?? null })),
        createdBy: actor.adminId,
      });
      return {
        message: M.templateCreated,
        data: {
          id,
          program_id: programId,
          enterprise_id: enterpriseId,
          name: input.name,
          stages: input.stages,
        },
      };
    },
    async stageRules(actor: StaffActor, programId: number) {
      return { data: await stageRules(db, await programFor(actor, programId)) };
    },
    async assignPreStageRule(actor: StaffActor, stageId: number, ruleId: number | null) {
      const programId = programOf(actor);
      if (ruleId !== null && (await ruleProgram(db, ruleId)) !== programId)
        throw AppError.notFound(M.ruleNotFound);
      const stage = (await stagePipeline(db, stageId))!;
      await db.transaction(async (tx) => {
        await setStageRule(tx, stageId, ruleId);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: ruleId === null ? 'pipeline.rule_remove' : 'pipeline.rule_assign',
          subjectType: 'pipeline',
          subjectId: stage.pipelineId,
          details: { stage_id: stageId, rule_id: ruleId },
          ip: actor.ip,
        });
      });
      changed(programId, { pipeline_id: stage.pipelineId });
      return {
        message: ruleId === null ? M.ruleRemoved : M.ruleAssigned,
        data: (await stagesOf(db, stage.pipelineId, stageId))[0]!,
      };
    },
  };
}

export type PipelinesService = ReturnType<typeof createPipelinesService>;
