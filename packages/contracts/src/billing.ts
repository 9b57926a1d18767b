import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, queryInt, text } from './common';
import { defineRoute } from './route';

/**
 * Billing and time tracking (02 §7 "Billing"; ADR 041): staff record the time they spend on a patient
 * (a timer or an entry afterwards); the billing report turns device-data days and minutes into the US
 * remote-monitoring and care-management codes per patient.
 */
export const BILLING_MESSAGES = {
  recorded: 'Time Recorded',
  statusUpdated: 'Billing Status Updated',
  deleted: 'Time Entry Deleted',
  periodTooLong: 'Choose a period of at most 93 days.',
  periodOrder: 'The end date must be on or after the start date.',
  endBeforeStart: 'The end must be after the start.',
  tooLong: 'A time entry may be at most 8 hours.',
  inFuture: 'The time cannot be in the future.',
} as const;

/** The care-management programmes time is recorded for. */
export const BILLING_TYPES = ['rpm', 'ccm'] as const;
export const billingType = z.enum(BILLING_TYPES);
export type BillingType = z.infer<typeof billingType>;

export const BILLING_ACTIVITIES = [
  'data_review',
  'call',
  'video',
  'message',
  'care_plan',
  'coordination',
  'other',
] as const;
export const billingActivity = z.enum(BILLING_ACTIVITIES);

export const BILLING_STATUSES = ['billable', 'not_billable', 'on_hold'] as const;
export const billingStatus = z.enum(BILLING_STATUSES);
export type BillingStatus = z.infer<typeof billingStatus>;

/** Longest single entry (a forgotten timer is stopped at this length). */
export const MAX_ENTRY_SECONDS = 8 * 3600;
/** A running timer past this many minutes shows the warning flag (01 §4 "started flag and warning flag"). */
export const TIMER_WARNING_MINUTES = 60;
/** Longest report period, in days. */
export const BILLING_MAX_DAYS = 93;

/**
 * The codes and what earns them (CMS descriptors, simplified; ADR 041). Minutes are summed per patient over
 * the report period; device-data days are days (in the patient's zone) with at least one reading.
 */
export const BILLING_CODES = [
  {
    code: '99453',
    type: 'rpm',
    description: 'Remote monitoring set-up and patient education (once per episode)',
    rule: 'first reading ever in the period and 16 or more days with readings',
  },
  {
    code: '99454',
    type: 'rpm',
    description: 'Remote monitoring device supply with daily recordings',
    rule: '16 or more days with readings',
  },
  {
    code: '99457',
    type: 'rpm',
    description: 'Remote monitoring treatment management, first 20 minutes',
    rule: '20 minutes of RPM time including at least one interactive contact',
  },
  {
    code: '99458',
    type: 'rpm',
    description: 'Remote monitoring treatment management, each additional 20 minutes',
    rule: 'each further full 20 minutes after 99457, at most 2',
  },
  {
    code: '99091',
    type: 'rpm',
    description: 'Collection and interpretation of data by a physician, 30 minutes',
    rule: '30 minutes of RPM time recorded by physicians',
  },
  {
    code: '99490',
    type: 'ccm',
    description: 'Chronic care management, first 20 minutes of clinical staff time',
    rule: '20 minutes of CCM time',
  },
  {
    code: '99439',
    type: 'ccm',
    description: 'Chronic care management, each additional 20 minutes',
    rule: 'each further full 20 minutes after 99490, at most 2',
  },
] as const;
export type BillingCode = (typeof BILLING_CODES)[number]['code'];

/** Dates in paths are checked by the service (a bad one is a 422 naming it, not a 404). */
const period = z.object({ start: line().max(40), end: line().max(40) });

export const billingRow = z.object({
  patient: z.object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    mrn: z.string().nullable(),
  }),
  status: billingStatus,
  reading_days: z.number().int(),
  rpm_minutes: z.number(),
  rpm_interactive: z.boolean(),
  physician_minutes: z.number(),
  ccm_minutes: z.number(),
  codes: z.array(z.object({ code: z.string(), units: z.number().int() })),
  /** Billable status and at least one code. */
  billable: z.boolean(),
});
export type BillingRow = z.infer<typeof billingRow>;

export const billingReportQuery = pageQuery.extend({
  program_id: queryInt(1, Number.MAX_SAFE_INTEGER),
  search: line().trim().max(100).default(''),
  status: billingStatus.optional(),
  /** Only patients who earn at least one code. */
  only_billable: z.enum(['0', '1', 'true', 'false']).optional(),
});

export const billingSummary = z.object({
  patients: z.number().int(),
  billable_patients: z.number().int(),
  rpm_minutes: z.number(),
  ccm_minutes: z.number(),
  codes: z.record(z.string(), z.number().int()),
});

export const timeEntry = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  type: billingType,
  activity: billingActivity,
  interactive: z.boolean(),
  /** Counted towards the codes (false: recorded for the record only). */
  billable: z.boolean(),
  started_at: z.string(),
  ended_at: z.string(),
  seconds: z.number().int(),
  note: z.string().nullable(),
  source: z.enum(['timer', 'manual']),
  admin: z.object({ id: z.number().int(), name: z.string() }),
  created_at: z.string(),
});
export type TimeEntry = z.infer<typeof timeEntry>;

