import { z } from 'zod';
import { newPassword, PASSWORDS_DO_NOT_MATCH } from './auth';
import { bodyId, calendarDay, idParam, line, paged, pageQuery, queryInt, text } from './common';
import { PATIENT_STATUSES, patientStatus, SEXES } from './patients';
import { defineRoute } from './route';
import { statusChangeSource } from './status-logs';

/** OMB race categories (the values lists filter on). */
export const RACES = [
  'American Indian or Alaska Native',
  'Asian',
  'Black or African American',
  'Native Hawaiian or Other Pacific Islander',
  'White',
  'Other',
] as const;
export const ETHNICITIES = ['Hispanic or Latino', 'Not Hispanic or Latino'] as const;
/** Yearly household income brackets (US dollars), as RPM eligibility and SDOH screening ask them. */
export const INCOMES = ['under_25k', '25k_50k', '50k_75k', '75k_100k', 'over_100k', 'declined'] as const;
export const CONSENT_METHODS = ['written', 'verbal', 'electronic'] as const;
/** USPS codes of the states, DC and the inhabited territories. */
export const US_STATE_CODES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'AS',
  'GU',
  'MP',
  'PR',
  'VI',
] as const;

export const PATIENT_MESSAGES = {
  mrnTaken: 'This MRN is already used by another patient of this program.',
  notInProgram: 'User not found in current Program.',
  dobFuture: 'The date of birth cannot be in the future.',
  dobTooOld: 'The date of birth must be after 1900-01-01.',
  phone: 'Enter a 10-digit US phone number, or an international number starting with +.',
  zip: 'Enter a 5-digit ZIP code, or ZIP+4.',
  timeZone: 'Choose a time zone from the list.',
  consentDate: 'Give the date consent was obtained.',
  homeProgramKept: "The patient's home program cannot be removed here; change the program first.",
  oldProgram: 'The patient is no longer in this program; reload the record.',
  samePrograms: 'Choose a program other than the current one.',
  passwordSet: 'Password updated',
  codeSent: 'Verification code sent',
  noEmail: 'The patient has no e-mail address to send a code to. Add one to the profile first.',
  reasonTooLong: 'Keep the reason to at most 500 characters.',
} as const;

/** The longest reason a status change may carry (ADR 052). */
export const STATUS_REASON_MAX = 500;

const optionalLine = (max: number) =>
  line()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

const isoDate = calendarDay('Use the format YYYY-MM-DD.');

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}

/** A US number (10 digits, optional +1, any punctuation) becomes +1XXXXXXXXXX; + numbers keep their digits. */
export function normalisePhone(raw: string): string | null {
  const trimmed = raw.trim();
  const digits = trimmed.replace(/[\s().-]/g, '');
  if (/^\+[1-9]\d{7,14}$/.test(digits))
    return digits.startsWith('+1') && digits.length !== 12 ? null : digits;
  if (/^1?\d{10}$/.test(digits)) return `+1${digits.slice(-10)}`;
  return null;
}

/** An optional phone number, normalised to E.164 (`+1XXXXXXXXXX` for US numbers). */
const phone = line()
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
  .optional();

export const optionalPhone = phone;

const dob = isoDate
  .refine((v) => v >= '1900-01-01', PATIENT_MESSAGES.dobTooOld)
  .refine((v) => {
    const today = new Date().toISOString().slice(0, 10);
    return v <= today;
  }, PATIENT_MESSAGES.dobFuture);

