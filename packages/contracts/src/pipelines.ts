import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, text } from './common';
import { XLSX } from './exports';
import { defineRoute } from './route';

/**
 * 02 §3/§4/§7 "Pipelines" and 01 §7 (stage-users, complete) (ADR 037): a program's pipelines of stages that
 * patients move through (to_id), with each patient's history, templates of stages (program or enterprise),
 * pre-stage rules (a rule's alert moves the patient into the stage) and spreadsheet reports.
 */
export const PIPELINE_MESSAGES = {
  created: 'Pipeline created',
  deleted: 'Pipeline deleted',
  notFound: 'Pipeline not found',
  stageCreated: 'Stage created',
  stageUpdated: 'Stage updated',
  stageDeleted: 'Stage deleted',
  stageNotFound: 'Stage not found',
  stageNotEmpty: 'Move the patients out of this stage before deleting it.',
  lastStage: 'A pipeline keeps at least one stage.',
  usersAdded: 'Patients added to the pipeline',
  moved: 'Patient moved',
  sameStage: 'The patient is already in this stage.',
  notInPipeline: 'The patient is not in this pipeline.',
  completed: 'Patient completed the pipeline',
  pipelinesUpdated: 'Patient pipelines updated',
  templateCreated: 'Template created',
  templateNotFound: 'Template not found',
  ruleAssigned: 'Pre-stage rule assigned',
  ruleRemoved: 'Pre-stage rule removed',
  ruleNotFound: 'Rule not found',
  patientsNotFound: 'Some patients were not found in the program.',
  nameTaken: 'A pipeline of that name exists already in the program.',
  stageNameTaken: 'This pipeline has a stage of that name already.',
  csvRequired: 'Attach a CSV file with a column of patient ids or MRNs.',
  csvEmpty: 'The file lists no patients.',
  csvTooLarge: 'The file is larger than 2 MB.',
  csvOneFile: 'Send one CSV file at a time.',
  stagesRequired: 'Give at least one stage, or choose a template.',
} as const;

const person = z.object({ id: z.number().int(), name: z.string() });
const stageName = line().trim().min(1, 'Name the stage.').max(80);
/** A colour as given in a change: absent keeps the current one (no default), null removes it. */
const colorChange = line()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #4c6ef5.')
  .nullable();
const color = colorChange.default(null);

export const pipelineStage = z.object({
  id: z.number().int(),
  pipeline_id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  color: z.string().nullable(),
  /** Patients in the stage now. */
  users: z.number().int(),
  /** The rule whose alert moves a patient into this stage (pre-stage rule). */
  rule: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type PipelineStage = z.infer<typeof pipelineStage>;

export const pipelineUser = z.object({
  patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string().nullable() }),
  stage_id: z.number().int(),
  added_at: z.string(),
  moved_at: z.string(),
  /** Whole days in the current stage. */
  days_in_stage: z.number().int(),
  added_by: person.nullable(),
});
export type PipelineUser = z.infer<typeof pipelineUser>;

export const pipeline = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  stages: z.array(pipelineStage),
  users_count: z.number().int(),
  completed_count: z.number().int(),
  created_by: person.nullable(),
  created_at: z.string(),
  /** With the pipeline alone (not `compact` lists): who is where, longest in stage first per stage. */
  users: z.array(pipelineUser).optional(),
});
export type Pipeline = z.infer<typeof pipeline>;

export const pipelineTemplate = z.object({
  id: z.number().int(),
  program_id: z.number().int().nullable(),
  enterprise_id: z.number().int().nullable(),
  name: z.string(),
  stages: z.array(z.object({ name: z.string(), color: z.string().nullable() })),
});
export type PipelineTemplate = z.infer<typeof pipelineTemplate>;

export const PIPELINE_EVENT_KINDS = ['added', 'moved', 'completed', 'removed', 'rule_moved'] as const;

export const pipelineLog = z.object({
  id: z.number().int(),
  kind: z.enum(PIPELINE_EVENT_KINDS),
  from_stage: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  to_stage: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  by: person.nullable(),
  at: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type PipelineLog = z.infer<typeof pipelineLog>;

/** users_in_stages_history: each stay of the patient in a stage, oldest first. */
export const stageStay = z.object({
  stage: z.object({ id: z.number().int(), name: z.string() }),
  entered_at: z.string(),
  left_at: z.string().nullable(),
  days: z.number(),
});
export type StageStay = z.infer<typeof stageStay>;

export const patientPipeline = z.object({
  pipeline: z.object({ id: z.number().int(), name: z.string() }),
  program_id: z.number().int(),
  patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string().nullable() }),
  stage: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  status: z.enum(['active', 'completed']),
  added_at: z.string(),
  moved_at: z.string(),
  completed_at: z.string().nullable(),
});
export type PatientPipeline = z.infer<typeof patientPipeline>;