export const recordTimeBody = z
  .object({
    user_id: bodyId,
    program_id: bodyId,
    type: billingType.default('rpm'),
    activity: billingActivity.default('data_review'),
    interactive: z.boolean().default(false),
    billable: z.boolean().default(true),
    started_at: z
      .string()
      .datetime({ offset: true, message: 'Use a date and time like 2026-11-25T09:30:00Z.' }),
    ended_at: z
      .string()
      .datetime({ offset: true, message: 'Use a date and time like 2026-11-25T09:50:00Z.' }),
    note: text().trim().max(1000).nullable().optional(),
    source: z.enum(['timer', 'manual']).default('manual'),
  })
  .superRefine((b, ctx) => {
    const start = Date.parse(b.started_at);
    const end = Date.parse(b.ended_at);
    if (end <= start)
      ctx.addIssue({ code: 'custom', path: ['ended_at'], message: BILLING_MESSAGES.endBeforeStart });
    else if (end - start > MAX_ENTRY_SECONDS * 1000)
      ctx.addIssue({ code: 'custom', path: ['ended_at'], message: BILLING_MESSAGES.tooLong });
    if (end > Date.now() + 60_000)
      ctx.addIssue({ code: 'custom', path: ['ended_at'], message: BILLING_MESSAGES.inFuture });
  });
export type RecordTimeBody = z.input<typeof recordTimeBody>;

export const patientBillingQuery = pageQuery.extend({
  type: billingType.optional(),
  /** With '1' or 'true': minutes per staff member as well. */
  'admin-interactions': z.enum(['0', '1', 'true', 'false']).optional(),
});

export const patientBilling = paged(timeEntry).extend({
  status: billingStatus,
  period: z.object({ start: z.string(), end: z.string() }),
  summary: billingRow.omit({ patient: true, status: true, billable: true }),
  by_admin: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        minutes: z.number(),
        interactive_minutes: z.number(),
      }),
    )
    .optional(),
});

const tags = ['billing'] as const;
const patientParam = z.object({ id: idParam });

export const billingContract = {
  report: defineRoute({
    method: 'GET',
    path: '/api/v1/billing/:start/:end',
    summary: "A program's billing for a period: per patient, device-data days, minutes and codes earned",
    tags,
    params: period,
    query: billingReportQuery,
    responses: { 200: paged(billingRow).extend({ summary: billingSummary }) },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/api/v1/billing/download/:start/:end',
    summary:
      'The billing report as a spreadsheet (billing_YYYY_MM_DD_HH_mm_report.xlsx, New York time like the patient export)',
    tags,
    params: period,
    query: billingReportQuery.omit({ page: true, per_page: true }),
    responses: { 200: null },
    file: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  }),
  /** The current calendar month of the program (the /billings screen's first view). */
  programBillings: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/billings',
    summary: "The program's billing for the current calendar month",
    tags,
    params: z.object({ programId: idParam }),
    query: billingReportQuery.omit({ program_id: true }),
    responses: {
      200: paged(billingRow).extend({
        summary: billingSummary,
        period: z.object({ start: z.string(), end: z.string() }),
      }),
    },
  }),
  patient: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/billing',
    summary: "A patient's recorded time this calendar month, with the month's figures",
    tags,
    params: patientParam,
    query: patientBillingQuery,
    responses: { 200: patientBilling },
  }),
  patientPeriod: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/billing/:start/:end',
    summary: "A patient's recorded time in a period, with the period's figures",
    tags,
    params: patientParam.extend(period.shape),
    query: patientBillingQuery,
    responses: { 200: patientBilling },
  }),
  record: defineRoute({
    method: 'POST',
    path: '/api/v1/billing',
    summary: 'Record time spent on a patient (from the timer or afterwards)',
    tags,
    body: recordTimeBody,
    responses: { 201: z.object({ message: z.literal(BILLING_MESSAGES.recorded), data: timeEntry }) },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/billing/:entryId',
    summary: 'Delete a time entry (its author, or an administrator of the program)',
    tags,
    params: z.object({ entryId: idParam }),
    responses: { 200: z.object({ message: z.literal(BILLING_MESSAGES.deleted) }) },
  }),
  setStatus: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:userId/billing/status',
    summary: "Set a patient's billing status",
    tags,
    params: z.object({ programId: idParam, userId: idParam }),
    body: z.object({ status: billingStatus, reason: line().trim().max(200).nullable().optional() }),
    responses: {
      200: z.object({
        message: z.literal(BILLING_MESSAGES.statusUpdated),
        data: z.object({
          patient_id: z.number().int(),
          status: billingStatus,
          reason: z.string().nullable(),
        }),
      }),
    },
  }),
  statuses: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/billing/status',
    summary: 'The billing statuses with how many of the program’s patients hold each',
    tags,
    params: z.object({ programId: idParam }),
    responses: {
      200: z.object({ data: z.array(z.object({ status: billingStatus, patients: z.number().int() })) }),
    },
  }),
  codes: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/billing/codes',
    summary: 'The billing codes and what earns them',
    tags,
    params: z.object({ programId: idParam }),
    responses: {
      200: z.object({
        data: z.array(
          z.object({ code: z.string(), type: billingType, description: z.string(), rule: z.string() }),
        ),
      }),
    },
  }),
};
