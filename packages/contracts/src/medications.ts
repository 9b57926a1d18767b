import { z } from 'zod';
import { bodyId, calendarDay, idParam, isoInstant, line, text, withoutDefaults } from './common';
import { defineRoute } from './route';

export const REGIMEN_TYPES = ['medication', 'inhaler', 'medesto-device'] as const;
export const REGIMEN_REPEATS = ['daily', 'weekly', 'monthly', 'as_needed'] as const;
export const REGIMEN_STATUSES = ['active', 'completed'] as const;

export const MEDICATION_MESSAGES = {
  regimenNotFound: 'Regimen not found',
  inhalerFailed: 'Unable to create Inhaler Regimen',
  endBeforeStart: 'The end must be after the start.',
  timesRequired: 'Give at least one time of day for a scheduled regimen.',
  timesUnique: 'Each time of day may appear once.',
  lockoutTooLong: 'The lockout cannot be longer than the time between doses.',
  unlockTooLong: 'Unlocking early cannot start before the previous dose.',
  servings: 'Servings remaining cannot exceed the original servings.',
  deviceBusy: 'This device already runs an active regimen for the patient.',
  deviceElsewhere: 'This device is given to another patient or program.',
  notAnInhaler: 'This serial is a registered device that is not an inhaler.',
  notADispenser: 'This serial is a registered device that is not a dispenser.',
  podsLinked: 'Pods linked',
} as const;

const name = line().trim().min(1, 'Enter a name.').max(200);
const optionalLine = (max: number) =>
  line()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
const timeOfDay = line().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time of day as HH:MM (24-hour).');
const instant = isoInstant('Give a date and time (ISO 8601).');

/** Minutes between two consecutive times of a day's schedule, the last to the next day's first included. */
export function smallestGapMinutes(times: readonly string[]): number | null {
  if (times.length < 2) return times.length === 1 ? 24 * 60 : null;
  const minutes = times.map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3))).sort((a, b) => a - b);
  let gap = 24 * 60 - minutes.at(-1)! + minutes[0]!;
  for (let i = 1; i < minutes.length; i++) gap = Math.min(gap, minutes[i]! - minutes[i - 1]!);
  return gap;
}

const regimenFields = z.object({
  name,
  repeat: z.enum(REGIMEN_REPEATS).default('daily'),
  /** Every `interval` days (daily), weeks (weekly) or months (monthly). */
  interval: z.number().int().min(1).max(365).default(1),
  /** Later times of the day move with a late dose (the schedule cascades). */
  timeCascade: z.boolean().default(false),
  billable: z.boolean().default(true),
  /** Minutes after a dose during which the dispenser stays locked. */
  lockout_time: z.number().int().min(0).max(1440).default(0),
  /** Times of day (HH:MM, in the patient's time zone). */
  time: z.array(timeOfDay).max(24).default([]),
  /** Servings (pills, puffs) per dose. */
  num: z.number().int().min(1).max(20).default(1),
  created_by: optionalLine(120),
  scheduled_at: instant,
  end_at: instant.nullable().optional(),
  multi_pod: z.boolean().default(false),
  /** Minutes before a dose time the dose may already be taken. */
  unlock_before: z.number().int().min(0).max(720).default(0),
  parent_id: bodyId.nullable().optional(),
  type: z.enum(REGIMEN_TYPES).default('medication'),
  /** The device a device or inhaler regimen runs on (serial). */
  device_serial: optionalLine(64),
});

type RegimenShape = z.output<typeof regimenFields>;

/** Rejects schedules that cannot be kept: end before start, missing or repeated times, lockout over the gap. */
function scheduleIssues(r: Partial<RegimenShape>, ctx: z.RefinementCtx) {
  if (r.scheduled_at && r.end_at && Date.parse(r.end_at) <= Date.parse(r.scheduled_at))
    ctx.addIssue({ code: 'custom', path: ['end_at'], message: MEDICATION_MESSAGES.endBeforeStart });
  const times = r.time ?? [];
  if (r.repeat && r.repeat !== 'as_needed' && times.length === 0)
    ctx.addIssue({ code: 'custom', path: ['time'], message: MEDICATION_MESSAGES.timesRequired });
  if (new Set(times).size !== times.length)
    ctx.addIssue({ code: 'custom', path: ['time'], message: MEDICATION_MESSAGES.timesUnique });
  const gap = smallestGapMinutes(times);
  if (gap !== null && (r.lockout_time ?? 0) > gap)
    ctx.addIssue({ code: 'custom', path: ['lockout_time'], message: MEDICATION_MESSAGES.lockoutTooLong });
  if (gap !== null && (r.unlock_before ?? 0) >= gap)
    ctx.addIssue({ code: 'custom', path: ['unlock_before'], message: MEDICATION_MESSAGES.unlockTooLong });
}

