import { z } from 'zod';
import { ALERT_TYPES } from './alerts';
import { bodyId, idParam, line } from './common';
import { defineRoute } from './route';
import { STAFF_ROLES, type StaffRole } from './tenancy';

/**
 * 02 §3 Rule, §7 "Rules": a rule = an observable (what is measured), a criterion (how it is aggregated
 * over a window and compared) and an outcome (the alert it raises, the role it notifies). docs/alerts.md.
 */
export const RULE_OBSERVABLES = [
  { key: 'systolic', kind: 'reading', unit: 'mmHg' },
  { key: 'diastolic', kind: 'reading', unit: 'mmHg' },
  { key: 'pulse', kind: 'reading', unit: 'bpm' },
  { key: 'oxygen', kind: 'reading', unit: '%' },
  { key: 'weight', kind: 'reading', unit: 'kg' },
  { key: 'glucose', kind: 'reading', unit: 'mg/dL' },
  { key: 'temperature', kind: 'reading', unit: '°C' },
  { key: 'adherence', kind: 'adherence', unit: '%' },
  { key: 'days_without_reading', kind: 'absence', unit: 'days' },
] as const;
export const RULE_OBSERVABLE_KEYS = RULE_OBSERVABLES.map((o) => o.key) as [
  (typeof RULE_OBSERVABLES)[number]['key'],
  ...(typeof RULE_OBSERVABLES)[number]['key'][],
];
export const RULE_COMPARISONS = ['>', '>=', '<', '<=', '='] as const;
/** How readings of the window become one value (adherence and absence have their own). */
export const RULE_AGGREGATIONS = ['latest', 'average', 'min', 'max', 'count'] as const;
export const RULE_OUTCOMES = ['raise_alert', 'notify_role', 'send_sms'] as const;
/** How long a rule's text to the patient may be (three SMS segments). */
export const RULE_SMS_MAX = 480;

/** Who writes rules and alert thresholds (admins, physicians, enterprise admins); everyone in the program reads them. */
export const RULE_EDITOR_ROLES = [
  'admin',
  'physician',
  'enterprise_admin',
] as const satisfies readonly StaffRole[];

export const RULE_MESSAGES = {
  created: 'Rule created',
  updated: 'Rule updated',
  deleted: 'Rule deleted',
  notFound: 'Rule not found',
  aggregationNotForObservable:
    'Adherence and days without reading are not aggregated: leave aggregation as latest.',
  windowRequired: 'Choose a window of at least one day for adherence.',
} as const;

export const ruleCriterion = z.object({
  comparison: z.enum(RULE_COMPARISONS),
  value: z.number().finite().min(-1000).max(100_000),
  aggregation: z.enum(RULE_AGGREGATIONS).default('latest'),
  /** Readings of the last N minutes (adherence: whole days of it). */
  window_minutes: z
    .number()
    .int()
    .min(0)
    .max(90 * 24 * 60)
    .default(24 * 60),
});
export const ruleOutcome = z.object({
  type: z.enum(RULE_OUTCOMES),
  /** The alert the rule raises (on the board like any other, explained by the rule). */
  alert_type: z.enum(ALERT_TYPES),
  /** Also tell the staff holding this role in the program, live, when the alert opens. */
  notify_role: z.enum(STAFF_ROLES).nullable().default(null),
  /** Also text the patient this, once, when the alert opens (`{first_name}` is filled in); opted-out numbers are never texted. */
  sms_text: z
    .string()
    .trim()
    .min(1, 'Write the text, or leave texting off.')
    .max(RULE_SMS_MAX, `At most ${RULE_SMS_MAX} characters.`)
    .nullable()
    .default(null),
});

export const ruleBody = z.object({
  program_id: bodyId,
  name: line().trim().min(1, 'Name the rule.').max(120),
  observable: z.enum(RULE_OBSERVABLE_KEYS),
  criterion: ruleCriterion,
  outcome: ruleOutcome,
  active: z.boolean().default(false),
});
export type RuleBody = z.input<typeof ruleBody>;

export const rule = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  observable: z.enum(RULE_OBSERVABLE_KEYS),
  criterion: ruleCriterion,
  outcome: ruleOutcome,
  active: z.boolean(),
  version: z.number().int(),
  updated_at: z.string(),
  updated_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type Rule = z.infer<typeof rule>;

export const dryRunResult = z.object({
  /** Patients the rule would hit now, strongest value first (at most 100 listed). */
  total: z.number().int(),
  evaluated: z.number().int(),
  hits: z.array(
    z.object({
      patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string().nullable() }),
      value: z.number(),
      at: z.string().nullable(),
    }),
  ),
});
export type DryRunResult = z.infer<typeof dryRunResult>;

const tags = ['rules'] as const;
const ruleIdList = line()
  .max(2000)
  .regex(/^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15})*$/, 'Use ids separated by commas.')
  .transform((v) => v.split(',').map(Number));

export const rulesContract = {
  observables: defineRoute({
    method: 'GET',
    path: '/api/v1/rules/observables',
    summary: 'What a rule can watch: readings, adherence, days without a reading',
    tags,
    responses: {
      200: z.object({
        data: z.array(z.object({ key: z.string(), kind: z.string(), unit: z.string() })),
      }),
    },
  }),
  criterion: defineRoute({
    method: 'GET',
    path: '/api/v1/rules/criterion',
    summary: 'How a rule compares: comparisons, aggregations over a window',
    tags,
    responses: {
      200: z.object({
        data: z.object({ comparisons: z.array(z.string()), aggregations: z.array(z.string()) }),
      }),
    },
  }),
  outcomes: defineRoute({
    method: 'GET',
    path: '/api/v1/rules/outcomes',
    summary: 'What a rule does: raise an alert, optionally notifying a role and texting the patient',
    tags,
    responses: {
      200: z.object({
        data: z.array(
          z.object({ type: z.string(), alert_types: z.array(z.string()), roles: z.array(z.string()) }),
        ),
      }),
    },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/rules',
    summary: "The rules of the programs the caller sees (rule_ids: only those; program_id: one program's)",
    tags,
    query: z.object({ rule_ids: ruleIdList.optional(), program_id: idParam.optional() }),
    responses: { 200: z.object({ data: z.array(rule) }) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/rules',
    summary: 'Create a rule (inactive unless active: true)',
    tags,
    body: ruleBody,
    responses: { 201: z.object({ message: z.string(), data: rule }) },
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/rules/:id',
    summary: 'Change a rule: a new version (the previous ones are kept)',
    tags,
    params: z.object({ id: idParam }),
    // Without `active` the rule keeps its state (creating defaults to inactive).
    body: ruleBody.omit({ program_id: true }).extend({ active: z.boolean().optional() }),
    responses: { 200: z.object({ message: z.string(), data: rule }) },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/rules/:id',
    summary: 'Delete a rule; the alerts it raised stay, with their history',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: z.object({ message: z.string() }) },
  }),
  dryRun: defineRoute({
    method: 'POST',
    path: '/api/v1/rules/dry-run',
    summary: 'Which patients a rule would hit now, before it is saved or switched on',
    tags,
    body: ruleBody,
    responses: { 200: z.object({ data: dryRunResult }) },
  }),
};
