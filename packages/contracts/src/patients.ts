import { z } from 'zod';
import { idParam, line, paged, pageQuery, sortDirection } from './common';
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

export const patientListQuery = pageQuery.extend({
  name: line().trim().max(100).optional(),
  sort_by: z.enum(PATIENT_SORT_FIELDS).default('name'),
  sort_direction: sortDirection.default('ASC'),
});
export type PatientListQuery = z.input<typeof patientListQuery>;
export type PatientListQueryOut = z.output<typeof patientListQuery>;

export const patientListItem = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
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
