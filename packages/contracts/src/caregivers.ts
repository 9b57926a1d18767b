import { z } from 'zod';
import { idParam, line } from './common';
import { normalisePhone, PATIENT_MESSAGES } from './patient-record';
import { defineRoute } from './route';

export const CAREGIVER_RELATIONSHIPS = [
  'spouse',
  'partner',
  'parent',
  'child',
  'sibling',
  'friend',
  'professional',
  'other',
] as const;

const optional = (max: number) =>
  line()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const createCaregiverBody = z
  .object({
    first_name: line().trim().min(1, 'Enter the first name.').max(100),
    last_name: line().trim().min(1, 'Enter the last name.').max(100),
    relationship: z.enum(CAREGIVER_RELATIONSHIPS),
    phone_number: line()
      .trim()
      .max(32)
      .transform((v, ctx) => {
        if (v === '') return null;
        const normal = normalisePhone(v);
        if (!normal) {
          ctx.addIssue({ code: 'custom', message: PATIENT_MESSAGES.phone });
          return z.NEVER;
        }
        return normal;
      })
      .nullable()
      .optional(),
    email: line()
      .trim()
      .toLowerCase()
      .max(254)
      .transform((v) => (v === '' ? null : v))
      .pipe(z.email('Enter a valid e-mail address.').nullable())
      .nullable()
      .optional(),
    notes: optional(500),
  })
  .refine((v) => Boolean(v.phone_number || v.email), {
    path: ['phone_number'],
    message: 'Give a phone number or an e-mail address to reach the caregiver.',
  });

export const caregiver = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  relationship: z.enum(CAREGIVER_RELATIONSHIPS),
  phone_number: z.string().nullable(),
  email: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
});
export type Caregiver = z.infer<typeof caregiver>;

const tags = ['caregivers'] as const;
const link = z.object({ patient_id: idParam, caregiver_id: idParam });

/** Caregivers: people who help a patient (family, friends, home-care staff), reachable by the care team. */
export const caregiversContract = {
  /** Not in the spec's §7: caregivers must exist before they can be linked (ADR 020). */
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/caregivers',
    summary: 'Add a caregiver to the program (link them to patients next)',
    tags,
    params: z.object({ programId: idParam }),
    body: createCaregiverBody,
    responses: { 201: caregiver },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/caregivers',
    summary: 'Caregivers of the program, by name (at most 50)',
    tags,
    params: z.object({ programId: idParam }),
    query: z.object({ search: line().trim().max(100).optional() }),
    responses: { 200: z.object({ data: z.array(caregiver) }) },
  }),
  link: defineRoute({
    method: 'POST',
    path: '/api/v1/caregivers/:patient_id/:caregiver_id',
    summary: "Link a caregiver of the patient's program to the patient",
    tags,
    params: link,
    responses: { 200: z.object({ data: z.array(caregiver) }) },
  }),
  unlink: defineRoute({
    method: 'DELETE',
    path: '/api/v1/caregivers/:patient_id/:caregiver_id',
    summary: 'Unlink a caregiver from the patient (the caregiver stays in the program)',
    tags,
    params: link,
    responses: { 200: z.object({ data: z.array(caregiver) }) },
  }),
  ofPatient: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:patientId/caregivers',
    summary: "The patient's caregivers",
    tags,
    params: z.object({ programId: idParam, patientId: idParam }),
    responses: { 200: z.object({ data: z.array(caregiver) }) },
  }),
};
