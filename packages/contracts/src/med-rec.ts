import { z } from 'zod';
import { calendarDay, idParam, line, text } from './common';
import { defineRoute } from './route';

export const MED_REC_MESSAGES = {
  added: 'A New Medication has been Added.',
  updated: 'Medication Updated.',
  archived: 'Medication Archive Status Updated.',
} as const;

/** How the list was reconciled (02 §7 "method"). */
export const MED_REC_METHODS = [
  'patient_interview',
  'caregiver_interview',
  'pill_bottle_review',
  'pharmacy_records',
  'prescriber_records',
  'discharge_summary',
] as const;

/** The fields of a medication record a key/value update may change. */
export const MED_REC_KEYS = [
  'name',
  'strength',
  'dose',
  'frequency',
  'route',
  'indication',
  'prescriber',
  'start_date',
  'last_taken',
  'source',
  'notes',
] as const;

const optional = (max: number) =>
  line()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
const day = calendarDay('Use the format YYYY-MM-DD.').nullable().optional();

export const medRecBody = z.object({
  name: line().trim().min(1, 'Enter the medication.').max(200),
  strength: optional(60),
  dose: optional(60),
  frequency: optional(120),
  route: optional(60),
  indication: optional(200),
  prescriber: optional(120),
  start_date: day,
  last_taken: day,
  source: optional(120),
  notes: text().trim().max(2000).nullable().optional(),
});
export type MedRecBody = z.input<typeof medRecBody>;

export const medRecItem = z.object({
  id: z.number().int(),
  name: z.string(),
  strength: z.string().nullable(),
  dose: z.string().nullable(),
  frequency: z.string().nullable(),
  route: z.string().nullable(),
  indication: z.string().nullable(),
  prescriber: z.string().nullable(),
  start_date: z.string().nullable(),
  last_taken: z.string().nullable(),
  source: z.string().nullable(),
  notes: z.string().nullable(),
  archived: z.boolean(),
  updated_at: z.string(),
  updated_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type MedRecItem = z.infer<typeof medRecItem>;

export const medRecList = z.object({
  data: z.array(medRecItem),
  method: z.enum(MED_REC_METHODS).nullable(),
  reconciled_at: z.string().nullable(),
  reconciled_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});

const tags = ['medication reconciliation'] as const;
const patient = { patientId: idParam };
const medication = { patientId: idParam, medicationId: idParam };
const withMessage = z.object({ message: z.string(), data: medRecItem });

/** Medication reconciliation (02 §7): what the patient actually takes, recorded and kept current. */
export const medRecContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/user/:patientId/med-rec',
    summary:
      "The patient's reconciled medication list (archived ones too), with the method and when it was last reconciled",
    tags,
    params: z.object(patient),
    query: z.object({ program_id: idParam.optional() }),
    responses: { 200: medRecList },
  }),
  store: defineRoute({
    method: 'POST',
    path: '/api/v1/user/:patientId/med-rec/store',
    tags,
    params: z.object(patient),
    body: medRecBody,
    responses: { 201: withMessage },
  }),
  update: defineRoute({
    method: 'POST',
    path: '/api/v1/user/:patientId/med-rec/update/:medicationId',
    tags,
    params: z.object(medication),
    body: medRecBody,
    responses: { 200: withMessage },
  }),
  archive: defineRoute({
    method: 'POST',
    path: '/api/v1/user/:patientId/med-rec/archive/:medicationId',
    summary: 'Archives the medication, or brings an archived one back (a toggle)',
    tags,
    params: z.object(medication),
    responses: { 200: withMessage },
  }),
  updateMethod: defineRoute({
    method: 'POST',
    path: '/api/v1/user/:patientId/med-rec/update-method',
    summary: 'How the list was reconciled; marks it reconciled now, by the user',
    tags,
    params: z.object(patient),
    body: z.object({ value: z.enum(MED_REC_METHODS) }),
    responses: { 200: medRecList },
  }),
  updateInput: defineRoute({
    method: 'POST',
    path: '/api/v1/user/:patientId/med-rec/update-input/:medicationId',
    summary: 'Changes one field of a medication (inline editing)',
    tags,
    params: z.object(medication),
    body: z.object({ key: z.enum(MED_REC_KEYS), value: text().trim().max(2000).nullable() }),
    responses: { 200: withMessage },
  }),
};
