import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, text } from './common';
import { defineRoute } from './route';

/**
 * Order forms (02 §7 "Order forms"; ADR 044): documents a care team sends on a patient's behalf (a device
 * order to a supplier, a refill authorization request or a prior-authorization request to the prescriber, a
 * dispenser enrolment form to the pharmacy). A program's templates come from the catalogue CareDeck ships; a
 * patient's form is made from one, snapshotting what the record knows and what staff fill in, rendered as a
 * PDF, and sent to its recipient by e-mail as a time-limited link (no PHI in the message).
 */
export const ORDER_FORM_MESSAGES = {
  generated: 'Order Form Generated',
  sent: 'Order Form Sent',
  resent: 'Order Form Resent',
  notFound: 'Order form not found.',
  templateNotFound: 'Choose a form this program offers.',
  required: 'This field is required.',
  notAField: 'This form has no such field.',
  oneLine: 'Use a single line.',
  tooLong: 'The value is too long.',
  badDate: 'Use a date like 2026-11-25.',
  badNumber: 'Enter a whole number in the allowed range.',
  badOption: 'Choose one of the offered values.',
  otherPatient: 'The form must be for the patient of this record.',
  alreadySent: 'This form was already sent: resend it instead.',
  neverSent: 'This form has not been sent yet: send it first.',
  invalidLink: 'This link is invalid or has expired.',
} as const;

export const ORDER_FORM_STATES = ['created', 'sent', 'resent'] as const;
export const orderFormState = z.enum(ORDER_FORM_STATES);
export type OrderFormState = z.infer<typeof orderFormState>;

export const RECIPIENT_KINDS = ['prescriber', 'pharmacy', 'supplier'] as const;
export const recipientKind = z.enum(RECIPIENT_KINDS);
export type RecipientKind = z.infer<typeof recipientKind>;

export const ORDER_FIELD_TYPES = ['text', 'textarea', 'date', 'number', 'select', 'list'] as const;
export const orderFieldType = z.enum(ORDER_FIELD_TYPES);
export type OrderFieldType = z.infer<typeof orderFieldType>;

/** What the patient record supplies (patient-sourced fields); anything else staff fill in. */
export const PATIENT_FACTS = [
  'patient_name',
  'date_of_birth',
  'sex',
  'address',
  'phone',
  'mrn',
  'physician',
  'medications',
  'devices',
] as const;
export type PatientFact = (typeof PATIENT_FACTS)[number];

/** How long the link in a sent form's e-mail opens its PDF. */
export const ORDER_FORM_LINK_DAYS = 7;
/** Most field values one form may carry. */
export const ORDER_FORM_MAX_FIELDS = 40;

export const orderFormField = z.object({
  key: z.string(),
  label: z.string(),
  /** `patient`: the record supplies it (staff fill it only when the record lacks it); `staff`: staff fill it. */
  source: z.enum(['patient', 'staff']),
  type: orderFieldType,
  required: z.boolean(),
  /** The choices of a `select`. */
  options: z.array(z.string()).optional(),
  /** Bounds of a `number`. */
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  /** A regular expression the value must match (e.g. an ICD-10-CM code), with the message shown otherwise. */
  pattern: z.string().optional(),
  pattern_message: z.string().optional(),
  hint: z.string().optional(),
});
export type OrderFormField = z.infer<typeof orderFormField>;

export const orderFormTemplate = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  recipient_kind: recipientKind,
  fields: z.array(orderFormField),
});
export type OrderFormTemplate = z.infer<typeof orderFormTemplate>;

/** A template for one patient: every field with what the record already knows, and which required ones are missing. */
export const patientOrderFormTemplate = orderFormTemplate.extend({
  fields: z.array(
    orderFormField.extend({
      /** The record's value (lists one item a line); null when the record does not know it or staff fill it. */
      value: z.string().nullable(),
      /** Required and not known: the screen asks for it. */
      missing: z.boolean(),
    }),
  ),
  missing: z.array(z.string()),
});
export type PatientOrderFormTemplate = z.infer<typeof patientOrderFormTemplate>;

export const orderFormSend = z.object({
  id: z.number().int(),
  kind: z.enum(['send', 'resend']),
  channel: z.literal('email'),
  to: z.string(),
  recipient_name: z.string().nullable(),
  sent_by: z.object({ id: z.number().int(), name: z.string() }),
  sent_at: z.string(),
  /** The e-mail's delivery: queued, handed to the mail server, or given up after the retries. */
  delivery: z.enum(['pending', 'sent', 'failed']),
  link_expires_at: z.string(),
  /** How often the recipient opened the PDF through the link. */
  downloads: z.number().int(),
  last_downloaded_at: z.string().nullable(),
});
export type OrderFormSend = z.infer<typeof orderFormSend>;

