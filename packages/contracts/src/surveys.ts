import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, text } from './common';
import { defineRoute } from './route';

/**
 * 02 §3/§4/§7 "Surveys" (ADR 036): a program's surveys (assessments) with their questions, folders and an
 * external link; assignments to patients (scheduled, private, administered by staff, reassigned after N
 * days); responses with a score; triggers on the score and on single questions that flag a response; the
 * program's worklist, a survey's card and a patient's engagements.
 */
export const SURVEY_MESSAGES = {
  created: 'Survey created',
  updated: 'Survey updated',
  linkUpdated: 'Survey link updated',
  questionsSaved: 'Questions saved',
  assigned: 'Survey Assigned!',
  alreadyCompleted: 'Assessment Already Completed',
  alreadyAssigned: 'This survey is already assigned to the patient and not completed yet.',
  unassigned: 'Survey unassigned',
  bulkAssigned: 'Surveys assigned',
  folderCreated: 'Folder created successfully!',
  folderUpdated: 'Folder Updated successfully!',
  folderDeleted: 'Folder Deleted successfully!',
  movedToFolder: 'Survey moved to the folder',
  removedFromFolder: 'Survey removed from its folder',
  responseSaved: 'Answers saved',
  responseCompleted: 'Survey completed',
  triggerUpdated: 'Trigger updated',
  triggerToggled: 'Trigger switched',
  notFound: 'Survey not found',
  folderNotFound: 'Folder not found',
  assignmentNotFound: 'Assignment not found',
  triggerNotFound: 'Trigger not found',
  folderNameTaken: 'A folder of that name exists already.',
  nameTaken: 'A survey of that name exists already in the program.',
  noQuestions: 'A survey needs at least one question before it is assigned.',
  notOpen: 'This assignment is completed or unassigned: its answers cannot change.',
  answerRequired: 'Answer this question.',
  unknownOption: 'Choose one of the options.',
  oneOption: 'Choose one option only.',
  outOfRange: 'The number is outside the allowed range.',
  unknownQuestion: 'This question is not part of the survey.',
  optionsRequired: 'Give at least two options.',
  rangeInvalid: 'The lowest value must be below the highest.',
  patientsNotFound: 'Some patients were not found in the program.',
} as const;

export const SURVEY_QUESTION_KINDS = ['single', 'multiple', 'number', 'text'] as const;
export const SURVEY_ASSIGNMENT_STATUSES = ['scheduled', 'open', 'completed', 'unassigned'] as const;
export const SURVEY_EVENT_KINDS = [
  'assigned',
  'opened',
  'answered',
  'completed',
  'reassigned',
  'unassigned',
] as const;
/** An open assignment is overdue (and raises pending_assessments_alerts) after this many days. */
export const SURVEY_DUE_DAYS = 3;

const person = z.object({ id: z.number().int(), name: z.string() });
const name = (message: string) => line().trim().min(1, message).max(160);
const url = line()
  .trim()
  .max(2000)
  .regex(/^https:\/\/[^\s]+$/, 'Use an https:// address.');

export const surveyOption = z.object({
  value: line().trim().min(1, 'Give the option a value.').max(40),
  label: line().trim().min(1, 'Give the option a label.').max(200),
  /** Points this answer adds to the survey's score. */
  score: z.number().finite().min(-1000).max(1000).default(0),
});

