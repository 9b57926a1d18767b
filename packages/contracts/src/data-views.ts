import { z } from 'zod';
import { idParam, line, paged, pageQuery } from './common';
import { defineRoute } from './route';

/**
 * A calendar date in a path (`2026-11-24`), read in the patient's time zone. Checked by the service, not
 * here: a path that does not parse answers 404, and a mistyped date is the client's input (422).
 */
export const calendarDateParam = line().max(32);
export const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Longest range one data-view call covers. */
export const MAX_VIEW_DAYS = 366;
/** Range of the calls that take none (`users/{id}/adherence`, the graph). */
export const DEFAULT_VIEW_DAYS = 30;

export const DATA_VIEW_MESSAGES = {
  endBeforeStart: 'The end date must not be before the start date.',
  rangeTooLong: `Ask for at most ${MAX_VIEW_DAYS} days at a time.`,
  invalidDate: 'Use an existing date as YYYY-MM-DD.',
  unknownType: 'Unknown measurement type.',
} as const;

export const DOSE_STATE_VALUES = ['on_time', 'late', 'missed', 'skipped', 'partial', 'pending'] as const;

export const MEASUREMENT_TYPE_VALUES = [
  'systolic',
  'diastolic',
  'pulse',
  'oxygen',
  'weight',
  'glucose',
  'temperature',
  'steps',
  'sleep',
  'active_minutes',
] as const;
export type MeasurementTypeValue = (typeof MEASUREMENT_TYPE_VALUES)[number];
/** 01 §3 / 02 §9: the types shown when none is chosen. */
export const DEFAULT_MEASUREMENT_TYPES: MeasurementTypeValue[] = ['systolic', 'oxygen'];

const totals = {
  due: z.number().int(),
  on_time: z.number().int(),
  late: z.number().int(),
  missed: z.number().int(),
  skipped: z.number().int(),
  partial: z.number().int(),
  pending: z.number().int(),
  adherence: z.number().nullable(),
  compliance: z.number().nullable(),
};

export const adherenceTotals = z.object(totals);
export type AdherenceTotalsView = z.infer<typeof adherenceTotals>;

export const classifiedDose = z.object({
  regimen_id: z.number().int(),
  date: z.string(),
  time: z.string(),
  scheduled_at: z.string(),
  window_open: z.string(),
  window_close: z.string(),
  state: z.enum(DOSE_STATE_VALUES),
  taken_at: z.string().nullable(),
  event_ids: z.array(z.number().int()),
});
export type ClassifiedDoseView = z.infer<typeof classifiedDose>;

export const doseEventView = z.object({
  id: z.number().int(),
  regimen_id: z.number().int(),
  at: z.string(),
  kind: z.enum(['taken', 'skipped']),
  source: z.string(),
});

export const adherenceReport = z.object({
  patient_id: z.number().int(),
  time_zone: z.string(),
  start: z.string(),
  end: z.string(),
  on_time_minutes: z.number().int(),
  generated_at: z.string(),
  total: adherenceTotals,
  regimens: z.array(adherenceTotals.extend({ regimen_id: z.number().int(), name: z.string() })),
  days: z.array(adherenceTotals.extend({ date: z.string() })),
  doses: z.array(classifiedDose),
  extra: z.array(doseEventView),
  as_needed: z.array(doseEventView),
});
export type AdherenceReport = z.infer<typeof adherenceReport>;

export const adherenceGraph = z.object({
  patient_id: z.number().int(),
  start: z.string(),
  end: z.string(),
  total: adherenceTotals,
  days: z.array(adherenceTotals.extend({ date: z.string() })),
});

export const measurementView = z.object({
  id: z.number().int(),
  type: z.enum(MEASUREMENT_TYPE_VALUES),
  value: z.number(),
  unit: z.string(),
  measured_at: z.string(),
  device_id: z.number().int().nullable(),
});
export type MeasurementView = z.infer<typeof measurementView>;

/**
 * Most points one chart series holds (issue 27): a type with more readings in the range is answered per
 * bucket of a round width instead, so a month of a reading a minute is a month, never its first 10,000.
 */
export const CHART_MAX_POINTS = 1000;
/** Bucket widths a downsampled series may use, in seconds: 1, 5, 15, 30 min, 1, 3, 6, 12 h, 1 day. */
export const CHART_BUCKET_SECONDS = [60, 300, 900, 1800, 3600, 10800, 21600, 43200, 86400] as const;

/**
 * A point of a grouped series. A raw reading has `value` and `measured_at` only. A bucket of a downsampled
 * series has `value` = the mean, `measured_at` = the bucket's start, and its `min`, `max` and `count`.
 */
export const groupedPoint = z.object({
  value: z.number(),
  measured_at: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
  count: z.number().int().optional(),
});
export type GroupedPoint = z.infer<typeof groupedPoint>;

export const groupedSeriesInfo = z.object({
  /** Readings of the type in the range, whether they are answered one by one or per bucket. */
  readings: z.number().int(),
  downsampled: z.boolean(),
  /** Width of a bucket when downsampled; null for raw readings. */
  bucket_seconds: z.number().int().nullable(),
});