export const newPipelineBody = z.object({
  name: line().trim().min(1, 'Name the pipeline.').max(120),
  description: text().trim().max(2000).default(''),
  /** The stages in order (or a template's). */
  stages: z
    .array(z.object({ name: stageName, color }))
    .max(30)
    .default([]),
  template_id: bodyId.optional(),
  /** The enterprise variant names the program the pipeline belongs to. */
  program_id: bodyId.optional(),
});
export type NewPipelineBody = z.input<typeof newPipelineBody>;

const tags = ['pipelines'] as const;
const flag = line()
  .regex(/^(0|1|true|false)$/, 'Use 1 or 0.')
  .transform((v) => v === '1' || v === 'true');
const listQuery = z.object({
  search: line().max(100).optional(),
  compact: flag.optional(),
  /** Enterprise lists: one program's pipelines (blank: every program of the enterprise). */
  program_id: z
    .union([idParam, z.literal('')])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** active: pipelines with patients in them; empty: none; all (default). */
  state: z.enum(['all', 'active', 'empty']).optional(),
});
const month = z.object({
  month: line()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use the format YYYY-MM.')
    .optional(),
});
const P = z.object({ programId: idParam });
const PP = z.object({ programId: idParam, pipeline_id: idParam });
const E = z.object({ enterpriseId: idParam });
const EP = z.object({ enterpriseId: idParam, pipeline_id: idParam });
const pipelineParams = z.object({ pipeline_id: idParam });
const userParams = z.object({ pipeline_id: idParam, u: idParam });
const stageParams = z.object({ pipeline_id: idParam, stage_id: idParam });
const message = z.object({ message: z.string() });
const one = z.object({ data: pipeline });
const list = z.object({ data: z.array(pipeline) });
const userIds = z.array(bodyId).min(1, 'Choose at least one patient.').max(1000);