export const surveyQuestionInput = z
  .object({
    /** Keep a question's id to keep its answers and trigger when editing. */
    id: bodyId.optional(),
    text: text().trim().min(1, 'Write the question.').max(1000),
    kind: z.enum(SURVEY_QUESTION_KINDS),
    options: z.array(surveyOption).max(20).default([]),
    min: z.number().finite().nullable().default(null),
    max: z.number().finite().nullable().default(null),
    required: z.boolean().default(true),
  })
  .superRefine((q, ctx) => {
    if ((q.kind === 'single' || q.kind === 'multiple') && q.options.length < 2)
      ctx.addIssue({ code: 'custom', path: ['options'], message: SURVEY_MESSAGES.optionsRequired });
    if (q.min !== null && q.max !== null && q.min >= q.max)
      ctx.addIssue({ code: 'custom', path: ['min'], message: SURVEY_MESSAGES.rangeInvalid });
    const values = q.options.map((o) => o.value.toLowerCase());
    if (new Set(values).size !== values.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Each option needs its own value.' });
  });
export type SurveyQuestionInput = z.input<typeof surveyQuestionInput>;

export const surveyQuestion = z.object({
  id: z.number().int(),
  position: z.number().int(),
  text: z.string(),
  kind: z.enum(SURVEY_QUESTION_KINDS),
  options: z.array(z.object({ value: z.string(), label: z.string(), score: z.number() })),
  min: z.number().nullable(),
  max: z.number().nullable(),
  required: z.boolean(),
});
export type SurveyQuestion = z.infer<typeof surveyQuestion>;

/** A trigger flags a completed response: the score (or one question's points or number) at or above `value`. */
export const surveyTrigger = z.object({
  id: z.number().int(),
  kind: z.enum(['score', 'question']),
  question_id: z.number().int().nullable(),
  value: z.number().nullable(),
  is_active: z.boolean(),
});
export type SurveyTrigger = z.infer<typeof surveyTrigger>;

export const survey = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  folder_id: z.number().int().nullable(),
  url: z.string().nullable(),
  analyse_url: z.string().nullable(),
  /** Each change of the questions is a new version; responses keep the version they answered. */
  version: z.number().int(),
  questions: z.array(surveyQuestion),
  triggers: z.array(surveyTrigger),
  max_score: z.number(),
  open_assignments: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Survey = z.infer<typeof survey>;

export const surveyFolder = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  surveys: z.number().int(),
});
export type SurveyFolder = z.infer<typeof surveyFolder>;

export const firedTrigger = z.object({
  trigger_id: z.number().int(),
  kind: z.enum(['score', 'question']),
  question_id: z.number().int().nullable(),
  question: z.string().nullable(),
  value: z.number(),
  threshold: z.number(),
});
export type FiredTrigger = z.infer<typeof firedTrigger>;

export const surveyAnswer = z.object({
  question_id: z.number().int(),
  question: z.string(),
  /** The option values chosen, the number, or the text, as given. */
  value: z.union([z.string(), z.number(), z.array(z.string())]),
  /** The option labels chosen, or the value as text. */
  display: z.string(),
  score: z.number().nullable(),
});
export type SurveyAnswer = z.infer<typeof surveyAnswer>;

export const surveyResponse = z.object({
  id: z.number().int(),
  assignment_id: z.number().int(),
  survey: z.object({ id: z.number().int(), name: z.string() }),
  patient_id: z.number().int(),
  version: z.number().int(),
  status: z.enum(['in_progress', 'completed']),
  started_at: z.string(),
  completed_at: z.string().nullable(),
  score: z.number().nullable(),
  max_score: z.number(),
  /** Hours until the survey is assigned again (null: not reassigned). */
  reassign_after_hours: z.number().nullable(),
  recorded_by: person.nullable(),
  /** Answers of a private assignment are shown to the staff member who assigned or recorded it only. */
  is_private: z.boolean(),
  triggers: z.array(firedTrigger),
  answered: z.number().int(),
  /** With loadAnswers=1. */
  answers: z.array(surveyAnswer).optional(),
});
export type SurveyResponse = z.infer<typeof surveyResponse>;

export const surveyAssignment = z.object({
  id: z.number().int(),
  survey: z.object({ id: z.number().int(), name: z.string(), version: z.number().int() }),
  patient_id: z.number().int(),
  program_id: z.number().int(),
  status: z.enum(SURVEY_ASSIGNMENT_STATUSES),
  scheduled_at: z.string(),
  due_at: z.string(),
  overdue: z.boolean(),
  is_private: z.boolean(),
  admin_assign: z.boolean(),
  reassign_after_days: z.number().int().nullable(),
  assigned_by: person.nullable(),
  assigned_at: z.string(),
  completed_at: z.string().nullable(),
  score: z.number().nullable(),
  flagged: z.boolean(),
  /** The in-progress response, when answers were saved without completing. */
  response_id: z.number().int().nullable(),
});
export type SurveyAssignment = z.infer<typeof surveyAssignment>;

export const assignBody = z.object({
  reassign_after_days: z.number().int().min(1).max(365).nullable().default(null),
  is_private: z.boolean().default(false),
  /** Staff administer it (by phone or in the clinic) rather than the patient through the link. */
  admin_assign: z.boolean().default(false),
  /** When it opens (ISO date-time; default now). */
  scheduled_at: z.iso
    .datetime({ offset: true, error: 'Use an ISO 8601 date and time.' })
    .nullable()
    .default(null),
});
export type AssignBody = z.input<typeof assignBody>;

