import { z } from 'zod';
import { bodyId, idParam, line, paged, queryInt } from './common';
import { defineRoute } from './route';
import { STAFF_ROLES } from './tenancy';

/** 02 §7 "Alerts and analytics": every alert type the console lists, in the spec's order and spelling. */
export const ALERT_TYPES = [
  'missed_doses',
  'extra_doses_alerts',
  'missed_inhaler_doses',
  'manual_doses_notications',
  'text_messages',
  'temp_text_messages',
  'low_adherence',
  'low_adherence_inhaler',
  'disconnected_dispensers',
  'turned_off_notifications_alerts',
  'schedule_changed_alerts',
  'pending_assessments_alerts',
  'low_medication_pods',
  'completed_surveys_alerts',
  'out_range_blood_pressure_alerts',
  'low_blood_pressure_alerts',
  'out_range_pulse_ox_alerts',
  'missed_physiological_readings_alerts',
  'low_adherence_average',
  'low_adherence_device',
  'consented_users_alerts',
  'caregivers_connected',
  'follow_ups_pending',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_GROUPS = ['vitals', 'adherence', 'devices', 'engagement'] as const;
export type AlertGroup = (typeof ALERT_GROUPS)[number];

/**
 * Where each type belongs on the board, and whether the server evaluates it yet. Types whose data comes
 * with a later area (messaging, surveys, follow-ups, consent) answer empty lists until that area lands
 * (docs/alerts.md).
 */
export const ALERT_TYPE_INFO: Record<AlertType, { group: AlertGroup; evaluated: boolean }> = {
  missed_doses: { group: 'adherence', evaluated: true },
  extra_doses_alerts: { group: 'adherence', evaluated: true },
  missed_inhaler_doses: { group: 'adherence', evaluated: true },
  manual_doses_notications: { group: 'adherence', evaluated: true },
  text_messages: { group: 'engagement', evaluated: true },
  temp_text_messages: { group: 'engagement', evaluated: true },
  low_adherence: { group: 'adherence', evaluated: true },
  low_adherence_inhaler: { group: 'adherence', evaluated: true },
  disconnected_dispensers: { group: 'devices', evaluated: true },
  turned_off_notifications_alerts: { group: 'engagement', evaluated: true },
  schedule_changed_alerts: { group: 'devices', evaluated: true },
  pending_assessments_alerts: { group: 'engagement', evaluated: true },
  low_medication_pods: { group: 'devices', evaluated: true },
  completed_surveys_alerts: { group: 'engagement', evaluated: true },
  out_range_blood_pressure_alerts: { group: 'vitals', evaluated: true },
  low_blood_pressure_alerts: { group: 'vitals', evaluated: true },
  out_range_pulse_ox_alerts: { group: 'vitals', evaluated: true },
  missed_physiological_readings_alerts: { group: 'vitals', evaluated: true },
  low_adherence_average: { group: 'adherence', evaluated: true },
  low_adherence_device: { group: 'adherence', evaluated: true },
  consented_users_alerts: { group: 'engagement', evaluated: true },
  caregivers_connected: { group: 'engagement', evaluated: true },
  follow_ups_pending: { group: 'engagement', evaluated: true },
};

export const ALERT_STATUSES = ['open', 'acknowledged', 'escalated', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** How an alert ended: its condition cleared by itself, or a person cleared it. */
export const ALERT_RESOLUTIONS = ['auto', 'cleared'] as const;
export const ALERT_ACTIONS = [
  'opened',
  'acknowledged',
  'snoozed',
  'assigned',
  'hidden',
  'escalated',
  'cleared',
  'resolved',
] as const;

/** Snoozes last from 15 minutes to 30 days. */
export const SNOOZE_MINUTES = { min: 15, max: 30 * 24 * 60 } as const;
export const ALERT_PAGE_SIZE = 25;
export const MAX_ALERT_IDS = 500;

export const ALERT_MESSAGES = {
  backendError: 'Backend error!',
  cleared: 'Alerts cleared',
  acknowledged: 'Alerts acknowledged',
  snoozed: 'Alerts snoozed',
  assigned: 'Alerts assigned',
  hidden: 'Alerts hidden',
  notFound: 'Alert not found',
  unknownType: 'Unknown alert type.',
  badPeriod: 'Use day, week, month, all or a number of days from 1 to 366.',
  badCohort: 'Use all or a cohort id.',
  settingsSaved: 'Alert settings saved',
  unknownAdmin: 'This staff member does not work in the program.',
  resolved: 'Alert resolved',
  escalationCompleted: 'Escalations completed',
  unknownFact: 'Unknown fact.',
  unknownZone: 'Unknown time zone.',
} as const;

const reading = z.object({
  type: z.string(),
  value: z.number(),
  unit: z.string().optional(),
  at: z.string(),
});
const check = z.object({
  measure: z.string(),
  average: z.number(),
  count: z.number().int(),
  comparison: z.enum(['>=', '<=', '<', '>']),
  threshold: z.number(),
  breached: z.boolean(),
});

/** Why an alert fired: a sentence, and the evidence it rests on (what applies to its type). */
export const alertReason = z.object({
  summary: z.string(),
  checks: z.array(check).optional(),
  readings: z.array(reading).optional(),
  /** The settings level (default, program, cohort, patient) each threshold used came from. */
  settings_source: z.record(z.string(), z.string()).optional(),
  device: z
    .object({ id: z.number().int(), serial: z.string(), last_seen_at: z.string().nullable() })
    .optional(),
  regimen: z.object({ id: z.number().int(), name: z.string() }).optional(),
  doses: z
    .array(z.object({ expected_at: z.string().nullable(), taken_at: z.string().nullable() }))
    .optional(),
  adherence: z.number().optional(),
  /** Each medication's own adherence (low_adherence_average). */
  medications: z
    .array(z.object({ regimen: z.object({ id: z.number().int(), name: z.string() }), adherence: z.number() }))
    .optional(),
  pods: z.array(z.object({ barcode: z.string(), servings_remaining: z.number().int() })).optional(),
  last_reading_at: z.string().nullable().optional(),
  /** The rule that raised the alert, in the version that did. */
  rule: z.object({ id: z.number().int(), name: z.string(), version: z.number().int() }).optional(),
});
export type AlertReason = z.infer<typeof alertReason>;

const person = z.object({ id: z.number().int(), name: z.string() });

export const alert = z.object({
  id: z.number().int(),
  type: z.enum(ALERT_TYPES),
  status: z.enum(ALERT_STATUSES),
  program_id: z.number().int(),
  patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string().nullable() }),
  /** How many times the condition was seen while this alert was open (one open alert per condition). */
  occurrences: z.number().int(),
  first_at: z.string(),
  last_at: z.string(),
  summary: z.string(),
  assigned_admin: person.nullable(),
  acknowledged_by: person.nullable(),
  acknowledged_at: z.string().nullable(),
  escalated_at: z.string().nullable(),
  escalated_to_role: z.string().nullable(),
  resolved_at: z.string().nullable(),
  resolution: z.enum(ALERT_RESOLUTIONS).nullable(),
  snoozed_until: z.string().nullable(),
  hidden: z.boolean(),
});
export type Alert = z.infer<typeof alert>;

