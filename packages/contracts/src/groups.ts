import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, text } from './common';
import { patientStatus } from './patients';
import { defineRoute } from './route';

export const GROUP_MESSAGES = {
  created: 'New group has successfully been created!',
  /** As the spec spells it (01 §8). */
  updated: '! cohort is updated',
  nameTaken: 'A cohort with this name already exists in this program.',
} as const;

const name = line().trim().min(1, 'Enter a name for the cohort.').max(120);
const description = text()
  .trim()
  .max(2000)
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();
/** A saved patient-list filter (query string) the cohort was built from, kept so it can be re-run. */
const queryTo = line()
  .trim()
  .max(2000)
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();

export const createGroupBody = z.object({
  name,
  description,
  queryTo,
  users: z.array(bodyId).max(5000).optional(),
});
export const updateGroupBody = z.object({ name: name.optional(), description, queryTo });

export const groupSummary = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  queryTo: z.string().nullable(),
  users_count: z.number().int(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GroupSummary = z.infer<typeof groupSummary>;

export const groupMember = z.object({
  id: z.number().int(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  mrn: z.string().nullable(),
  dob: z.string().nullable(),
  status: patientStatus,
  added_at: z.string(),
});
export type GroupMember = z.infer<typeof groupMember>;
export const groupDetail = groupSummary.extend({ users: z.array(groupMember) });
export type GroupDetail = z.infer<typeof groupDetail>;

export const groupListQuery = pageQuery.extend({
  /** Cohorts whose name contains this text. */
  name: line().trim().max(120).optional(),
  /** Cohorts whose name or description contains this text. */
  keyword: line().trim().max(120).optional(),
});

const tags = ['cohorts'] as const;
const programGroup = z.object({ programId: idParam, id: idParam });
const programGroupUser = z.object({ programId: idParam, groupId: idParam, userId: idParam });

/** Cohorts (groups) of patients (01 §7 "Cohorts", 02 §7 "Groups"). */
export const groupsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/groups',
    summary: 'Cohorts of the program, by name, with their patient counts',
    tags,
    params: z.object({ programId: idParam }),
    query: groupListQuery,
    responses: { 200: paged(groupSummary) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/groups',
    tags,
    params: z.object({ programId: idParam }),
    body: createGroupBody,
    responses: { 201: groupDetail },
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/groups/:id',
    tags,
    params: programGroup,
    body: updateGroupBody,
    responses: { 200: groupDetail },
  }),
  addUser: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/groups/:groupId/users/:userId',
    tags,
    params: programGroupUser,
    responses: { 200: groupSummary },
  }),
  removeUser: defineRoute({
    method: 'DELETE',
    path: '/api/v1/programs/:programId/groups/:groupId/users/:userId',
    tags,
    params: programGroupUser,
    responses: { 200: groupSummary },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/groups/:id',
    summary: 'A cohort with its patients (the view is audited)',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: groupDetail },
  }),
  patientGroups: defineRoute({
    method: 'GET',
    path: '/api/v1/groups/patient-groups',
    summary: 'The cohorts a patient belongs to',
    tags,
    query: z.object({ patient_id: idParam }),
    responses: { 200: z.object({ data: z.array(groupSummary) }) },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/api/v1/groups/:id',
    summary: 'Delete a cohort (its patients stay)',
    tags,
    params: z.object({ id: idParam }),
    responses: { 204: null },
  }),
  addUsers: defineRoute({
    method: 'POST',
    path: '/api/v1/groups/:id/users',
    summary: 'Add patients of the cohort program (all or none)',
    tags,
    params: z.object({ id: idParam }),
    body: z.object({ users: z.array(bodyId).min(1).max(5000) }),
    responses: { 200: groupSummary },
  }),
};
