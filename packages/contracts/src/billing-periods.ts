import { z } from 'zod';
import { calendarDay, idParam, line, paged, pageQuery } from './common';
import { defineRoute } from './route';

/**
 * Billing under the 2026 rules (issue 30, ADR 071/072, docs/billing.md): per patient, the current 30-day
 * device period from the supply start and the current calendar month's time, each code earned with its
 * evidence and what the next code still needs. Paged at the database: one page of patients is evaluated.
 */
export const BILLING_PERIOD_MESSAGES = {
  supplyStartSet: 'Supply start date saved.',
  reasonRequired: 'Give a reason for the change.',
  notMonitored: 'The patient has no monitoring device yet.',
} as const;

const nextTime = z.object({
  code: z.string(),
  seconds_needed: z.number().int(),
  needs_interactive: z.boolean(),
});

const timeTrack = z.object({
  seconds: z.number().int(),
  /** Minutes and seconds, truncated (1,199 s is "19:59"). */
  shown: z.string(),
  interactive: z.boolean(),
  codes: z.array(z.object({ code: z.string(), units: z.number().int() })),
  next: nextTime.nullable(),
  /** The time entries that made the seconds (billable ones of the month). */
  entries: z.array(
    z.object({
      id: z.number().int(),
      started_at: z.string(),
      seconds: z.number().int(),
      interactive: z.boolean(),
    }),
  ),
});
export type BillingTimeTrack = z.infer<typeof timeTrack>;

export const billingPeriodRow = z.object({
  patient: z.object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    mrn: z.string().nullable(),
  }),
  time_zone: z.string(),
  /** The 99453 date; null when the patient has no device and none was set. */
  supply_start: z.string().nullable(),
  supply_start_source: z.enum(['device', 'staff']).nullable(),
  period: z
    .object({ index: z.number().int(), start: z.string(), end: z.string(), days_left: z.number().int() })
    .nullable(),
  device: z
    .object({
      dates: z.array(z.string()),
      code: z.string().nullable(),
      setup_code: z.string().nullable(),
      next: z.object({ code: z.string(), days_needed: z.number().int() }).nullable(),
    })
    .nullable(),
  month: z.object({ start: z.string(), end: z.string() }),
  rpm_time: timeTrack,
  ccm_time: timeTrack,
  /**
   * 99091: RPM time recorded by the program's physicians within the 30-day period (the spec's rule: RPM time of
   * staff with the physician role); null without a period (no device, no data to interpret). ADR 080.
   */
  physician_time: timeTrack.nullable(),
});
export type BillingPeriodRow = z.infer<typeof billingPeriodRow>;

export const billingPeriodsQuery = pageQuery.extend({
  /** The day to evaluate (its period and month); today in each patient's zone when absent. */
  date: calendarDay().optional(),
});

/**
 * The codes the periods call evaluates, so the ones it can filter by (docs/billing.md "Filters"). The server
 * checks each against the year's rules table.
 */
export const BILLING_PERIOD_CODES = [
  '99453',
  '99445',
  '99454',
  '99470',
  '99457',
  '99458',
  '99490',
  '99439',
  '99091',
] as const;
export type BillingPeriodCode = (typeof BILLING_PERIOD_CODES)[number];
/**
 * `earning`: earns at least one code in the period or month; `not_earning`: earns nothing yet; `at_risk`: on the
 * at-risk worklist (will miss the next device-day or RPM-time code unless someone acts).
 */
export const BILLING_PERIOD_STATUSES = ['earning', 'not_earning', 'at_risk'] as const;
export type BillingPeriodStatus = (typeof BILLING_PERIOD_STATUSES)[number];

export const PERIODS_CURSOR_INVALID = 'The cursor is invalid: use a next_cursor of this call.';

