import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { rules } from '../alerts/alerts.tables';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { enterprises, programs } from '../tenancy/tenancy.tables';

const adminRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' });
const at = (name: string) => timestamp(name, { withTimezone: true });

/** A program's pipeline (02 §3 Pipeline; ADR 037). */
export const pipelines = pgTable(
  'pipelines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdBy: adminRef('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pipelines_name_key').on(t.programId, sql`lower(${t.name})`)],
);

/** A stage of a pipeline, in order; its pre-stage rule moves the patients it alerts on into it. */
export const pipelineStages = pgTable(
  'pipeline_stages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    pipelineId: bigint('pipeline_id', { mode: 'number' })
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    color: text('color'),
    ruleId: bigint('rule_id', { mode: 'number' }).references(() => rules.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('pipeline_stages_name_key').on(t.pipelineId, sql`lower(${t.name})`),
    index('pipeline_stages_pipeline_idx').on(t.pipelineId, t.position),
    index('pipeline_stages_rule_idx').on(t.ruleId),
  ],
);

/** A patient in a pipeline: in a stage while active, or completed. */
export const pipelinePatients = pgTable(
  'pipeline_patients',
  {
    pipelineId: bigint('pipeline_id', { mode: 'number' })
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    stageId: bigint('stage_id', { mode: 'number' }).references(() => pipelineStages.id, {
      onDelete: 'restrict',
    }),
    status: text('status').notNull().default('active'),
    addedBy: adminRef('added_by'),
    addedAt: at('added_at').notNull().defaultNow(),
    movedAt: at('moved_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.pipelineId, t.patientId] }),
    index('pipeline_patients_stage_idx').on(t.stageId, t.movedAt),
    index('pipeline_patients_patient_idx').on(t.patientId),
    check(
      'pipeline_patients_status_check',
      sql`(${t.status} = 'active' AND ${t.stageId} IS NOT NULL) OR (${t.status} = 'completed' AND ${t.stageId} IS NULL)`,
    ),
  ],
);

/** What happened to a patient in a pipeline (history of stays and logs). */
export const pipelineEvents = pgTable(
  'pipeline_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    pipelineId: bigint('pipeline_id', { mode: 'number' })
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    fromStageId: bigint('from_stage_id', { mode: 'number' }).references(() => pipelineStages.id, {
      onDelete: 'set null',
    }),
    toStageId: bigint('to_stage_id', { mode: 'number' }).references(() => pipelineStages.id, {
      onDelete: 'set null',
    }),
    adminId: adminRef('admin_id'),
    at: at('at').notNull().defaultNow(),
    detail: jsonb('detail').notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('pipeline_events_patient_idx').on(t.pipelineId, t.patientId, t.id),
    index('pipeline_events_at_idx').on(t.pipelineId, t.at),
  ],
);

/** Stages saved for reuse by a program or by every program of an enterprise. */
export const pipelineTemplates = pgTable(
  'pipeline_templates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' }).references(() => programs.id, {
      onDelete: 'cascade',
    }),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).references(() => enterprises.id, {
      onDelete: 'cascade',
    }),
    name: text('name').notNull(),
    stages: jsonb('stages').notNull(),
    createdBy: adminRef('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('pipeline_templates_scope', sql`(${t.programId} IS NULL) <> (${t.enterpriseId} IS NULL)`),
    index('pipeline_templates_program_idx').on(t.programId),
    index('pipeline_templates_enterprise_idx').on(t.enterpriseId),
  ],
);