export const createRegimenBody = regimenFields.superRefine(scheduleIssues);
export type CreateRegimenBody = z.input<typeof createRegimenBody>;
export type CreateRegimenInput = z.output<typeof createRegimenBody>;
/**
 * A change names only the fields it changes: the creation defaults are left out (`.partial()` keeps them, so a
 * rename alone used to reset the times, repeat, lockout and dose to the defaults).
 */
export const updateRegimenBody = z
  .object(withoutDefaults(regimenFields.omit({ type: true, parent_id: true }).shape))
  .partial()
  .extend({ status: z.enum(['completed']).optional() })
  .superRefine((r, ctx) => scheduleIssues(r as Partial<RegimenShape>, ctx));
export type UpdateRegimenBody = z.input<typeof updateRegimenBody>;

export const inhalerRegimenBody = regimenFields
  .omit({ type: true })
  .extend({ device_serial: line().trim().min(1, 'Give the inhaler serial number.').max(64) })
  .superRefine(scheduleIssues);
export type InhalerRegimenBody = z.input<typeof inhalerRegimenBody>;

export const orderBody = z.object({
  drug_name: name,
  strength: optionalLine(60),
  route: optionalLine(60),
  form: optionalLine(60),
  quantity: z.number().int().min(1).max(10_000).nullable().optional(),
  refills: z.number().int().min(0).max(99).nullable().optional(),
  instructions: text().trim().max(2000).nullable().optional(),
  prescriber_id: bodyId.nullable().optional(),
});
export type OrderBody = z.input<typeof orderBody>;

export const podBody = z
  .object({
    prefix: line()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{1,8}$/, 'Use 1 to 8 letters or digits.'),
    original_servings: z.number().int().min(1).max(1000),
    servings_remaining: z.number().int().min(0).max(1000),
    num: z.number().int().min(1).max(60).default(1),
  })
  .refine((p) => p.servings_remaining <= p.original_servings, {
    path: ['servings_remaining'],
    message: MEDICATION_MESSAGES.servings,
  });

export type PodBody = z.input<typeof podBody>;

export const linkPodsBody = z
  .object({
    prefix: line()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{1,8}$/, 'Use 1 to 8 letters or digits.'),
    original_servings: z.number().int().min(1).max(1000),
    servings_remaining: z.number().int().min(0).max(1000),
    num: z.number().int().min(1).max(60),
    regimen: bodyId,
    linked_regimen: bodyId,
  })
  .refine((p) => p.servings_remaining <= p.original_servings, {
    path: ['servings_remaining'],
    message: MEDICATION_MESSAGES.servings,
  })
  .refine((p) => p.linked_regimen !== p.regimen, {
    path: ['linked_regimen'],
    message: 'Choose another regimen than the one the pods are for.',
  });

export const scriptBody = z.object({
  id: bodyId.optional(),
  drug_name: name,
  sig: text().trim().max(1000).nullable().optional(),
  quantity: z.number().int().min(1).max(10_000).nullable().optional(),
  refills: z.number().int().min(0).max(99).nullable().optional(),
  prescriber: optionalLine(120),
  written_at: calendarDay('Use the format YYYY-MM-DD.').nullable().optional(),
});

export type ScriptBody = z.input<typeof scriptBody>;

export const usageBody = z.object({
  regimen_id: bodyId,
  pod_id: bodyId.nullable().optional(),
  taken_at: instant,
  servings: z.number().int().min(1).max(20).default(1),
  note: text().trim().max(500).nullable().optional(),
});
export type UsageBody = z.input<typeof usageBody>;

const condition = z.object({
  code: line()
    .trim()
    .regex(/^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$/, 'Use an ICD-10-CM code (e.g. I10, E11.9).'),
  description: line().trim().min(1).max(300),
});

const person = z.object({ id: z.number().int(), name: z.string() }).nullable();