export const alertDetail = alert.extend({
  reason: alertReason,
  history: z.array(
    z.object({
      at: z.string(),
      action: z.enum(ALERT_ACTIONS),
      admin: person.nullable(),
      detail: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type AlertDetail = z.infer<typeof alertDetail>;

export const alertTile = z.object({
  type: z.enum(ALERT_TYPES),
  group: z.enum(ALERT_GROUPS),
  evaluated: z.boolean(),
  /** Open alerts (open, acknowledged or escalated; not snoozed, not hidden). */
  count: z.number().int(),
  patients: z.number().int(),
  unacknowledged: z.number().int(),
  snoozed: z.number().int(),
});
export type AlertTile = z.infer<typeof alertTile>;

/** The scope of the calls that name no program: one program, an enterprise's programs, or all one sees. */
const scopeQuery = { program_id: idParam.optional(), enterprise_id: idParam.optional() };
const ids = z
  .array(bodyId)
  .min(1, 'Choose at least one alert.')
  .max(MAX_ALERT_IDS, `At most ${MAX_ALERT_IDS} alerts at once.`);

export const alertSettingsValues = z
  .object({
    systolic_high: z.number().min(60).max(300),
    diastolic_high: z.number().min(30).max(200),
    systolic_low: z.number().min(40).max(200),
    diastolic_low: z.number().min(20).max(150),
    oxygen_low: z.number().min(50).max(100),
    pulse_low: z.number().min(20).max(200),
    pulse_high: z.number().min(30).max(250),
    window_minutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60),
    reading_gap_hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30),
    offline_minutes: z
      .number()
      .int()
      .min(5)
      .max(7 * 24 * 60),
    heartbeat_minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
    low_servings: z.number().int().min(0).max(100),
    low_adherence: z.number().min(1).max(100),
    adherence_days: z.number().int().min(1).max(90),
    escalate_after_minutes: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 60),
    escalate_to_role: z.enum(STAFF_ROLES),
  })
  .partial()
  .strict();
export type AlertSettingsValues = z.infer<typeof alertSettingsValues>;

const settingsLevel = z.object({
  cohort_id: idParam.optional(),
  patient_id: idParam.optional(),
});

const tags = ['alerts'] as const;
const okCount = z.object({ message: z.string(), count: z.number().int() });

/** 02 §7 "Alerts and analytics" (the alert board) and the lifecycle calls the board needs (docs/alerts.md). */
export const alertsContract = {
  groups: defineRoute({
    method: 'GET',
    path: '/api/v1/alerts/groups',
    summary: 'One tile per alert type: open alerts, patients, unacknowledged and snoozed counts',
    tags,
    query: z.object(scopeQuery),
    responses: { 200: z.object({ data: z.array(alertTile), total: z.number().int() }) },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/alerts/:type/:period/:cohort',
    summary:
      'Alerts of one type (or all) seen in the period (day, week, month, all or days), of a cohort or all',
    tags,
    params: z.object({ type: line().max(64), period: line().max(8), cohort: line().max(20) }),
    query: z.object({
      ...scopeQuery,
      page: queryInt(1, 1_000_000).default(1),
      pagination: queryInt(1, 100).default(ALERT_PAGE_SIZE),
      query: line().trim().max(100).optional(),
      status: z.enum(['open', 'acknowledged', 'escalated', 'resolved', 'active', 'all']).default('active'),
      assigned: z.enum(['me', 'nobody']).optional(),
      include_hidden: z.enum(['0', '1']).default('0'),
    }),
    responses: { 200: paged(alert) },
  }),
  detail: defineRoute({
    method: 'GET',
    path: '/api/v1/alerts/:id',
    summary: 'One alert with why it fired and every step of its lifecycle',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: z.object({ data: alertDetail }) },
  }),
  deleteAlerts: defineRoute({
    method: 'POST',
    path: '/api/v1/alerts/delete_alerts',
    summary: 'Clear alerts (they are resolved by the caller and leave the board; history is kept)',
    tags,
    body: z.object({ ids }),
    responses: { 200: okCount },
  }),
  acknowledge: defineRoute({
    method: 'POST',
    path: '/api/v1/alerts/acknowledge',
    summary: 'Acknowledge alerts (stops their escalation timer)',
    tags,
    body: z.object({ ids }),
    responses: { 200: okCount },
  }),
  snooze: defineRoute({
    method: 'POST',
    path: '/api/v1/alerts/snooze',
    summary: "Silence the alerts' conditions for a while (new occurrences are counted, not shown)",
    tags,
    body: z.object({ ids, minutes: z.number().int().min(SNOOZE_MINUTES.min).max(SNOOZE_MINUTES.max) }),
    responses: { 200: okCount.extend({ until: z.string() }) },
  }),
  assign: defineRoute({
    method: 'POST',
    path: '/api/v1/alerts/assign',
    summary: 'Assign alerts to a staff member of their program (null: nobody)',
    tags,
    body: z.object({ ids, admin_id: bodyId.nullable() }),
    responses: { 200: okCount },
  }),
  stepResolved: defineRoute({
    method: 'GET',
    path: '/api/v1/alerts/step_resolved',
    summary: 'Resolved alerts, newest first: who or what resolved each and when',
    tags,
    query: z.object({
      ...scopeQuery,
      page: queryInt(1, 1_000_000).default(1),
      per_page: queryInt(1, 100).default(ALERT_PAGE_SIZE),
    }),
    responses: { 200: paged(alert) },
  }),
  usersCount: defineRoute({
    method: 'GET',
    path: '/api/v1/users/count',
    summary: 'Patients in scope, and how many of them have open alerts',
    tags,
    query: z.object({ ...scopeQuery, cohort_id: idParam.optional() }),
    responses: {
      200: z.object({ data: z.object({ patients: z.number().int(), with_alerts: z.number().int() }) }),
    },
  }),
  usersCountCohort: defineRoute({
    method: 'GET',
    path: '/api/v1/users/count/:cohort',
    summary: 'The same counts for one cohort',
    tags,
    params: z.object({ cohort: idParam }),
    query: z.object(scopeQuery),
    responses: {
      200: z.object({ data: z.object({ patients: z.number().int(), with_alerts: z.number().int() }) }),
    },
  }),
  analyticsClear: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/analytics/clear',
    summary: "Clear alerts of the program (the analytics board's bulk clear)",
    tags,
    params: z.object({ programId: idParam }),
    body: z.object({ alerts: ids }),
    responses: { 200: okCount },
  }),
  analyticsHide: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/analytics/hide',
    summary: 'Hide alerts of the program from the board (they stay open and are still counted as hidden)',
    tags,
    params: z.object({ programId: idParam }),
    body: z.object({ alerts: ids }),
    responses: { 200: okCount },
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/alert-settings',
    summary: 'Alert thresholds and timers of the program, a cohort or a patient, with what applies',
    tags,
    params: z.object({ programId: idParam }),
    query: settingsLevel,
    responses: {
      200: z.object({
        data: z.object({
          own: alertSettingsValues,
          effective: z.record(z.string(), z.union([z.number(), z.string()])),
          source: z.record(z.string(), z.string()),
        }),
      }),
    },
  }),
  saveSettings: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/alert-settings',
    summary: 'Replace the thresholds and timers set at this level (keys left out inherit)',
    tags,
    params: z.object({ programId: idParam }),
    query: settingsLevel,
    body: z.object({ settings: alertSettingsValues }),
    responses: { 200: z.object({ message: z.string() }) },
  }),
};