export const billingPeriodsFilterQuery = billingPeriodsQuery.extend({
  /**
   * Keyset paging: the rows after this cursor (a `next_cursor` of an earlier answer), instead of `page`'s
   * OFFSET. `current_page` then echoes `page` as the client sent it (default 1): a cursor does not count.
   */
  cursor: line()
    .regex(/^[A-Za-z0-9_-]{1,1000}$/, PERIODS_CURSOR_INVALID)
    .optional(),
  code: z
    .enum(BILLING_PERIOD_CODES, { message: 'Use a code the periods call evaluates (e.g. 99454).' })
    .optional(),
  status: z.enum(BILLING_PERIOD_STATUSES, { message: 'Use earning, not_earning or at_risk.' }).optional(),
  /** Patients assigned to this staff member (a staff id of the program). */
  assignee_id: idParam.optional(),
});
export type BillingPeriodsFilterQuery = z.infer<typeof billingPeriodsFilterQuery>;

const tags = ['billing'] as const;

export const billingPeriodsContract = {
  periods: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/billing/periods',
    summary:
      'Per patient: the current 30-day device period and calendar month, codes earned with their evidence, what the next code needs',
    tags,
    params: z.object({ programId: idParam }),
    query: billingPeriodsFilterQuery,
    responses: {
      200: paged(billingPeriodRow).extend({
        /** The cursor of the next page (keyset, ADR 080); null when this page is not full. */
        next_cursor: z.string().nullable(),
      }),
    },
  }),
  setSupplyStart: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/users/:userId/billing/supply-start',
    summary: "Set a patient's device-supply start date (the 99453 date), with a reason; audited",
    tags,
    params: z.object({ programId: idParam, userId: idParam }),
    body: z.object({
      supply_start: calendarDay(),
      reason: line().trim().min(1, BILLING_PERIOD_MESSAGES.reasonRequired).max(200),
    }),
    responses: {
      200: z.object({
        message: z.literal(BILLING_PERIOD_MESSAGES.supplyStartSet),
        data: z.object({ patient_id: z.number().int(), supply_start: z.string(), reason: z.string() }),
      }),
    },
  }),
};

/** One reason a patient will miss a code this period or month unless someone acts (issue 30, at-risk list). */
export const atRiskRow = z.object({
  patient: z.object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    mrn: z.string().nullable(),
  }),
  kind: z.enum(['device_days', 'time']),
  /** The code at stake (99445/99454 for device days, 99470/99457 for RPM time). */
  code: z.string(),
  /** Device days so far, or seconds so far. */
  have: z.number().int(),
  /** Device days, or seconds, still needed. */
  needed: z.number().int(),
  /** Days left in the 30-day period or the calendar month, today included. */
  days_left: z.number().int(),
  /** Days left minus what is needed (device days; for time, days left): the smaller, the sooner. */
  slack: z.number().int(),
  period: z.object({ start: z.string(), end: z.string() }),
});
export type AtRiskRow = z.infer<typeof atRiskRow>;

/** The at-risk list's filter: one assignee's patients (a staff id of the program; ADR 080). */
export const billingAtRiskQuery = billingPeriodsQuery.extend({ assignee_id: idParam.optional() });
export type BillingAtRiskQuery = z.infer<typeof billingAtRiskQuery>;

export const billingAtRiskContract = {
  atRisk: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/billing/at-risk',
    summary:
      'Patients who will miss the next device-day or RPM-time code in the current period or month unless someone acts, soonest first',
    tags: ['billing'],
    params: z.object({ programId: idParam }),
    query: billingAtRiskQuery,
    responses: { 200: paged(atRiskRow) },
  }),
};

/** The export's filters: the evidence view's, without paging (every matching patient is written). */
export const billingPeriodsExportQuery = billingPeriodsFilterQuery.omit({
  page: true,
  per_page: true,
  cursor: true,
});

const exportRoute = (format: 'csv' | 'xlsx', contentType: string) =>
  defineRoute({
    method: 'GET',
    path: `/api/v1/programs/:programId/billing/periods.${format}`,
    summary: `The evidence view as ${format.toUpperCase()}: per patient and period, MRN, name, period, device days and code, RPM/CCM time as minutes:seconds, codes with units, provider, assigned staff, ICD-10`,
    tags: ['billing'],
    params: z.object({ programId: idParam }),
    query: billingPeriodsExportQuery,
    responses: { 200: null },
    file: { contentType },
  });

export const billingPeriodsExportContract = {
  csv: exportRoute('csv', 'text/csv; charset=utf-8'),
  xlsx: exportRoute('xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
};
