import { z } from 'zod';
import { calendarDay, idParam, line, paged, pageQuery, sortDirection } from './common';
import { defineRoute } from './route';

export const PATIENT_STATUSES = ['active', 'inactive', 'pending', 'discharged'] as const;
export const patientStatus = z.enum(PATIENT_STATUSES);
export const SEXES = ['female', 'male', 'other', 'unknown'] as const;

export const PATIENT_SORT_FIELDS = [
  'name',
  'first_name',
  'last_name',
  'dob',
  'status',
  'created_at',
  'id',
] as const;

/** A comma-separated list in a query string (`statuses=active,pending`): each value checked by `item`. */
function csv<T extends z.ZodType<unknown, string>>(item: T, max = 20) {
  return line()
    .max(2000)
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(max));
}
const csvIds = csv(z.string().regex(/^[1-9][0-9]{0,15}$/, 'The id is invalid.'), 50).transform((ids) =>
  ids.map(Number),
);
const flag = line()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(['1', '0', 'true', 'false']))
  .transform((v) => v === '1' || v === 'true');

/**
 * The list's filters (01 §7: sex, income, race, disease_state, ethnicity, group, active, assignedAdmin,
 * statuses; v2 physicians; enterprise scope state). Lists are comma-separated. `assignedAdmin` is a staff id,
 * `me`, or `none` (unassigned). `disease_state` matches an ICD-10-CM code prefix or a disease state name.
 */
export const patientListFilters = z.object({
  sex: csv(z.enum(SEXES)).optional(),
  race: csv(line().max(80)).optional(),
  ethnicity: csv(line().max(80)).optional(),
  income: csv(line().max(20)).optional(),
  statuses: csv(z.enum(PATIENT_STATUSES)).optional(),
  active: flag.optional(),
  assignedAdmin: line()
    .regex(/^(me|none|[1-9][0-9]{0,15})$/, "Use a staff id, 'me' or 'none'.")
    .optional(),
  physicians: csvIds.optional(),
  group: idParam.optional(),
  disease_state: line().trim().max(100).optional(),
  state: csv(line().regex(/^[A-Z]{2}$/, 'Use USPS state codes.'), 60).optional(),
  /** v2 spelling of `state`. */
  states: csv(line().regex(/^[A-Z]{2}$/, 'Use USPS state codes.'), 60).optional(),
  /** Accepted for compatibility: the list always returns the detailed row and every status unless `statuses` narrows it. */
  detail: line().max(10).optional(),
  show_all: line().max(10).optional(),
  // Filters of the later areas (ADR 036, 037, 034; alerts): escalations, pipelines, follow-ups, assessments.
  /** 1: an escalated open alert or an active note escalation; 0: neither. */
  escalation: flag.optional(),
  /** Patients in any of these pipelines now. */
  pipelines: csvIds.optional(),
  /** pipeline: in some pipeline now; enrolled: in none. */
  patientType: z.enum(['pipeline', 'enrolled']).optional(),
  /** 1: an open follow-up; 0: none. */
  follow_up: flag.optional(),
  /** When the open follow-up is due: overdue, today, week (the next 7 days), or a day (YYYY-MM-DD). */
  follow_up_for: z
    .union([z.enum(['overdue', 'today', 'week']), calendarDay('Use overdue, today, week or YYYY-MM-DD.')])
    .optional(),
  /** Whose open follow-up: a staff id or 'me'. */
  follow_up_by: line()
    .regex(/^(me|[1-9][0-9]{0,15})$/, "Use a staff id or 'me'.")
    .optional(),
  /** 1: completed a survey (of assessment_ids when given); 0: never did. */
  assessment_completed: flag.optional(),
  /** open (assigned, not completed), overdue, completed or flagged (met a trigger) assessments. */
  assessment_type: z.enum(['open', 'overdue', 'completed', 'flagged']).optional(),
  /** The surveys the assessment filters look at. */
  assessment_ids: csvIds.optional(),
});
export type PatientListFilters = z.output<typeof patientListFilters>;

export const patientListQuery = pageQuery
  .extend({
    name: line().trim().max(100).optional(),
    sort_by: z.enum(PATIENT_SORT_FIELDS).default('name'),
    sort_direction: sortDirection.default('ASC'),
    /**
     * Keyset paging: the id of the last row of the previous page (`after`) or of the first row of the next
     * page (`before`) the client holds; `page` still says which page this is. Ignored for sort_by=dob.
     */
    after: idParam.optional(),
    before: idParam.optional(),
  })
  .extend(patientListFilters.shape);
export type PatientListQuery = z.input<typeof patientListQuery>;
export type PatientListQueryOut = z.output<typeof patientListQuery>;

export const patientListItem = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  mrn: z.string().nullable(),
  age: z.number().int().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  dob: z.string().nullable(),
  sex: z.enum(SEXES),
  status: patientStatus,
  active: z.boolean(),
  assigned_admin: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  follow_up: z.string().nullable(),
  created_at: z.string(),
});
export type PatientListItem = z.infer<typeof patientListItem>;
export const patientListResponse = paged(patientListItem);

const patientTags = ['patients'] as const;

/** Patient lists (01 §7 "Patient lists"). */
export const patientsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users',
    tags: patientTags,
    params: z.object({ programId: idParam }),
    query: patientListQuery,
    responses: { 200: patientListResponse },
  }),
  /** v2 of the list: the same rows, with the v2 filters (physicians, states and, once their areas land, pipelines, follow-ups, assessments). */
  listV2: defineRoute({
    method: 'GET',
    path: '/api/v2/programs/:programId/users',
    tags: patientTags,
    params: z.object({ programId: idParam }),
    query: patientListQuery,
    responses: { 200: patientListResponse },
  }),
  /** Enterprise scope: every program of the enterprise the user may see; program_id narrows it, 1 or blank means all. */
  enterpriseList: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/patients',
    tags: patientTags,
    params: z.object({ enterpriseId: idParam }),
    query: patientListQuery.extend({ program_id: z.union([z.literal(''), idParam]).optional() }),
    responses: { 200: patientListResponse },
  }),
};