export const groupedMeasurements = z.object({
  data: z.record(z.string(), z.array(groupedPoint)),
  units: z.record(z.string(), z.string()),
  /** Per type asked: how it is answered (added for issue 27; older clients may ignore it). */
  series: z.record(z.string(), groupedSeriesInfo),
});
export type GroupedMeasurements = z.infer<typeof groupedMeasurements>;

/** The smallest round bucket width that keeps a range within `CHART_MAX_POINTS` buckets. */
export function chartBucketSeconds(rangeSeconds: number): number {
  for (const w of CHART_BUCKET_SECONDS) if (Math.ceil(rangeSeconds / w) <= CHART_MAX_POINTS) return w;
  return 86_400;
}

const typeList = line()
  .transform((v, ctx) => {
    const list = [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    for (const t of list)
      if (!(MEASUREMENT_TYPE_VALUES as readonly string[]).includes(t)) {
        ctx.addIssue({ code: 'custom', message: `${DATA_VIEW_MESSAGES.unknownType} (${t})` });
        return z.NEVER;
      }
    return list as MeasurementTypeValue[];
  })
  .optional();

const tags = ['data views'] as const;
const patient = { programId: idParam, id: idParam };
const range = { start: calendarDateParam, end: calendarDateParam };

const adherenceRoute = <P extends z.ZodObject>(path: string, summary: string, params: P) =>
  defineRoute({ method: 'GET', path, summary, tags, params, responses: { 200: adherenceReport } });

/** Data views (01 §7 "Data views"; 02 §7 measurements and adherence). Dates are the patient's calendar. */
export const dataViewsContract = {
  adherenceFrom: adherenceRoute(
    '/api/v1/programs/:programId/users/:id/adherence/:start',
    "Dose-by-dose adherence from a date to today (the patient's zone)",
    z.object({ ...patient, start: calendarDateParam }),
  ),
  adherenceRange: adherenceRoute(
    '/api/v1/programs/:programId/users/:id/adherence/:start/:end',
    'Dose-by-dose adherence over a date range (inclusive)',
    z.object({ ...patient, ...range }),
  ),
  complianceFrom: adherenceRoute(
    '/api/v1/programs/:programId/users/:id/compliance/:start',
    'Compliance (doses on time) from a date to today; the same dose-level report as adherence',
    z.object({ ...patient, start: calendarDateParam }),
  ),
  complianceRange: adherenceRoute(
    '/api/v1/programs/:programId/users/:id/compliance/:start/:end',
    'Compliance (doses on time) over a date range',
    z.object({ ...patient, ...range }),
  ),
  userAdherence: adherenceRoute(
    '/api/v1/users/:id/adherence',
    `Adherence of the last ${DEFAULT_VIEW_DAYS} days`,
    z.object({ id: idParam }),
  ),
  userAdherenceRange: adherenceRoute(
    '/api/v1/users/:id/adherence/:start/:end',
    'Adherence over a date range',
    z.object({ id: idParam, ...range }),
  ),
  userAdherenceGraph: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/adherence/graph',
    summary: `Daily adherence and compliance of the last ${DEFAULT_VIEW_DAYS} days (the chart's series)`,
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: adherenceGraph },
  }),
  measurementsGrouped: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/measurements/grouped/:start/:end',
    summary: 'Measurements of a range grouped by type (default systolic and oxygen)',
    tags,
    params: z.object({ ...patient, ...range }),
    query: z.object({ types: typeList }),
    responses: {
      200: groupedMeasurements,
    },
  }),
  measurementsByType: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/measurements/by-type/:type',
    summary: 'Readings of one type, newest first, paged',
    tags,
    params: z.object({ id: idParam, type: z.enum(MEASUREMENT_TYPE_VALUES) }),
    query: pageQuery,
    responses: { 200: paged(measurementView) },
  }),
  patientAll: defineRoute({
    method: 'GET',
    path: '/api/v1/user/patients/:id/all',
    summary:
      "The patient's newest 1,000 readings of every type, newest first, the count of all, and the devices that took them",
    tags,
    params: z.object({ id: idParam }),
    responses: {
      200: z.object({
        patient_id: z.number().int(),
        /** Readings the patient has; `data` holds the newest 1,000 of them. */
        total: z.number().int(),
        data: z.array(measurementView),
        devices: z.array(z.object({ id: z.number().int(), serial: z.string(), kind: z.string() })),
      }),
    },
  }),
  measurementsRange: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/measurements/:start/:end',
    summary: 'Readings of a range, by types or by the kind of device that took them',
    tags,
    params: z.object({ id: idParam, ...range }),
    query: z.object({
      types: typeList,
      device_type: z.enum(['bp_cuff', 'pulse_oximeter', 'scale', 'glucometer', 'wearable']).optional(),
    }),
    responses: {
      200: z.object({
        data: z.array(measurementView),
        /** Readings the range holds; `data` holds the newest 20,000 of them, oldest first. */
        total: z.number().int(),
      }),
    },
  }),
};