const programParams = z.object({ programId: idParam });

/** One patient's open alerts, counted by type: the triage ranking of `alerts/summary?grouped=1`. */
export const patientAlertSummary = z.object({
  patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string().nullable() }),
  total: z.number().int(),
  unacknowledged: z.number().int(),
  escalated: z.number().int(),
  last_at: z.string(),
  types: z.record(z.string(), z.number().int()),
});
export type PatientAlertSummary = z.infer<typeof patientAlertSummary>;

/** 01 §7 "Alert list (legacy form)": the calls older clients make, on the same alerts. */
export const legacyAlertsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/alerts',
    summary:
      "A program's alerts, newest first; a patient's with user_id; resolved ones with include_completed=1",
    tags,
    params: programParams,
    query: z.object({
      user_id: idParam.optional(),
      include_completed: z.enum(['0', '1', 'true', 'false']).optional(),
      page: queryInt(1, 1_000_000).default(1),
      per_page: queryInt(1, 100).default(ALERT_PAGE_SIZE),
    }),
    responses: { 200: paged(alert) },
  }),
  markEscalationCompleted: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/mark_patients_escalation_completed',
    summary: "Resolve the patients' escalated alerts in the program (their escalation is complete)",
    tags,
    params: programParams,
    body: z.object({
      users: z
        .array(bodyId)
        .min(1, 'Choose at least one patient.')
        .max(MAX_ALERT_IDS, `At most ${MAX_ALERT_IDS} patients at once.`),
    }),
    responses: { 200: okCount },
  }),
  stepResolved: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/alerts/step_resolved/:id',
    summary:
      'Resolve one alert of the program (a step of its pathway); resolving a resolved alert changes nothing',
    tags,
    params: z.object({ programId: idParam, id: idParam }),
    query: z.object({ pathway: z.enum(['device', 'clinical']).optional() }),
    responses: { 200: z.object({ message: z.string(), data: alert }) },
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/alerts/summary',
    summary: 'Open alerts per patient (grouped=1: the triage ranking, most alerts first) or per type',
    tags,
    params: programParams,
    query: z.object({
      name: line().trim().max(100).optional(),
      grouped: z.enum(['0', '1', 'true', 'false']).default('1'),
      page: queryInt(1, 1_000_000).default(1),
      per_page: queryInt(1, 100).default(ALERT_PAGE_SIZE),
    }),
    responses: {
      200: z.union([
        paged(patientAlertSummary),
        z.object({ data: z.array(z.object({ type: z.enum(ALERT_TYPES), count: z.number().int() })) }),
      ]),
    },
  }),
  pathways: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/pathways',
    summary: "The program's escalation pathways: per alert group, after how long and to which role",
    tags,
    params: programParams,
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            group: z.enum(ALERT_GROUPS),
            types: z.array(z.enum(ALERT_TYPES)),
            escalate_after_minutes: z.number().int(),
            escalate_to_role: z.string(),
          }),
        ),
      }),
    },
  }),
};

