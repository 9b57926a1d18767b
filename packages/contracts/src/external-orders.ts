import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, queryInt } from './common';
import { defineRoute } from './route';

/**
 * External orders (02 §7 "External orders"; ADR 045): prescription fills exported as CSV by an outside
 * pharmacy system. Staff import the file, link each pharmacy patient to a CareDeck patient, verify the pod
 * fill files and the schedules per patient and need-by date, then finalize: the patient's regimens are
 * created or updated and the packaging equipment file is written.
 */
export const EXTERNAL_ORDER_MESSAGES = {
  imported: 'CSV Uploaded',
  fillVerified: 'External Order Fill Files Verified',
  scheduleVerified: 'Schedule Verified',
  finalized: 'Schedules generated and equipment files sent',
  merged: 'Patient Matched',
  fileRequired: 'Attach the CSV file exported by the pharmacy system.',
  fileTooLarge: 'The file is larger than 2 MB.',
  fileHasErrors: 'The file has errors: nothing was imported.',
  tooManyRows: 'A file may hold at most 5000 orders.',
  noRows: 'The file holds no orders.',
  notFound: 'External order not found',
  patientNotFound: 'Patient not found',
  noOrders: 'No orders of this patient need this date.',
  notMatched: 'Match the pharmacy patient to a CareDeck patient first.',
  alreadyFinalized: 'These orders are already finalized.',
  notVerified: 'Verify the fill files and the schedule of every order first.',
  timesCount: 'Give as many times as the sig asks for.',
  linkedElsewhere: 'This pharmacy patient is linked to another patient whose orders are already finalized.',
} as const;

/** The statuses an order goes through, in order (the catalogue of GET external_order_statuses). */
export const EXTERNAL_ORDER_STATUSES = [
  'received',
  'matched',
  'fill_verified',
  'schedule_verified',
  'verified',
  'finalized',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export const externalOrderStatus = z.enum(EXTERNAL_ORDER_STATUSES);
export type ExternalOrderStatus = z.infer<typeof externalOrderStatus>;

/** Labels of the statuses (the console translates them; the API sends the English one). */
export const EXTERNAL_ORDER_STATUS_LABELS: Record<ExternalOrderStatus, string> = {
  received: 'Received, patient not matched',
  matched: 'Matched to a patient',
  fill_verified: 'Fill files verified',
  schedule_verified: 'Schedule verified',
  verified: 'Fill files and schedule verified',
  finalized: 'Finalized, equipment file sent',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** Largest CSV accepted, in bytes, and most orders in one file. */
export const EXTERNAL_ORDER_CSV_MAX_BYTES = 2 * 1024 * 1024;
export const EXTERNAL_ORDER_CSV_MAX_ROWS = 5000;

/** The columns of the pharmacy's CSV export (a header row names them; order free; the optional ones may be left out). */
export const EXTERNAL_ORDER_CSV_COLUMNS = {
  required: [
    'order_number',
    'pharmacy_patient_id',
    'first_name',
    'last_name',
    'dob',
    'drug_name',
    'quantity',
    'days_supply',
    'sig',
    'need_by_date',
  ],
  optional: [
    'phone',
    'mrn',
    'ndc',
    'strength',
    'times_per_day',
    'automation',
    'prescriber',
    'carrier',
    'tracking_number',
    'shipped_at',
    'delivered_at',
  ],
} as const;

const person = z.object({ id: z.number().int(), name: z.string() });

export const externalPatient = z.object({
  id: z.number().int(),
  pharmacy_patient_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string(),
  phone: z.string().nullable(),
  mrn: z.string().nullable(),
  /** The CareDeck patient it is linked to (null: waiting for staff to match it). */
  patient: z
    .object({
      id: z.number().int(),
      first_name: z.string(),
      last_name: z.string(),
      mrn: z.string().nullable(),
    })
    .nullable(),
});
export type ExternalPatient = z.infer<typeof externalPatient>;

export const externalOrder = z.object({
  id: z.number().int(),
  order_number: z.string(),
  status: externalOrderStatus,
  external_patient: externalPatient,
  drug_name: z.string(),
  ndc: z.string().nullable(),
  strength: z.string().nullable(),
  quantity: z.number().int(),
  days_supply: z.number().int(),
  sig: z.string(),
  times_per_day: z.number().int(),
  /** Servings (tablets, capsules) per dose, read from the sig. */
  per_dose: z.number().int(),
  /** Dose times (HH:MM) proposed from the sig, or as corrected by staff when the schedule was verified. */
  times: z.array(z.string()),
  need_by_date: z.string(),
  automation: z.boolean(),
  prescriber: z.string().nullable(),
  fill_verified_at: z.string().nullable(),
  schedule_verified_at: z.string().nullable(),
  finalized_at: z.string().nullable(),
  regimen_id: z.number().int().nullable(),
  equipment_file: z.string().nullable(),
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  created_at: z.string(),
});
export type ExternalOrder = z.infer<typeof externalOrder>;

const flag = z.enum(['0', '1', 'true', 'false']).optional();
const programQuery = z.object({ program_id: queryInt(1, Number.MAX_SAFE_INTEGER) });

export const externalOrdersQuery = pageQuery.extend({
  program_id: queryInt(1, Number.MAX_SAFE_INTEGER),
  /** Need-by date (YYYY-MM-DD). */
  date: line().max(40).optional(),
  /** Comma-separated statuses. */
  statuses: line().max(300).optional(),
  only_automation: flag,
  /** Only orders whose fill files and schedule are both verified (and not yet finalized). */
  verified_only: flag,
  /** Patient name, date of birth, MRN, pharmacy patient id or order number. */
  search: line().trim().max(100).default(''),
  /** Drug name or NDC. */
  searchDrug: line().trim().max(100).default(''),
  /** A CareDeck patient. */
  user_id: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
});
export type ExternalOrdersQuery = z.input<typeof externalOrdersQuery>;

export const externalOrderHistoryEntry = z.object({
  id: z.number().int(),
  from: externalOrderStatus.nullable(),
  to: externalOrderStatus,
  at: z.string(),
  by: person.nullable(),
  note: z.string().nullable(),
});
export type ExternalOrderHistoryEntry = z.infer<typeof externalOrderHistoryEntry>;

export const importResult = z.object({
  message: z.literal(EXTERNAL_ORDER_MESSAGES.imported),
  /** New orders stored. */
  imported: z.number().int(),
  /** Rows whose order number was already imported (left as they were). */
  duplicates: z.number().int(),
  /** Already imported orders whose shipment details the file brought (tracking, shipped, delivered). */
  updated: z.number().int(),
  /** New orders linked to a CareDeck patient straight away (one exact match). */
  matched: z.number().int(),
  /** Pharmacy patients of the file waiting for staff to match them. */
  unmatched_patients: z.number().int(),
});

/** One pod position of a fill file: what the packaging line puts into the pod of that dose time, each day. */
export const fillSlot = z.object({
  slot: z.number().int(),
  time: z.string(),
  items: z.array(
    z.object({
      order_id: z.number().int(),
      order_number: z.string(),
      drug_name: z.string(),
      strength: z.string().nullable(),
      ndc: z.string().nullable(),
      count: z.number().int(),
    }),
  ),
});

export const fillFiles = z.object({
  patient: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }),
  need_by_date: z.string(),
  /** First and last day the pods cover. */
  start_date: z.string(),
  end_date: z.string(),
  days: z.number().int(),
  pods: z.number().int(),
  slots: z.array(fillSlot),
  /** Orders left out of the pods (not filled by the automation line): dispensed as they are. */
  manual: z.array(z.object({ order_id: z.number().int(), order_number: z.string(), drug_name: z.string() })),
  /** Quantity checks: the quantity does not cover days' supply × doses × servings. */
  warnings: z.array(z.object({ order_id: z.number().int(), message: z.string() })),
  orders: z.array(externalOrder),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  verified_by: person.nullable(),
});
export type FillFiles = z.infer<typeof fillFiles>;