export const orderForm = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  template: z.object({ id: z.number().int(), name: z.string(), recipient_kind: recipientKind }),
  state: orderFormState,
  /** The snapshot the form was made with (record values and staff entries), in the template's order. */
  fields: z.array(z.object({ key: z.string(), label: z.string(), value: z.string().nullable() })),
  has_pdf: z.boolean(),
  pdf_generated_at: z.string().nullable(),
  created_by: z.object({ id: z.number().int(), name: z.string() }),
  created_at: z.string(),
  last_sent_at: z.string().nullable(),
  /** Where it went last. */
  recipient: z.object({ to: z.string(), name: z.string().nullable() }).nullable(),
  /** Every send and resend, newest first. */
  sends: z.array(orderFormSend),
});
export type OrderForm = z.infer<typeof orderForm>;

const FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;

export const createOrderFormBody = z
  .object({
    /** The template the form is made from. */
    orderForm_id: bodyId,
    user_id: bodyId,
    generatePdf: z.boolean().default(true),
    /** Values of the fields staff fill in (and of record fields the record lacks), by field key. */
    fields: z.record(z.string().regex(FIELD_KEY, 'Unknown field.'), text().max(4000)).default({}),
  })
  .superRefine((b, ctx) => {
    if (Object.keys(b.fields).length > ORDER_FORM_MAX_FIELDS)
      ctx.addIssue({ code: 'custom', path: ['fields'], message: 'Too many fields.' });
  });
export type CreateOrderFormBody = z.input<typeof createOrderFormBody>;

const recipient = {
  email: line().trim().max(254).pipe(z.email('Enter a valid e-mail address.')),
  /** Who the e-mail is for (a practice, a pharmacy, a supplier's desk): shown in the history, not PHI. */
  recipient_name: line().trim().max(120).nullable().optional(),
};

export const sendOrderFormBody = z.object({ order_form_id: bodyId, ...recipient });
export type SendOrderFormBody = z.input<typeof sendOrderFormBody>;

/** Resend to the last recipient, or to another address. */
export const resendOrderFormBody = z.object({
  email: recipient.email.optional(),
  recipient_name: recipient.recipient_name,
});
export type ResendOrderFormBody = z.input<typeof resendOrderFormBody>;

const tags = ['order forms'] as const;
const program = { programId: idParam };
const patient = { ...program, userId: idParam };
const withForm = z.object({ message: z.string(), data: orderForm });

export const orderFormsContract = {
  templates: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/forms',
    summary: "The program's order form templates (the shipped catalogue for its program type)",
    tags,
    params: z.object(program),
    responses: { 200: z.object({ data: z.array(orderFormTemplate) }) },
  }),
  patientTemplates: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:userId/order-form/forms',
    summary:
      "The templates for one patient: each field with the record's value, and the required ones missing",
    tags,
    params: z.object(patient),
    responses: { 200: z.object({ data: z.array(patientOrderFormTemplate) }) },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:userId/order-form',
    summary: "The patient's order forms, newest first: state, recipient and every send",
    tags,
    params: z.object(patient),
    query: pageQuery,
    responses: { 200: paged(orderForm) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:userId/order-form/create',
    summary: "Make the patient's order form from a template; with generatePdf, render its PDF now",
    tags,
    params: z.object(patient),
    body: createOrderFormBody,
    responses: { 201: withForm },
  }),
  send: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:userId/order-form/send',
    summary:
      'Send a created form to its recipient: an e-mail without PHI carrying a time-limited link to the PDF',
    tags,
    params: z.object(patient),
    body: sendOrderFormBody,
    responses: { 200: withForm },
  }),
  resend: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:userId/order-form/:id/resend',
    summary: 'Send a sent form again (to the last recipient or another address), with a fresh link',
    tags,
    params: z.object({ ...patient, id: idParam }),
    body: resendOrderFormBody,
    responses: { 200: withForm },
  }),
  pdf: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:userId/order-form/:id/pdf',
    summary: "The form's PDF (rendered from its snapshot and kept, if it was made without one)",
    tags,
    params: z.object({ ...patient, id: idParam }),
    responses: { 200: null },
    file: { contentType: 'application/pdf' },
  }),
  /** The link in a sent form's e-mail: the signed token is the only credential (ADR 044). */
  linkPdf: defineRoute({
    method: 'GET',
    path: '/api/v1/order-form-links/:token',
    summary: "A sent form's PDF through the signed, time-limited link of its e-mail",
    tags,
    params: z.object({ token: line().min(1).max(600) }),
    responses: { 200: null },
    file: { contentType: 'application/pdf' },
  }),
};