/** The fields staff enter for a patient; create requires names, date of birth and sex. */
const patientFields = {
  first_name: line().trim().min(1, 'Enter the first name.').max(100),
  middle_name: optionalLine(100),
  last_name: line().trim().min(1, 'Enter the last name.').max(100),
  mrn: optionalLine(64),
  dob,
  sex: z.enum(SEXES),
  race: z.enum(RACES).nullable().optional(),
  ethnicity: z.enum(ETHNICITIES).nullable().optional(),
  income: z.enum(INCOMES).nullable().optional(),
  language: optionalLine(35),
  email: line()
    .trim()
    .toLowerCase()
    .max(254)
    .transform((v) => (v === '' ? null : v))
    .pipe(z.email('Enter a valid e-mail address.').nullable())
    .nullable()
    .optional(),
  phone_number: phone,
  address_line1: optionalLine(200),
  address_line2: optionalLine(200),
  city: optionalLine(100),
  state: z.enum(US_STATE_CODES).nullable().optional(),
  zip: line()
    .trim()
    .transform((v) => (v === '' ? null : v))
    .pipe(
      z
        .string()
        .regex(/^\d{5}(-\d{4})?$/, PATIENT_MESSAGES.zip)
        .nullable(),
    )
    .nullable()
    .optional(),
  time_zone: line().refine(validTimeZone, PATIENT_MESSAGES.timeZone).nullable().optional(),
  physician_id: bodyId.nullable().optional(),
  assigned_admin_id: bodyId.nullable().optional(),
  consent_at: isoDate.nullable().optional(),
  consent_method: z.enum(CONSENT_METHODS).nullable().optional(),
};

function consentComplete(v: { consent_at?: string | null; consent_method?: string | null }) {
  return !v.consent_method || Boolean(v.consent_at);
}

export const createPatientBody = z
  .object({ ...patientFields, status: patientStatus.optional() })
  .refine(consentComplete, { path: ['consent_at'], message: PATIENT_MESSAGES.consentDate });
export type CreatePatientBody = z.input<typeof createPatientBody>;
export type CreatePatientInput = z.output<typeof createPatientBody>;

export const updatePatientBody = z
  .object(patientFields)
  .partial()
  .refine(consentComplete, { path: ['consent_at'], message: PATIENT_MESSAGES.consentDate });
export type UpdatePatientBody = z.input<typeof updatePatientBody>;
export type UpdatePatientInput = z.output<typeof updatePatientBody>;

