import { z } from 'zod';
import { BILLING_STATUSES } from './billing';
import { bodyId, line, paged, pageQuery, queryInt } from './common';
import { PATIENT_STATUSES } from './patients';
import { defineRoute } from './route';

/**
 * Bulk actions (02 §7 "Bulk actions"; ADR 042): one change applied to many patients of a program as a job
 * (`job_id`) that waits for an administrator's approval ('assigned'), then runs ('approved') or is dropped
 * ('cancelled'). Each patient's outcome is kept; failed ones can be run again.
 */
export const BULK_ACTION_MESSAGES = {
  created: 'Bulk Action Created',
  approved: 'Bulk Action Approved',
  cancelled: 'Bulk Action Cancelled',
  rerun: 'Bulk Action Run Again',
  notWaiting: 'Only a bulk action waiting for approval can be approved or cancelled.',
  notApproved: 'Only an approved bulk action can be run again.',
  badValue: 'Choose a value this action accepts.',
  cohortGone: 'The cohort no longer exists in this program.',
  staffGone: 'That staff member no longer works in this program.',
  patientGone: 'The patient is no longer in this program.',
} as const;

export const BULK_ACTIONS = ['patient_status', 'billing_status', 'add_to_cohort', 'assign_admin'] as const;
export const bulkActionType = z.enum(BULK_ACTIONS);
export type BulkActionType = z.infer<typeof bulkActionType>;

export const BULK_ACTION_STATES = ['assigned', 'approved', 'cancelled'] as const;
export const bulkActionState = z.enum(BULK_ACTION_STATES);
export type BulkActionState = z.infer<typeof bulkActionState>;

/** Most patients one job may name. */
export const BULK_ACTION_MAX_PATIENTS = 5000;

export const bulkActionJob = z.object({
  id: z.number().int(),
  job_id: z.string(),
  program_id: z.number().int(),
  action: bulkActionType,
  /** The status, cohort id or staff id the action sets (null: unassign). */
  value: z.union([z.string(), z.number(), z.null()]),
  note: z.string().nullable(),
  state: bulkActionState,
  created_by: z.object({ id: z.number().int(), name: z.string() }),
  decided_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  counts: z.object({
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
  }),
});
export type BulkActionJob = z.infer<typeof bulkActionJob>;

export const bulkActionPatient = z.object({
  id: z.number().int(),
  name: z.string(),
  outcome: z.enum(['pending', 'done', 'failed']),
  error: z.string().nullable(),
  processed_at: z.string().nullable(),
});

export const createBulkActionBody = z
  .object({
    program_id: bodyId,
    action: bulkActionType,
    value: z.union([line().max(40), bodyId, z.null()]),
    users_id: z.array(bodyId).min(1, 'Choose at least one patient.').max(BULK_ACTION_MAX_PATIENTS),
    note: line().trim().max(500).nullable().optional(),
  })
  .superRefine((b, ctx) => {
    const ok =
      b.action === 'patient_status'
        ? (PATIENT_STATUSES as readonly unknown[]).includes(b.value)
        : b.action === 'billing_status'
          ? (BILLING_STATUSES as readonly unknown[]).includes(b.value)
          : b.action === 'add_to_cohort'
            ? typeof b.value === 'number'
            : b.value === null || typeof b.value === 'number';
    if (!ok) ctx.addIssue({ code: 'custom', path: ['value'], message: BULK_ACTION_MESSAGES.badValue });
  });
export type CreateBulkActionBody = z.input<typeof createBulkActionBody>;

const jobBody = z.object({ job_id: z.string().uuid('The job id is invalid.') });
const jobParam = z.object({ jobId: z.string().uuid() });
const withJob = z.object({ message: z.string(), data: bulkActionJob });
const withPatients = withJob.extend({ patients: z.array(bulkActionPatient) });
const tags = ['bulk actions'] as const;

export const bulkActionsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/bulk_actions',
    summary: "A program's bulk actions, newest first; with job_id, that job and each patient's outcome",
    tags,
    query: pageQuery.extend({
      program_id: queryInt(1, Number.MAX_SAFE_INTEGER),
      state: bulkActionState.optional(),
      job_id: z.string().uuid('The job id is invalid.').optional(),
    }),
    responses: { 200: paged(bulkActionJob).extend({ patients: z.array(bulkActionPatient).optional() }) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/bulk_actions',
    summary: 'Propose a change for many patients; it waits for an administrator’s approval',
    tags,
    body: createBulkActionBody,
    responses: { 201: withJob },
  }),
  approve: defineRoute({
    method: 'PUT',
    path: '/api/v1/bulk_actions/approve',
    summary: 'Approve a waiting bulk action: it runs at once, patient by patient outcome kept',
    tags,
    body: jobBody,
    responses: { 200: withPatients },
  }),
  cancel: defineRoute({
    method: 'PUT',
    path: '/api/v1/bulk_actions/cancel',
    summary: 'Cancel a waiting bulk action (nothing is changed)',
    tags,
    body: jobBody,
    responses: { 200: withJob },
  }),
  rerunAll: defineRoute({
    method: 'PUT',
    path: '/api/v1/bulk_actions/:jobId/all-patients',
    summary: 'Run an approved bulk action again for all of its patients',
    tags,
    params: jobParam,
    responses: { 200: withPatients },
  }),
  rerunFailed: defineRoute({
    method: 'PUT',
    path: '/api/v1/bulk_actions/:jobId/failed-patients',
    summary: 'Run an approved bulk action again for the patients it failed on',
    tags,
    params: jobParam,
    responses: { 200: withPatients },
  }),
};