export const usageView = z.object({
  id: z.number().int(),
  regimen_id: z.number().int(),
  regimen_name: z.string(),
  pod_id: z.number().int().nullable(),
  taken_at: z.string(),
  servings: z.number().int(),
  kind: z.enum(['taken', 'skipped']),
  source: z.string(),
});

const dailyCount = z.object({ date: z.string(), doses: z.number().int(), servings: z.number().int() });

export const usagesReport = z.object({
  start: z.string(),
  end: z.string(),
  time_zone: z.string(),
  data: z.array(usageView),
  /** Doses the range holds; `data` lists the newest 5,000 of them, oldest first. `daily` counts all. */
  data_total: z.number().int(),
  daily: z.array(dailyCount),
  pods: z.array(
    z.object({
      id: z.number().int(),
      barcode: z.string(),
      regimen_id: z.number().int(),
      original_servings: z.number().int(),
      servings_remaining: z.number().int(),
    }),
  ),
  /** Pods the patient has; `pods` lists the first 500 by regimen and number. */
  pods_total: z.number().int(),
});

export const inhalerReport = z.object({
  start: z.string(),
  end: z.string(),
  time_zone: z.string(),
  data: z.array(usageView.extend({ use: z.enum(['controller', 'rescue']) })),
  /** Inhaler doses the range holds; `data` lists the newest 5,000, oldest first. `daily` counts all. */
  data_total: z.number().int(),
  daily: z.array(z.object({ date: z.string(), controller: z.number().int(), rescue: z.number().int() })),
});

export const activityReport = z.object({
  start: z.string(),
  end: z.string(),
  time_zone: z.string(),
  data: z.array(z.object({ date: z.string(), steps: z.number(), active_minutes: z.number() })),
  totals: z.object({ steps: z.number(), active_minutes: z.number(), days_measured: z.number().int() }),
});

export const sleepReport = z.object({
  start: z.string(),
  end: z.string(),
  time_zone: z.string(),
  data: z.array(z.object({ date: z.string(), minutes: z.number() })),
  average_minutes: z.number().nullable(),
});

const patientUser = { programId: idParam, userId: idParam };

/** Usage, inhaler, activity and sleep views (01 §7 "Data views"): daily figures in SQL, in the patient's zone. */
export const usageViewsContract = {
  usages: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/usages/:start/:end',
    summary: 'Doses recorded in a range (devices and people), per day, and the servings left in each pod',
    tags,
    params: z.object({ ...patient, ...range }),
    responses: { 200: usagesReport },
  }),
  inhalerUsages: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:userId/usages/inhaler/:start/:end',
    summary: 'Inhaler use in a range: controller (scheduled) and rescue (as needed) per day',
    tags,
    params: z.object({ ...patientUser, ...range }),
    responses: { 200: inhalerReport },
  }),
  activitiesFrom: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/activities/:start',
    summary: 'Steps and active minutes per day from a date to today',
    tags,
    params: z.object({ ...patient, start: calendarDateParam }),
    responses: { 200: activityReport },
  }),
  activitiesRange: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/activities/:start/:end',
    summary: 'Steps and active minutes per day in a range',
    tags,
    params: z.object({ ...patient, ...range }),
    responses: { 200: activityReport },
  }),
  sleepFrom: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/sleep/:start',
    summary: 'Minutes of sleep per night from a date to today',
    tags,
    params: z.object({ ...patient, start: calendarDateParam }),
    responses: { 200: sleepReport },
  }),
  sleepRange: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/sleep/:start/:end',
    summary: 'Minutes of sleep per night in a range',
    tags,
    params: z.object({ ...patient, ...range }),
    responses: { 200: sleepReport },
  }),
};

/** Days the worklist's adherence column covers. */
export const SUMMARY_DAYS = 7;

export const patientSummary = z.object({
  patient_id: z.number().int(),
  adherence: z.number().nullable(),
  compliance: z.number().nullable(),
  due: z.number().int(),
  missed: z.number().int(),
  last_reading: z
    .object({ type: z.string(), value: z.number(), unit: z.string(), measured_at: z.string() })
    .nullable(),
  /** Alerts not yet resolved (open, acknowledged or escalated), and whether one of them is escalated. */
  open_alerts: z.number().int(),
  escalated: z.boolean(),
});
export type PatientSummary = z.infer<typeof patientSummary>;

/** What the worklist shows beside each patient of a page (issue 7): adherence of the last days, last reading, open alerts. */
export const summariesContract = {
  summaries: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/summaries',
    summary: `Adherence of the last ${SUMMARY_DAYS} days, the last reading and the open alerts of up to 100 patients of the program`,
    tags,
    params: z.object({ programId: idParam }),
    query: z.object({
      ids: line().regex(
        /^[1-9]\d{0,15}(,[1-9]\d{0,15}){0,99}$/,
        'Give up to 100 patient ids, comma-separated.',
      ),
    }),
    responses: { 200: z.object({ data: z.array(patientSummary) }) },
  }),
};