export const responseBody = z.object({
  answers: z
    .array(
      z.object({
        question_id: bodyId,
        value: z.union([line().max(4000), z.number().finite(), z.array(line().max(40)).max(20)]),
      }),
    )
    .max(200),
  /** Complete the survey (every required question answered); otherwise the answers are kept in progress. */
  complete: z.boolean().default(true),
});
export type ResponseBody = z.input<typeof responseBody>;

export const surveyWorklistItem = surveyAssignment.extend({
  patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string().nullable() }),
  triggers: z.array(firedTrigger),
});
export type SurveyWorklistItem = z.infer<typeof surveyWorklistItem>;

export const surveyCard = z.object({
  survey: z.object({ id: z.number().int(), name: z.string(), version: z.number().int() }),
  assigned: z.number().int(),
  open: z.number().int(),
  overdue: z.number().int(),
  scheduled: z.number().int(),
  completed: z.number().int(),
  /** Completed of those no longer scheduled, in percent (null: none yet). */
  completion_rate: z.number().nullable(),
  average_score: z.number().nullable(),
  max_score: z.number(),
  flagged: z.number().int(),
  last_completed_at: z.string().nullable(),
  /** Completed responses per score band of a fifth of the maximum. */
  score_bands: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
});
export type SurveyCard = z.infer<typeof surveyCard>;