export const pipelinesContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/pipelines',
    summary: "The program's pipelines by name, with their stages and counts (compact: no users)",
    tags,
    params: P,
    query: listQuery,
    responses: { 200: list },
  }),
  enterpriseList: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/pipelines',
    summary: "The pipelines of the enterprise's programs (program_id: one program's; blank: all)",
    tags,
    params: E,
    query: listQuery,
    responses: { 200: list },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/pipelines/:pipeline_id',
    summary: 'One pipeline with its stages and the patients in each',
    tags,
    params: PP,
    responses: { 200: one },
  }),
  enterpriseGet: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/pipelines/:pipeline_id',
    summary: 'One pipeline of a program of the enterprise, with its stages and patients',
    tags,
    params: EP,
    responses: { 200: one },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/pipelines',
    summary: 'Create a pipeline with its stages (or a template’s)',
    tags,
    params: P,
    body: newPipelineBody,
    responses: { 201: z.object({ message: z.string(), data: pipeline }) },
  }),
  enterpriseCreate: defineRoute({
    method: 'POST',
    path: '/api/v1/enterprises/:enterpriseId/pipelines',
    summary: 'Create a pipeline in a program of the enterprise (program_id in the body)',
    tags,
    params: E,
    body: newPipelineBody,
    responses: { 201: z.object({ message: z.string(), data: pipeline }) },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/programs/:programId/pipelines/:pipeline_id',
    summary: 'Delete a pipeline (its history goes with it; patients stay in the program)',
    tags,
    params: PP,
    responses: { 200: message },
  }),
  enterpriseRemove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/enterprises/:enterpriseId/pipelines/:pipeline_id',
    summary: 'Delete a pipeline of a program of the enterprise',
    tags,
    params: EP,
    responses: { 200: message },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/pipelines/:pipeline_id/download',
    summary: 'pipeline_report.xls: every patient of the pipeline with stage and dates, and the month’s moves',
    tags,
    params: PP,
    query: month,
    responses: { 200: null },
    file: { contentType: XLSX },
  }),
  enterpriseDownload: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/pipelines/:pipeline_id/download',
    summary: 'pipeline_report.xls of a pipeline of a program of the enterprise',
    tags,
    params: EP,
    query: month,
    responses: { 200: null },
    file: { contentType: XLSX },
  }),
  stagesDownload: defineRoute({
    method: 'GET',
    path: '/api/v1/pipelines/:pipeline_id/stages/download',
    summary: 'pipeline_stage_report.xls: each stage with its patients now, entries and average days',
    tags,
    params: pipelineParams,
    responses: { 200: null },
    file: { contentType: XLSX },
  }),
  addUsers: defineRoute({
    method: 'POST',
    path: '/api/v1/pipelines/:pipeline_id/users',
    summary: 'Add patients of the program to the pipeline (first stage unless stage_id); those in it stay',
    tags,
    params: pipelineParams,
    body: z.object({ user_ids: userIds, stage_id: bodyId.optional() }),
    responses: { 200: z.object({ message: z.string(), added: z.number().int(), already: z.number().int() }) },
  }),
  move: defineRoute({
    method: 'PUT',
    path: '/api/v1/pipelines/:pipeline_id/users/:u',
    summary: 'Move a patient to another stage of the pipeline (to_id)',
    tags,
    params: userParams,
    body: z.object({ to_id: bodyId }),
    responses: { 200: z.object({ message: z.string(), data: pipelineUser }) },
  }),
  bulkUpload: defineRoute({
    method: 'POST',
    path: '/api/v1/pipelines/:pipeline_id/users/bulk-upload',
    summary: 'Add the patients a CSV names (a column of patient ids or MRNs; multipart field "file")',
    tags,
    params: pipelineParams,
    responses: {
      200: z.object({
        message: z.string(),
        added: z.number().int(),
        already: z.number().int(),
        not_found: z.array(z.string()),
      }),
    },
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/v1/pipelines/:pipeline_id/users/:u/history',
    summary: "users_in_stages_history: the patient's stays in each stage, oldest first",
    tags,
    params: userParams,
    responses: { 200: z.object({ data: z.array(stageStay) }) },
  }),
  logs: defineRoute({
    method: 'GET',
    path: '/api/v1/pipelines/:pipeline_id/users/:u/logs',
    summary: 'Everything that happened to the patient in the pipeline, newest first, with who',
    tags,
    params: userParams,
    responses: { 200: z.object({ data: z.array(pipelineLog) }) },
  }),
  stages: defineRoute({
    method: 'GET',
    path: '/api/v1/pipelines/:pipeline_id/stages',
    summary: 'The stages in order, with patients in each and their pre-stage rule',
    tags,
    params: pipelineParams,
    responses: { 200: z.object({ data: z.array(pipelineStage) }) },
  }),
  createStage: defineRoute({
    method: 'POST',
    path: '/api/v1/pipelines/:pipeline_id/stages',
    summary: 'Add a stage (at the end, or at position)',
    tags,
    params: pipelineParams,
    body: z.object({ name: stageName, color, position: z.number().int().min(1).max(30).optional() }),
    responses: { 201: z.object({ message: z.string(), data: pipelineStage }) },
  }),
  updateStage: defineRoute({
    method: 'PUT',
    path: '/api/v1/pipelines/:pipeline_id/stages/:stage_id',
    summary: 'Rename, recolour or move a stage',
    tags,
    params: stageParams,
    body: z.object({
      name: stageName.optional(),
      color: colorChange.optional(),
      position: z.number().int().min(1).max(30).optional(),
    }),
    responses: { 200: z.object({ message: z.string(), data: pipelineStage }) },
  }),
  deleteStage: defineRoute({
    method: 'DELETE',
    path: '/api/v1/pipelines/:pipeline_id/stages/:stage_id',
    summary: 'Delete an empty stage (422 while patients are in it, or when it is the last)',
    tags,
    params: stageParams,
    responses: { 200: message },
  }),
  stageUsers: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/pipelines/:pipeline_id/stage/:stage_id/stage-users',
    summary: 'The patients in one stage, longest there first (paged)',
    tags,
    params: z.object({ programId: idParam, pipeline_id: idParam, stage_id: idParam }),
    query: pageQuery,
    responses: { 200: paged(pipelineUser) },
  }),
  complete: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/pipelines/:pipeline_id/users/:userId/complete',
    summary: 'The patient completes the pipeline; with new_pipeline_id, enters that one’s first stage',
    tags,
    params: z.object({ programId: idParam, pipeline_id: idParam, userId: idParam }),
    body: z.object({ new_pipeline_id: bodyId.nullable().default(null) }),
    responses: { 200: message },
  }),
  templates: defineRoute({
    method: 'GET',
    path: '/api/v1/pipelines/templates',
    summary: "The templates a program may use: its own and its enterprise's",
    tags,
    query: z.object({ program_id: idParam }),
    responses: { 200: z.object({ data: z.array(pipelineTemplate) }) },
  }),
  createTemplate: defineRoute({
    method: 'POST',
    path: '/api/v1/pipelines/templates',
    summary: 'Save stages as a template of a program (program_id) or of an enterprise (enterprise_id)',
    tags,
    body: z
      .object({
        program_id: bodyId.optional(),
        enterprise_id: bodyId.optional(),
        name: line().trim().min(1, 'Name the template.').max(120),
        stages: z
          .array(z.object({ name: stageName, color }))
          .min(1, 'Give at least one stage.')
          .max(30),
      })
      .refine((v) => (v.program_id === undefined) !== (v.enterprise_id === undefined), {
        message: 'Choose a program or an enterprise.',
        path: ['program_id'],
      }),
    responses: { 201: z.object({ message: z.string(), data: pipelineTemplate }) },
  }),
  allUserPipelines: defineRoute({
    method: 'GET',
    path: '/api/v1/all-user-pipelines',
    summary: "Every patient's pipelines in a program (who is in which stage), paged",
    tags,
    query: pageQuery.extend({ program_id: idParam, search: line().max(100).optional() }),
    responses: { 200: paged(patientPipeline) },
  }),
  userPipelines: defineRoute({
    method: 'GET',
    path: '/api/v1/user-pipelines',
    summary: "One patient's pipelines (current stage, or completed)",
    tags,
    query: z.object({ user_id: idParam }),
    responses: { 200: z.object({ data: z.array(patientPipeline) }) },
  }),
  addUserToPipeline: defineRoute({
    method: 'POST',
    path: '/api/v1/users/pipeline',
    summary: 'Put one patient in a pipeline (first stage unless stage_id)',
    tags,
    body: z.object({ user_id: bodyId, pipeline_id: bodyId, stage_id: bodyId.optional() }),
    responses: { 200: z.object({ message: z.string(), data: patientPipeline }) },
  }),
  setUserPipelines: defineRoute({
    method: 'POST',
    path: '/api/v1/users/:id/pipelines/update',
    summary: "Set the patient's pipelines: joins the new ones' first stage, leaves those not listed",
    tags,
    params: z.object({ id: idParam }),
    body: z.object({ pipelines: z.array(bodyId).max(50) }),
    responses: { 200: z.object({ message: z.string(), data: z.array(patientPipeline) }) },
  }),
  stageRules: defineRoute({
    method: 'GET',
    path: '/api/v1/pipelines-stage-rules',
    summary: "The program's stages that have a pre-stage rule, with the rule",
    tags,
    query: z.object({ program_id: idParam }),
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            pipeline: z.object({ id: z.number().int(), name: z.string() }),
            stage: z.object({ id: z.number().int(), name: z.string() }),
            rule: z.object({ id: z.number().int(), name: z.string(), active: z.boolean() }),
          }),
        ),
      }),
    },
  }),
  assignPreStageRule: defineRoute({
    method: 'POST',
    path: '/api/v1/rules/assign-pre-stage-rule/:stage/rule/:rule',
    summary: "A rule's alert moves the patient into this stage (the rule and the stage share a program)",
    tags,
    params: z.object({ stage: idParam, rule: idParam }),
    responses: { 200: z.object({ message: z.string(), data: pipelineStage }) },
  }),
  removePreStageRule: defineRoute({
    method: 'DELETE',
    path: '/api/v1/rules/assign-pre-stage-rule/:stage/rule/delete',
    summary: "Remove the stage's pre-stage rule",
    tags,
    params: z.object({ stage: idParam }),
    responses: { 200: z.object({ message: z.string(), data: pipelineStage }) },
  }),
};

/** Export names of 02 §8. */
export const PIPELINE_REPORT_FILE = 'pipeline_report.xls';
export const PIPELINE_STAGE_REPORT_FILE = 'pipeline_stage_report.xls';