const minutesFigures = z.object({
  count: z.number().int(),
  median_minutes: z.number().nullable(),
  p90_minutes: z.number().nullable(),
});

/** Alert analytics of a period (`?count=1`): volume, lifecycle times, by type, day and staff member. */
export const alertAnalytics = z.object({
  start: z.string(),
  end: z.string(),
  zone: z.string(),
  total: z.number().int(),
  by_status: z.object({
    open: z.number().int(),
    acknowledged: z.number().int(),
    escalated: z.number().int(),
    resolved: z.number().int(),
  }),
  auto_resolved: z.number().int(),
  time_to_acknowledge: minutesFigures,
  time_to_resolve: minutesFigures,
  by_type: z.array(
    z.object({
      type: z.enum(ALERT_TYPES),
      count: z.number().int(),
      median_acknowledge_minutes: z.number().nullable(),
    }),
  ),
  by_day: z.array(z.object({ date: z.string(), opened: z.number().int(), resolved: z.number().int() })),
  by_staff: z.array(
    z.object({
      admin: person,
      acknowledged: z.number().int(),
      cleared: z.number().int(),
      median_acknowledge_minutes: z.number().nullable(),
    }),
  ),
});
export type AlertAnalytics = z.infer<typeof alertAnalytics>;

/** A JSON object in a query string (the analytics filters); anything else answers 422. */
const jsonObject = line()
  .max(2000)
  .transform((v, ctx) => {
    try {
      const parsed = JSON.parse(v) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {}
    ctx.addIssue({ code: 'custom', message: 'Use a JSON object.' });
    return z.NEVER;
  });
const idList = line()
  .max(2000)
  .regex(/^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15})*$/, 'Use ids separated by commas.')
  .transform((v) => v.split(',').map(Number));