export const surveyEngagement = z.object({
  id: z.number().int(),
  assignment_id: z.number().int(),
  kind: z.enum(SURVEY_EVENT_KINDS),
  at: z.string(),
  by: person.nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type SurveyEngagement = z.infer<typeof surveyEngagement>;

export const patientTriggerHit = firedTrigger.extend({
  response_id: z.number().int(),
  survey: z.object({ id: z.number().int(), name: z.string() }),
  completed_at: z.string(),
});
export type PatientTriggerHit = z.infer<typeof patientTriggerHit>;

const tags = ['surveys'] as const;
const flag = line()
  .regex(/^(0|1|true|false)$/, 'Use 1 or 0.')
  .transform((v) => v === '1' || v === 'true');
const programQuery = z.object({ program_id: idParam });
const surveyParams = z.object({ s: idParam });
const patientSurvey = z.object({ id: idParam, s: idParam });
const message = z.object({ message: z.string() });
const surveyAnswerBody = z.object({ message: z.string(), data: survey });
const folderId = z.object({ folder_id: bodyId });
const folderName = name('Name the folder.');

export const surveysContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/surveys',
    summary: "A program's surveys by name, with questions and triggers (folder_id: only that folder's)",
    tags,
    query: programQuery.extend({
      folder_id: idParam.optional(),
      search: line().max(100).optional(),
    }),
    responses: { 200: z.object({ data: z.array(survey) }) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/surveys',
    summary: 'Create a survey in a program (designed: 02 shows none), optionally with its questions',
    tags,
    body: z.object({
      program_id: bodyId,
      name: name('Name the survey.'),
      description: text().trim().max(2000).default(''),
      folder_id: bodyId.nullable().default(null),
      url: url.nullable().default(null),
      analyse_url: url.nullable().default(null),
      questions: z.array(surveyQuestionInput).max(100).default([]),
    }),
    responses: { 201: surveyAnswerBody },
  }),
  updateLink: defineRoute({
    method: 'POST',
    path: '/api/v1/surveys/:s/update-link',
    summary: "Set the survey's link for patients (url) and for analysing its results (analyse_url)",
    tags,
    params: surveyParams,
    // Without `analyse_url` the analysis link stays; null removes it.
    body: z.object({ url: url.nullable(), analyse_url: url.nullable().optional() }),
    responses: { 200: surveyAnswerBody },
  }),
  questions: defineRoute({
    method: 'POST',
    path: '/api/v1/surveys/:s/questions',
    summary:
      'Replace the questions (a new version; questions keeping their id keep their trigger), name and description optional',
    tags,
    params: surveyParams,
    body: z.object({
      questions: z.array(surveyQuestionInput).min(1, 'Add at least one question.').max(100),
      name: name('Name the survey.').optional(),
      description: text().trim().max(2000).optional(),
    }),
    responses: { 200: surveyAnswerBody },
  }),
  folders: defineRoute({
    method: 'GET',
    path: '/api/v1/surveys/folder',
    summary: "A program's survey folders by name, with how many surveys each holds",
    tags,
    query: programQuery,
    responses: { 200: z.object({ data: z.array(surveyFolder) }) },
  }),
  createFolder: defineRoute({
    method: 'POST',
    path: '/api/v1/surveys/folder',
    summary: 'Create a survey folder',
    tags,
    body: z.object({ program_id: bodyId, name: folderName }),
    responses: { 201: z.object({ message: z.string(), data: surveyFolder }) },
  }),
  updateFolder: defineRoute({
    method: 'PUT',
    path: '/api/v1/surveys/folder',
    summary: 'Rename a survey folder (folder_id in the body)',
    tags,
    body: folderId.extend({ name: folderName }),
    responses: { 200: z.object({ message: z.string(), data: surveyFolder }) },
  }),
  deleteFolder: defineRoute({
    method: 'DELETE',
    path: '/api/v1/surveys/folder',
    summary: 'Delete a survey folder (folder_id in the query); its surveys stay, outside any folder',
    tags,
    query: z.object({ folder_id: idParam }),
    responses: { 200: message },
  }),
  moveToFolder: defineRoute({
    method: 'POST',
    path: '/api/v1/surveys/:s/folder',
    summary: 'Put the survey in a folder of its program',
    tags,
    params: surveyParams,
    body: folderId,
    responses: { 200: surveyAnswerBody },
  }),
  moveToFolderPut: defineRoute({
    method: 'PUT',
    path: '/api/v1/surveys/:s/folder',
    summary: 'Put the survey in a folder of its program (as POST)',
    tags,
    params: surveyParams,
    body: folderId,
    responses: { 200: surveyAnswerBody },
  }),
  removeFromFolder: defineRoute({
    method: 'POST',
    path: '/api/v1/surveys/:s/remove',
    summary: 'Take the survey out of its folder',
    tags,
    params: surveyParams,
    responses: { 200: surveyAnswerBody },
  }),
  removeFromFolderPut: defineRoute({
    method: 'PUT',
    path: '/api/v1/surveys/:s/remove',
    summary: 'Take the survey out of its folder (as POST)',
    tags,
    params: surveyParams,
    responses: { 200: surveyAnswerBody },
  }),
  assign: defineRoute({
    method: 'POST',
    path: '/api/v1/users/:id/surveys/:s',
    summary:
      "Assign a survey to a patient: 'Survey Assigned!', or 'Assessment Already Completed' when completed before and not set to be reassigned",
    tags,
    params: patientSurvey,
    body: assignBody,
    responses: { 200: z.object({ message: z.string(), data: surveyAssignment }) },
  }),
  bulkAssign: defineRoute({
    method: 'POST',
    path: '/api/v1/surveys/bulk-assign',
    summary:
      'Assign surveys to patients of one program at once (those completed and not reassigned are skipped)',
    tags,
    body: assignBody.extend({
      program_id: bodyId,
      survey_ids: z.array(bodyId).min(1, 'Choose at least one survey.').max(20),
      user_ids: z.array(bodyId).min(1, 'Choose at least one patient.').max(1000),
    }),
    responses: {
      200: z.object({
        message: z.string(),
        assigned: z.number().int(),
        already_completed: z.number().int(),
        already_assigned: z.number().int(),
      }),
    },
  }),
  patientSurveys: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/surveys',
    summary:
      "A patient's survey assignments, newest first; available=1: the program's surveys that can be assigned now",
    tags,
    params: z.object({ id: idParam }),
    query: z.object({ available: flag.optional() }),
    responses: {
      200: z.object({ data: z.array(z.union([surveyAssignment, survey])) }),
    },
  }),
  unassign: defineRoute({
    method: 'DELETE',
    path: '/api/v1/users/:id/surveys/:s',
    summary: "Unassign the patient's open or scheduled assignment of the survey (completed ones stay)",
    tags,
    params: patientSurvey,
    responses: { 200: message },
  }),
  responses: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/surveys/responses',
    summary:
      "A patient's responses, newest first (incomplete=1: in progress only; version: of that version; loadAnswers=1: with answers)",
    tags,
    params: z.object({ id: idParam }),
    query: pageQuery.extend({
      incomplete: flag.optional(),
      version: idParam.optional(),
      loadAnswers: flag.optional(),
      survey_id: idParam.optional(),
    }),
    responses: { 200: paged(surveyResponse) },
  }),
  assignmentResponses: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/surveys/:su/responses',
    summary: 'The responses of one assignment (su), with their answers',
    tags,
    params: z.object({ id: idParam, su: idParam }),
    responses: { 200: z.object({ data: z.array(surveyResponse) }) },
  }),
  respond: defineRoute({
    method: 'POST',
    path: '/api/v1/users/:id/surveys/:su/responses',
    summary:
      'Record answers to an open assignment (designed: staff administering it); complete=true checks every required answer and scores it',
    tags,
    params: z.object({ id: idParam, su: idParam }),
    body: responseBody,
    responses: { 200: z.object({ message: z.string(), data: surveyResponse }) },
  }),
  worklist: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/surveys/worklist',
    summary:
      'The assignments to work: flagged first (completed in the last 7 days with a trigger), then overdue, then open by due date',
    tags,
    params: z.object({ programId: idParam }),
    query: pageQuery.extend({
      status: z.enum(['todo', 'open', 'overdue', 'flagged', 'completed', 'scheduled']).default('todo'),
      survey_id: idParam.optional(),
      search: line().max(100).optional(),
    }),
    responses: { 200: paged(surveyWorklistItem) },
  }),
  card: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/surveys/:surveyId/card',
    summary: "A survey's figures in the program: assigned, open, overdue, completed, scores, flagged",
    tags,
    params: z.object({ programId: idParam, surveyId: idParam }),
    responses: { 200: z.object({ data: surveyCard }) },
  }),
  questionTrigger: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/surveys/:surveyId/triggers/questions/:questionTriggerId',
    summary:
      "Set a question trigger's value (the answer's points or number at or above it flag the response)",
    tags,
    params: z.object({ programId: idParam, surveyId: idParam, questionTriggerId: idParam }),
    body: z.object({ value: z.number().finite().min(-100_000).max(100_000).nullable() }),
    responses: { 200: z.object({ message: z.string(), data: surveyTrigger }) },
  }),
  scoreTrigger: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/surveys/:surveyId/triggers/:triggerId',
    summary: "Set a score trigger's value (a score at or above it flags the response)",
    tags,
    params: z.object({ programId: idParam, surveyId: idParam, triggerId: idParam }),
    body: z.object({ value: z.number().finite().min(-100_000).max(100_000).nullable() }),
    responses: { 200: z.object({ message: z.string(), data: surveyTrigger }) },
  }),
  toggleScoreTrigger: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/surveys/:surveyId/triggers/:triggerId/toggle',
    summary: 'Switch a score trigger on or off (on needs a value)',
    tags,
    params: z.object({ programId: idParam, surveyId: idParam, triggerId: idParam }),
    body: z.object({ is_active: z.boolean() }),
    responses: { 200: z.object({ message: z.string(), data: surveyTrigger }) },
  }),
  toggleQuestionTrigger: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/surveys/:surveyId/triggers/questions/:questionTriggerId/toggle',
    summary: 'Switch a question trigger on or off (on needs a value)',
    tags,
    params: z.object({ programId: idParam, surveyId: idParam, questionTriggerId: idParam }),
    body: z.object({ is_active: z.boolean() }),
    responses: { 200: z.object({ message: z.string(), data: surveyTrigger }) },
  }),
  patientTriggers: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:patientId/surveys/triggers',
    summary: "The triggers a patient's completed responses set off, newest first",
    tags,
    params: z.object({ programId: idParam, patientId: idParam }),
    responses: { 200: z.object({ data: z.array(patientTriggerHit) }) },
  }),
  engagements: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:patientId/surveys/:surveyId/engagements',
    summary: "Everything that happened to a patient's assignments of a survey, newest first",
    tags,
    params: z.object({ programId: idParam, patientId: idParam, surveyId: idParam }),
    responses: { 200: z.object({ data: z.array(surveyEngagement) }) },
  }),
};

/** The value the trigger needs turned on. */
export const SURVEY_TRIGGER_NEEDS_VALUE = 'Set a value before switching the trigger on.';