export const proposedRegimen = z.object({
  order_id: z.number().int(),
  order_number: z.string(),
  name: z.string(),
  sig: z.string(),
  times_per_day: z.number().int(),
  per_dose: z.number().int(),
  times: z.array(z.string()),
  start_date: z.string(),
  end_date: z.string(),
  status: externalOrderStatus,
  /** The active regimen of the patient this order will update (same drug), else a new one is created. */
  updates_regimen_id: z.number().int().nullable(),
});

export const regimensReview = z.object({
  patient: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }),
  need_by_date: z.string(),
  regimens: z.array(proposedRegimen),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  verified_by: person.nullable(),
});
export type RegimensReview = z.infer<typeof regimensReview>;

const timeOfDay = line().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'Use a time like 08:00.');

export const verifyRegimensBody = z.object({
  /** Corrected dose times per order (optional): as many as the sig asks for, distinct. */
  regimens: z
    .array(z.object({ order_id: bodyId, times: z.array(timeOfDay).min(1).max(6) }))
    .max(100)
    .default([]),
});
export type VerifyRegimensBody = z.input<typeof verifyRegimensBody>;

export const finalizeBody = z.object({
  program_id: bodyId,
  external_order_ids: z.array(bodyId).min(1, 'Choose at least one order.').max(500),
});

export const matchCandidate = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string().nullable(),
  mrn: z.string().nullable(),
  phone_number: z.string().nullable(),
  reasons: z.array(z.enum(['same_mrn', 'same_dob', 'similar_name', 'same_phone'])),
});
export type MatchCandidate = z.infer<typeof matchCandidate>;

const tags = ['external-orders'] as const;
const patientDate = z.object({ userId: idParam, needByDate: line().max(40) });

