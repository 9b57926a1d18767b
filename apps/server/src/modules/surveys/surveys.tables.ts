import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

const adminRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' });
const at = (name: string) => timestamp(name, { withTimezone: true });
const programRef = () =>
  bigint('program_id', { mode: 'number' })
    .notNull()
    .references(() => programs.id, { onDelete: 'cascade' });

/** A folder of a program's surveys (02 §7 "Surveys"; ADR 036). */
export const surveyFolders = pgTable(
  'survey_folders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    name: text('name').notNull(),
    createdBy: adminRef('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('survey_folders_name_key').on(t.programId, sql`lower(${t.name})`)],
);

/** A survey (assessment) of a program; `version` grows with every change of its questions. */
export const surveys = pgTable(
  'surveys',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    folderId: bigint('folder_id', { mode: 'number' }).references(() => surveyFolders.id, {
      onDelete: 'set null',
    }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    url: text('url'),
    analyseUrl: text('analyse_url'),
    version: integer('version').notNull().default(1),
    createdBy: adminRef('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('surveys_name_key').on(t.programId, sql`lower(${t.name})`),
    index('surveys_folder_idx').on(t.folderId),
  ],
);

/** A question of a survey; removed ones keep `removed_at` so older responses still read. */
export const surveyQuestions = pgTable(
  'survey_questions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    kind: text('kind').notNull(),
    options: jsonb('options').notNull().default(sql`'[]'::jsonb`),
    min: doublePrecision('min'),
    max: doublePrecision('max'),
    required: boolean('required').notNull().default(true),
    removedAt: at('removed_at'),
  },
  (t) => [
    index('survey_questions_survey_idx').on(t.surveyId, t.position),
    check('survey_questions_kind_check', sql`${t.kind} IN ('single', 'multiple', 'number', 'text')`),
  ],
);

/** A survey's score trigger and its questions' triggers: a value at or above `value` flags a response. */
export const surveyTriggers = pgTable(
  'survey_triggers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    questionId: bigint('question_id', { mode: 'number' }).references(() => surveyQuestions.id, {
      onDelete: 'cascade',
    }),
    kind: text('kind').notNull(),
    value: doublePrecision('value'),
    isActive: boolean('is_active').notNull().default(false),
    updatedBy: adminRef('updated_by'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('survey_triggers_score_key').on(t.surveyId).where(sql`${t.kind} = 'score'`),
    uniqueIndex('survey_triggers_question_key').on(t.questionId).where(sql`${t.kind} = 'question'`),
    check(
      'survey_triggers_kind_check',
      sql`(${t.kind} = 'score' AND ${t.questionId} IS NULL) OR (${t.kind} = 'question' AND ${t.questionId} IS NOT NULL)`,
    ),
    check('survey_triggers_active_value', sql`NOT ${t.isActive} OR ${t.value} IS NOT NULL`),
  ],
);

/**
 * A survey assigned to a patient. `pending` is scheduled until `scheduled_at`, then open; at most one
 * pending assignment per patient and survey. Completing one with `reassign_after_days` schedules the next.
 */
export const surveyAssignments = pgTable(
  'survey_assignments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    scheduledAt: at('scheduled_at').notNull().defaultNow(),
    isPrivate: boolean('is_private').notNull().default(false),
    adminAssign: boolean('admin_assign').notNull().default(false),
    reassignAfterDays: integer('reassign_after_days'),
    assignedBy: adminRef('assigned_by'),
    assignedAt: at('assigned_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
    unassignedAt: at('unassigned_at'),
    unassignedBy: adminRef('unassigned_by'),
    previousId: bigint('previous_id', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('survey_assignments_pending_key')
      .on(t.patientId, t.surveyId)
      .where(sql`${t.status} = 'pending'`),
    index('survey_assignments_patient_idx').on(t.patientId, t.id),
    index('survey_assignments_program_idx').on(t.programId, t.status, t.scheduledAt),
    index('survey_assignments_survey_idx').on(t.surveyId, t.status),
    check('survey_assignments_status_check', sql`${t.status} IN ('pending', 'completed', 'unassigned')`),
  ],
);

/** The answers to one assignment: in progress until completed, then scored and checked against triggers. */
export const surveyResponses = pgTable(
  'survey_responses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: bigint('assignment_id', { mode: 'number' })
      .notNull()
      .references(() => surveyAssignments.id, { onDelete: 'cascade' }),
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    programId: programRef(),
    version: integer('version').notNull(),
    status: text('status').notNull().default('in_progress'),
    answers: jsonb('answers').notNull().default(sql`'[]'::jsonb`),
    score: doublePrecision('score'),
    maxScore: doublePrecision('max_score').notNull().default(0),
    triggers: jsonb('triggers').notNull().default(sql`'[]'::jsonb`),
    recordedBy: adminRef('recorded_by'),
    startedAt: at('started_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
  },
  (t) => [
    uniqueIndex('survey_responses_assignment_key').on(t.assignmentId),
    index('survey_responses_patient_idx').on(t.patientId, t.id),
    index('survey_responses_completed_idx')
      .on(t.programId, t.completedAt)
      .where(sql`${t.status} = 'completed'`),
    check('survey_responses_status_check', sql`${t.status} IN ('in_progress', 'completed')`),
  ],
);

/** What happened to an assignment (a patient's engagements with a survey). */
export const surveyEvents = pgTable(
  'survey_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: bigint('assignment_id', { mode: 'number' })
      .notNull()
      .references(() => surveyAssignments.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    adminId: adminRef('admin_id'),
    at: at('at').notNull().defaultNow(),
    detail: jsonb('detail').notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index('survey_events_assignment_idx').on(t.assignmentId, t.id)],
);