export const pod = z.object({
  id: z.number().int(),
  regimen_id: z.number().int(),
  barcode: z.string(),
  prefix: z.string(),
  num: z.number().int(),
  original_servings: z.number().int(),
  servings_remaining: z.number().int(),
  linked_regimen_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type Pod = z.infer<typeof pod>;

export const regimen = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  order_id: z.number().int().nullable(),
  parent_id: z.number().int().nullable(),
  type: z.enum(REGIMEN_TYPES),
  name: z.string(),
  repeat: z.enum(REGIMEN_REPEATS),
  interval: z.number().int(),
  timeCascade: z.boolean(),
  billable: z.boolean(),
  lockout_time: z.number().int(),
  time: z.array(z.string()),
  num: z.number().int(),
  created_by: z.string().nullable(),
  scheduled_at: z.string(),
  end_at: z.string().nullable(),
  multi_pod: z.boolean(),
  unlock_before: z.number().int(),
  device_serial: z.string().nullable(),
  status: z.enum(REGIMEN_STATUSES),
  completed_at: z.string().nullable(),
  pods: z.array(pod),
});
export type Regimen = z.infer<typeof regimen>;

export const order = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  regimen_id: z.number().int().nullable(),
  drug_name: z.string(),
  strength: z.string().nullable(),
  route: z.string().nullable(),
  form: z.string().nullable(),
  quantity: z.number().int().nullable(),
  refills: z.number().int().nullable(),
  instructions: z.string().nullable(),
  prescriber: person,
  status: z.string(),
  created_at: z.string(),
});
export type Order = z.infer<typeof order>;

export const script = z.object({
  id: z.number().int(),
  drug_name: z.string(),
  sig: z.string().nullable(),
  quantity: z.number().int().nullable(),
  refills: z.number().int().nullable(),
  prescriber: z.string().nullable(),
  written_at: z.string().nullable(),
  updated_at: z.string(),
});
export type Script = z.infer<typeof script>;