export const externalOrdersContract = {
  statuses: defineRoute({
    method: 'GET',
    path: '/api/v1/external_order_statuses',
    summary: "The order statuses in order, with how many of the program's orders hold each",
    tags,
    query: programQuery,
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            status: externalOrderStatus,
            label: z.string(),
            order: z.number().int(),
            orders: z.number().int(),
          }),
        ),
      }),
    },
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/v1/external_order_statuses/history/:orderId',
    summary: 'Every status change of an order: who, when, from and to',
    tags,
    params: z.object({ orderId: idParam }),
    responses: { 200: z.object({ data: z.array(externalOrderHistoryEntry) }) },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/external_orders',
    summary: "The program's external orders, filtered and paged (need-by date first)",
    tags,
    query: externalOrdersQuery,
    responses: { 200: paged(externalOrder) },
  }),
  tracking: defineRoute({
    method: 'GET',
    path: '/api/v1/external_orders/:id/tracking',
    summary: "An order's shipment: carrier, tracking number, equipment file and shipment events",
    tags,
    params: z.object({ id: idParam }),
    responses: {
      200: z.object({
        order_id: z.number().int(),
        order_number: z.string(),
        status: externalOrderStatus,
        carrier: z.string().nullable(),
        tracking_number: z.string().nullable(),
        shipped_at: z.string().nullable(),
        delivered_at: z.string().nullable(),
        equipment_file: z
          .object({
            name: z.string(),
            size: z.number().int(),
            rows: z.number().int(),
            created_at: z.string(),
          })
          .nullable(),
        events: z.array(externalOrderHistoryEntry),
      }),
    },
  }),
  fillFiles: defineRoute({
    method: 'GET',
    path: '/api/v1/external_orders/:userId/fill_files/:needByDate',
    summary: "The pod fill instructions for a patient's orders needed by a date",
    tags,
    params: patientDate,
    responses: { 200: fillFiles },
  }),
  verifyFillFiles: defineRoute({
    method: 'PUT',
    path: '/api/v1/external_orders/:userId/fill_files/:needByDate',
    summary: 'Mark the fill files verified',
    tags,
    params: patientDate,
    responses: {
      200: z.object({ message: z.literal(EXTERNAL_ORDER_MESSAGES.fillVerified), data: fillFiles }),
    },
  }),
  regimens: defineRoute({
    method: 'GET',
    path: '/api/v1/external_orders/:userId/regimens/:needByDate',
    summary: "The schedules proposed from the sigs of a patient's orders needed by a date",
    tags,
    params: patientDate,
    responses: { 200: regimensReview },
  }),
  verifyRegimens: defineRoute({
    method: 'PUT',
    path: '/api/v1/external_orders/:userId/regimens/:needByDate',
    summary:
      'Mark the schedules verified, with corrected dose times (a change of times asks for the fill files again)',
    tags,
    params: patientDate,
    body: verifyRegimensBody,
    responses: {
      200: z.object({
        message: z.literal(EXTERNAL_ORDER_MESSAGES.scheduleVerified),
        /** True when corrected times changed the pods: the fill files must be verified again. */
        fill_files_reset: z.boolean(),
        data: regimensReview,
      }),
    },
  }),
  matches: defineRoute({
    method: 'GET',
    path: '/api/v1/external_orders/users/:id/matches',
    summary: 'CareDeck patients of the program who may be this pharmacy patient, with why',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: z.object({ external_patient: externalPatient, data: z.array(matchCandidate) }) },
  }),
  merge: defineRoute({
    method: 'POST',
    path: '/api/v1/external_orders/users/:id/merge/:patientId',
    summary:
      'Link the pharmacy patient {id} (and all their orders) to the CareDeck patient {id2} (here :patientId)',
    tags,
    params: z.object({ id: idParam, patientId: idParam }),
    responses: {
      200: z.object({
        message: z.literal(EXTERNAL_ORDER_MESSAGES.merged),
        external_patient: externalPatient,
        orders: z.number().int(),
      }),
    },
  }),
  import: defineRoute({
    method: 'POST',
    path: '/api/v1/external_orders/import',
    summary:
      'Import the pharmacy CSV (multipart/form-data: program_id and file). All or nothing: a file with any bad row answers 422 with every row error (errors["rows.N.column"]) and stores nothing',
    tags,
    responses: { 201: importResult },
  }),
  finalize: defineRoute({
    method: 'PUT',
    path: '/api/v1/external_orders/finalize',
    summary:
      "Finalize verified orders: create or update the patients' regimens and write the equipment file, in one transaction",
    tags,
    body: finalizeBody,
    responses: {
      200: z.object({
        message: z.literal(EXTERNAL_ORDER_MESSAGES.finalized),
        regimen_ids: z.array(z.number().int()),
        equipment_files: z.array(
          z.object({ name: z.string(), rows: z.number().int(), orders: z.number().int() }),
        ),
        data: z.array(externalOrder),
      }),
    },
  }),
};