const person = z.object({ id: z.number().int(), name: z.string() }).nullable();
export const notificationSettings = z.object({
  sms: z.boolean(),
  email: z.boolean(),
  push: z.boolean(),
  voice: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

export const patientRecord = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  programs: z.array(z.object({ id: z.number().int(), name: z.string() })),
  mrn: z.string().nullable(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  name: z.string(),
  dob: z.string().nullable(),
  age: z.number().int().nullable(),
  sex: z.enum(SEXES),
  race: z.string().nullable(),
  ethnicity: z.string().nullable(),
  income: z.string().nullable(),
  language: z.string().nullable(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  time_zone: z.string().nullable(),
  physician: person,
  assigned_admin: person,
  consent_at: z.string().nullable(),
  consent_method: z.string().nullable(),
  status: patientStatus,
  active: z.boolean(),
  deactivated_at: z.string().nullable(),
  notification_settings: notificationSettings,
  has_app_password: z.boolean(),
  follow_up: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PatientRecord = z.infer<typeof patientRecord>;

/**
 * One change in the patient's status history, newest first: the status, when, by whom (null: no staff member),
 * how it was made and the reason given with it (ADR 052; null when none was), as the status log shows them.
 */
export const statusHistoryEntry = z.object({
  status: patientStatus,
  at: z.string(),
  by: person,
  source: statusChangeSource,
  reason: z.string().nullable(),
});
export type StatusHistoryEntry = z.infer<typeof statusHistoryEntry>;
export const patientStatusResponse = z.object({
  id: z.number().int(),
  status: patientStatus,
  active: z.boolean(),
  history: z.array(statusHistoryEntry),
});

export const duplicateQuery = z.object({
  first_name: line().trim().max(100).optional(),
  last_name: line().trim().max(100).optional(),
  dob: isoDate.optional(),
  email: line().trim().toLowerCase().max(254).optional(),
  phone_number: line().trim().max(32).optional(),
  mrn: line().trim().max(64).optional(),
});
export const duplicateMatch = z.object({
  id: z.number().int(),
  name: z.string(),
  dob: z.string().nullable(),
  mrn: z.string().nullable(),
  program: z.object({ id: z.number().int(), name: z.string() }),
  active: z.boolean(),
  reasons: z.array(z.enum(['name_dob', 'email', 'phone', 'mrn'])),
});
export type DuplicateMatch = z.infer<typeof duplicateMatch>;

export const patientSearchItem = z.object({
  id: z.number().int(),
  name: z.string(),
  mrn: z.string().nullable(),
  dob: z.string().nullable(),
  status: patientStatus,
  program: z.object({ id: z.number().int(), name: z.string() }),
});
export type PatientSearchItem = z.infer<typeof patientSearchItem>;

export const auditHistoryItem = z.object({
  id: z.number().int(),
  action: z.string(),
  actor: person,
  details: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type AuditHistoryItem = z.infer<typeof auditHistoryItem>;

const tags = ['patients'] as const;
const patientPath = z.object({ id: idParam });
const programPatientPath = z.object({ programId: idParam, id: idParam });
/** `0` names a patient not saved yet (the enrolment form); any other id is excluded from its own matches. */
const maybeNewPatientId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,15})$/, 'The id is invalid.')
  .transform(Number);
/**
 * Why the status changes (ADR 052): optional free text, trimmed; blank or null is the same as none. Kept in the
 * patient's status history and shown in the status log; it may name clinical facts, so it never reaches the audit
 * trail (the audit row says only that a reason was given).
 */
const statusReason = text()
  .trim()
  .max(STATUS_REASON_MAX, PATIENT_MESSAGES.reasonTooLong)
  .nullable()
  .optional()
  .transform((v) => (v ? v : undefined));
const statusValue = z.object({ value: z.enum(PATIENT_STATUSES), reason: statusReason });

/** Patient-app credentials: `type` '2' with a password sets it; other types (or none) resend a code. */
export const appPasswordBody = z
  .object({
    type: z.union([line().max(10), z.number().int()]).optional(),
    password: line().max(256).optional(),
    password_confirmation: line().max(256).optional(),
  })
  .superRefine((b, ctx) => {
    if (String(b.type) !== '2') return;
    const checked = newPassword.safeParse(b.password ?? '');
    if (!checked.success)
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', path: ['password'], message: issue.message });
    else if (b.password_confirmation !== undefined && b.password_confirmation !== b.password)
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: PASSWORDS_DO_NOT_MATCH });
  });
export type AppPasswordBody = z.input<typeof appPasswordBody>;
export const appCredentialResult = z.object({
  message: z.string(),
  /** 'password' when a password was set, 'code' when a code was sent. */
  action: z.enum(['password', 'code']),
  sent_to: z.string().nullable(),
});

/** The patient record (01 §7 "Patient lists", "Patient creation"; 02 §7 "Patients, users and settings"). */
export const patientRecordContract = {
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users',
    summary: 'Enrol a patient in the program',
    tags,
    params: z.object({ programId: idParam }),
    body: createPatientBody,
    responses: { 201: patientRecord },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id',
    summary: 'A patient of the program (the view is audited)',
    tags,
    params: programPatientPath,
    responses: { 200: patientRecord },
  }),
  checkExists: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:patientId/check-user-exist',
    summary:
      'Possible duplicates of a patient being entered (same name and birth date, e-mail, phone or MRN)',
    tags,
    params: z.object({ programId: idParam, patientId: maybeNewPatientId }),
    query: duplicateQuery,
    responses: { 200: z.object({ exists: z.boolean(), matches: z.array(duplicateMatch) }) },
  }),
  update: defineRoute({
    method: 'POST',
    path: '/api/v1/users/:id',
    summary: 'Edit a patient (only the fields sent change)',
    tags,
    params: patientPath,
    body: updatePatientBody,
    responses: { 200: patientRecord },
  }),
  changeProgram: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/:id/program',
    summary: 'Move a patient to another program (the home program changes; access follows it)',
    tags,
    params: patientPath,
    body: z.object({ old_program_id: bodyId, new_program_id: bodyId }),
    responses: { 200: patientRecord },
  }),
  setPrograms: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/:id/programs',
    summary: 'Set the programs a patient is enrolled in (the home program stays)',
    tags,
    params: patientPath,
    body: z.object({ programs: z.array(bodyId).min(1).max(50) }),
    responses: { 200: patientRecord },
  }),
  deactivate: defineRoute({
    method: 'DELETE',
    path: '/api/v1/users/:id',
    summary: 'Inactivate a patient (nothing is deleted)',
    tags,
    params: patientPath,
    query: z.object({ program_id: idParam.optional() }),
    responses: { 200: patientRecord },
  }),
  activate: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/:id/activate',
    summary: 'Activate an inactive patient',
    tags,
    params: patientPath,
    query: z.object({ program_id: idParam.optional() }),
    responses: { 200: patientRecord },
  }),
  notificationSettings: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/:id/settings/notifications',
    summary: 'Which channels may reach the patient',
    tags,
    params: patientPath,
    body: notificationSettings.partial(),
    responses: { 200: notificationSettings },
  }),
  /** 02 §4: type '2' sets the given password; any other type resends a verification code. */
  appPassword: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/:id/password',
    summary: "Set the patient-app password (type '2'), or resend the patient a verification code",
    tags,
    params: patientPath,
    body: appPasswordBody,
    responses: { 200: appCredentialResult },
  }),
  verificationCode: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/:id/verificationcode',
    summary: 'Send the patient a new verification code for the patient app (at most one a minute)',
    tags,
    params: patientPath,
    responses: { 200: appCredentialResult },
  }),
  setStatus: defineRoute({
    method: 'POST',
    path: '/api/v1/users/:id/status',
    tags,
    params: patientPath,
    body: statusValue,
    responses: { 200: patientStatusResponse },
  }),
  status: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/status',
    tags,
    params: patientPath,
    responses: { 200: patientStatusResponse },
  }),
  bulkStatus: defineRoute({
    method: 'POST',
    path: '/api/v1/users/bulk-status',
    summary: 'Set the status of many patients at once (all or none)',
    tags,
    body: statusValue.extend({ users_id: z.array(bodyId).min(1).max(1000) }),
    responses: { 200: z.object({ updated: z.number().int() }) },
  }),
  auditHistory: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:patientId/audit_history',
    summary: "Who viewed or changed the patient's record, newest first",
    tags,
    params: z.object({ programId: idParam, patientId: idParam }),
    query: pageQuery,
    responses: { 200: paged(auditHistoryItem) },
  }),
  profileViewed: defineRoute({
    method: 'PUT',
    path: '/api/v1/user/logs/profile_viewed/:id',
    summary: "Record that the signed-in user opened a patient's profile",
    tags,
    params: patientPath,
    responses: { 204: null },
  }),
  search: defineRoute({
    method: 'GET',
    path: '/api/v1/patients',
    summary: 'Patients of every program the user works in, by name, MRN or birth date (at most 20)',
    tags,
    query: z.object({ search: line().trim().max(100).default(''), limit: queryInt(1, 50).default(20) }),
    responses: { 200: z.object({ data: z.array(patientSearchItem) }) },
  }),
  allPatients: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/all-patients',
    summary:
      "Every patient of the program in one answer (id, names, MRN, birth date, status), for the console's instant search",
    tags,
    params: z.object({ programId: idParam }),
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            id: z.number().int(),
            first_name: z.string(),
            last_name: z.string(),
            mrn: z.string().nullable(),
            dob: z.string().nullable(),
            status: patientStatus,
          }),
        ),
        total: z.number().int(),
      }),
    },
  }),
};

/** USPS code → name, for pickers (shipped with the project: the console needs no outside service, ADR 019). */
export const US_STATE_NAMES: Record<(typeof US_STATE_CODES)[number], string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  AS: 'American Samoa',
  GU: 'Guam',
  MP: 'Northern Mariana Islands',
  PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands',
};

/** The US time zones a patient can live in (IANA names), east to west. */
export const US_TIME_ZONES = [
  'America/Puerto_Rico',
  'America/New_York',
  'America/Detroit',
  'America/Indiana/Indianapolis',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Boise',
  'America/Los_Angeles',
  'America/Anchorage',
  'America/Adak',
  'Pacific/Honolulu',
  'Pacific/Guam',
  'Pacific/Pago_Pago',
] as const;