export const diseaseState = z.object({
  id: z.number().int(),
  conditions: z.array(condition),
  regimen_ids: z.array(z.number().int()),
  script_id: z.number().int().nullable(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
});
export type DiseaseState = z.infer<typeof diseaseState>;

export const usage = z.object({
  id: z.number().int(),
  regimen_id: z.number().int(),
  pod_id: z.number().int().nullable(),
  taken_at: z.string(),
  servings: z.number().int(),
  note: z.string().nullable(),
  recorded_by: person,
  /** 'taken' or 'skipped'. */
  kind: z.string(),
  /** Where the dose record came from: 'manual' (recorded by hand, the only ones that can be deleted) or a device channel. */
  source: z.string(),
});

export const medicationPlan = z.object({
  regimens: z.array(regimen),
  orders: z.array(order),
  scripts: z.array(script),
  disease_states: z.array(diseaseState),
  recent_usages: z.array(usage),
});
export type MedicationPlan = z.infer<typeof medicationPlan>;

export const PDF = 'application/pdf';

const tags = ['medications'] as const;
const patient = { programId: idParam, id: idParam };
const patientByUserId = { programId: idParam, userId: idParam };

/** Orders, regimens, pods and labels, scripts, manual doses, disease states (01 §7 "Usages, orders, regimens, pods"). */
export const medicationsContract = {
  plan: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/medication',
    summary:
      "The patient's whole medication plan in one answer (regimens with pods, orders, scripts, disease states, recent doses)",
    tags,
    params: z.object(patient),
    responses: { 200: medicationPlan },
  }),
  createOrder: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/orders',
    tags,
    params: z.object(patient),
    query: z.object({ regimen_id: idParam.optional() }),
    body: orderBody,
    responses: { 201: order },
  }),
  createOrders: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/orders/many',
    tags,
    params: z.object(patient),
    body: z.object({ orders: z.array(orderBody).min(1).max(50) }),
    responses: { 201: z.object({ data: z.array(order) }) },
  }),
  orders: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/orders',
    tags,
    params: z.object(patient),
    responses: { 200: z.object({ data: z.array(order) }) },
  }),
  createRegimen: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/orders/:orderId/regimens',
    summary:
      "A regimen under one of the patient's orders; a device-order regimen on a busy device answers 409",
    tags,
    params: z.object({ ...patient, orderId: idParam }),
    body: createRegimenBody,
    responses: { 201: regimen },
  }),
  createRegimens: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/orders/:orderId/regimens/many',
    tags,
    params: z.object({ ...patient, orderId: idParam }),
    body: z.object({ regimens: z.array(createRegimenBody).min(1).max(20) }),
    responses: { 201: z.object({ data: z.array(regimen) }) },
  }),
  regimens: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/regimens',
    tags,
    params: z.object(patient),
    responses: { 200: z.object({ data: z.array(regimen) }) },
  }),
  regimen: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/regimens/:regimenId',
    tags,
    params: z.object({ ...patient, regimenId: idParam }),
    responses: { 200: regimen },
  }),
  completeRegimen: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/users/:id/regimens/:regimenId',
    summary: "Completes a regimen; an unknown one answers 404 'Regimen not found'",
    tags,
    params: z.object({ ...patient, regimenId: idParam }),
    responses: { 200: regimen },
  }),
  updateRegimen: defineRoute({
    method: 'PUT',
    path: '/api/v1/regimens/:regimenId',
    summary: 'Changes a regimen (schedule, end, name) or completes it (status completed)',
    tags,
    params: z.object({ regimenId: idParam }),
    body: updateRegimenBody,
    responses: { 200: regimen },
  }),
  inhalerRegimen: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:userId/regimens/inhaler',
    summary: 'A smart inhaler regimen (no order needed)',
    tags,
    params: z.object(patientByUserId),
    body: inhalerRegimenBody,
    responses: { 201: regimen },
  }),
  scripts: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/users/:id/scripts',
    summary: "Adds or changes the patient's prescriptions (an id changes that one)",
    tags,
    params: z.object(patient),
    body: z.object({ scripts: z.array(scriptBody).min(1).max(50) }),
    responses: { 200: z.object({ data: z.array(script) }) },
  }),
  createPods: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/regimens/:regimenId/pods',
    summary: 'Pods of a regimen, each with its own barcode',
    tags,
    params: z.object({ ...patient, regimenId: idParam }),
    body: podBody,
    responses: { 201: z.object({ data: z.array(pod) }) },
  }),
  podCodes: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:userId/regimens/:regimenId/get_codes',
    summary: 'The barcodes the next pods of the regimen would get (nothing is saved)',
    tags,
    params: z.object({ ...patientByUserId, regimenId: idParam }),
    body: podBody,
    responses: { 200: z.object({ codes: z.array(z.string()) }) },
  }),
  linkPods: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:userId/regimens/pods/link',
    summary: 'Pods of one regimen linked to another (multi-pod doses)',
    tags,
    params: z.object(patientByUserId),
    body: linkPodsBody,
    responses: { 200: z.object({ message: z.string(), data: z.array(pod) }) },
  }),
  podLabel: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:userId/regimens/:regimenId/pods/:podId/barcodes/:barcode',
    summary: "One pod's barcode label (PDF)",
    tags,
    params: z.object({ ...patientByUserId, regimenId: idParam, podId: idParam, barcode: line().max(40) }),
    responses: { 200: null },
    file: { contentType: PDF },
  }),
  labels: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:userId/barcodes',
    summary: 'Barcode labels of many pods of the patient, on Letter label sheets of 30 (PDF)',
    tags,
    params: z.object(patientByUserId),
    query: z.object({ barcodes: line().min(1).max(4000) }),
    responses: { 200: null },
    file: { contentType: PDF },
  }),
  recordUsage: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/usages',
    summary: 'A dose taken, recorded by hand (servings leave the pod)',
    tags,
    params: z.object(patient),
    body: usageBody,
    responses: { 201: usage },
  }),
  deleteUsage: defineRoute({
    method: 'DELETE',
    path: '/api/v1/programs/:programId/users/:id/usages/:usageId',
    summary: 'Removes a dose recorded by hand (its servings go back to the pod)',
    tags,
    params: z.object({ ...patient, usageId: idParam }),
    responses: { 204: null },
  }),
  addDiseaseState: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/disease_states',
    tags,
    params: z.object(patient),
    query: z.object({ regimen_id: idParam.optional(), script_id: idParam.optional() }),
    body: z.object({ conditions: z.array(condition).min(1).max(20) }),
    responses: { 201: diseaseState },
  }),
  linkDiseaseStateRegimens: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/users/:id/disease_states/regimens',
    tags,
    params: z.object(patient),
    body: z.object({ disease_state_id: bodyId, regimen_ids: z.array(bodyId).max(50) }),
    responses: { 200: diseaseState },
  }),
  endDiseaseState: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/users/:id/disease_states/end',
    tags,
    params: z.object(patient),
    body: z.object({ disease_state_id: bodyId }),
    responses: { 200: diseaseState },
  }),
  deleteDiseaseState: defineRoute({
    method: 'PUT',
    path: '/api/v1/programs/:programId/users/:id/disease_states/delete',
    tags,
    params: z.object(patient),
    body: z.object({ disease_state_id: bodyId }),
    responses: { 204: null },
  }),
};