export const analyticsQuery = z.object({
  count: z.enum(['0', '1']).optional(),
  zone: line().max(64).optional(),
  /** Alert types, comma-separated. */
  criterias: line().max(2000).optional(),
  cohorts: idList.optional(),
  search: line().trim().max(100).optional(),
  /** { hidden: boolean, assigned: 'me' | 'nobody' } */
  filters: jsonObject.optional(),
  /** { sex, status, assigned_admin_id } of the patients. */
  patient_filters: jsonObject.optional(),
  /** { program_ids: [] } within an enterprise. */
  scopedFilters: jsonObject.optional(),
  alert_status: z.enum(['open', 'acknowledged', 'escalated', 'resolved', 'active', 'all']).default('all'),
  ids: idList.optional(),
  page: queryInt(1, 1_000_000).default(1),
  per_page: queryInt(1, 100).default(ALERT_PAGE_SIZE),
});

export const analyticsProcess = z.object({
  last_sweep_at: z.string().nullable(),
  sweeps: z.number().int(),
  evaluations: z.number().int(),
  patients_evaluated: z.number().int(),
  verdicts: z.number().int(),
  changes: z.number().int(),
  failures: z.number().int(),
  open_alerts: z.number().int(),
  sweep_every_ms: z.number().int(),
});

export const DASHBOARD_FACTS = ['alerts', 'resolved', 'readings', 'doses', 'enrolments'] as const;
export type DashboardFact = (typeof DASHBOARD_FACTS)[number];

/** 02 §7 "Alerts and analytics": analytics of a period, the engine's processing state, dashboards. */
export const analyticsContract = {
  process: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/analytics/process',
    summary: "The alert engine's processing state: last sweep, evaluations, verdicts, open alerts",
    tags,
    params: programParams,
    responses: { 200: z.object({ data: analyticsProcess }) },
  }),
  program: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/analytics/:startDate/:endDate',
    summary: 'Alerts first seen in the period: with count=1 the figures, else the alerts (filtered, paged)',
    tags,
    params: z.object({ programId: idParam, startDate: line().max(10), endDate: line().max(10) }),
    query: analyticsQuery,
    responses: { 200: z.union([z.object({ data: alertAnalytics }), paged(alert)]) },
  }),
  enterprise: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/analytics/:startDate/:endDate',
    summary: 'The same over every program of the enterprise the caller sees (cohorts narrow it)',
    tags,
    params: z.object({ enterpriseId: idParam, startDate: line().max(10), endDate: line().max(10) }),
    query: analyticsQuery,
    responses: { 200: z.union([z.object({ data: alertAnalytics }), paged(alert)]) },
  }),
  dashboard: defineRoute({
    method: 'GET',
    path: '/api/v1/dashboard/:fact/:start/:end',
    summary:
      'One fact per day of the period (alerts, resolved, readings, doses, enrolments) for a dashboard tile',
    tags,
    params: z.object({ fact: line().max(32), start: line().max(10), end: line().max(10) }),
    query: z.object({ ...scopeQuery, zone: line().max(64).optional() }),
    responses: {
      200: z.object({
        fact: z.enum(DASHBOARD_FACTS),
        total: z.number().int(),
        data: z.array(z.object({ date: z.string(), value: z.number().int() })),
      }),
    },
  }),
};

/** Live event to a program's staff: its alert board changed (tiles and lists reload). */
export const ALERTS_CHANGED_EVENT = 'alerts.changed';
