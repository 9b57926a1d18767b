import { z } from 'zod';
import { bodyId, calendarDay, idParam, line, paged, pageQuery, queryInt } from './common';
import { defineRoute } from './route';

/**
 * Reports (02 §7 "Reports"; ADR 043): report definitions of a program (one-off or recurring, care or pharma),
 * their runs (files generated in the background, delivered to an enterprise's SFTP destination when one is
 * chosen), failed runs and retries; the patient reports (one patient's PDF, or the program's patients as a PDF
 * or a CSV generated in the background, cancellable and checkable); and the patient list download.
 */
export const REPORT_MESSAGES = {
  created: 'Report Requested',
  paused: 'Report Recurrence Paused',
  resumed: 'Report Recurrence Resumed',
  stopped: 'Report Recurrence Stopped',
  retried: 'Report Retry Queued',
  uploaded: 'File Uploaded',
  csvStarted: 'Patients CSV Generation Started',
  csvCancelled: 'Patients CSV Generation Cancelled',
  pdfQueued: 'Patient Report Requested',
  notRecurring: 'This report does not recur.',
  stoppedAlready: 'The recurrence of this report is stopped.',
  customRecurring: 'A recurring report covers a moving period: choose one of the presets.',
  datesNeeded: 'Give the start and end of a custom period.',
  periodOrder: 'The end date must be on or after the start date.',
  periodTooLong: 'Choose a period of at most 366 days.',
  wrongAudience: 'This report type is not available here.',
  notRunning: 'Only a generation in progress can be cancelled.',
  nothingToRetry: 'Nothing failed to retry.',
} as const;

export const REPORT_AUDIENCES = ['care', 'pharma'] as const;
export const REPORT_TYPES = [
  'patient_roster',
  'adherence_summary',
  'readings_summary',
  'alerts_summary',
  'billing_summary',
  'pharma_adherence',
  'pharma_regimens',
] as const;
export const reportType = z.enum(REPORT_TYPES);
export type ReportType = z.infer<typeof reportType>;

/** Which types are care reports (patient-level, PHI) and which are pharma reports (per medication, no PHI). */
export const REPORT_AUDIENCE: Record<ReportType, (typeof REPORT_AUDIENCES)[number]> = {
  patient_roster: 'care',
  adherence_summary: 'care',
  readings_summary: 'care',
  alerts_summary: 'care',
  billing_summary: 'care',
  pharma_adherence: 'pharma',
  pharma_regimens: 'pharma',
};

export const REPORT_FORMATS = ['xlsx', 'csv'] as const;
export const reportFormat = z.enum(REPORT_FORMATS);
export const REPORT_PERIODS = ['last_7_days', 'last_30_days', 'last_month', 'custom'] as const;
export const reportPeriod = z.enum(REPORT_PERIODS);
export const RECURRENCES = ['none', 'daily', 'weekly', 'monthly'] as const;
export const recurrence = z.enum(RECURRENCES);
export const RECURRENCE_STATES = ['running', 'paused', 'stopped'] as const;
export const RUN_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const runStatus = z.enum(RUN_STATUSES);
export const DELIVERY_STATUSES = ['none', 'pending', 'sending', 'sent', 'failed'] as const;
/** The failures a report can list and retry (`type` of the failed and retry calls). */
export const FAILURE_TYPES = ['generation', 'delivery'] as const;
export const failureType = z.enum(FAILURE_TYPES);
/** Longest custom period, in days. */
export const REPORT_MAX_DAYS = 366;
/** Largest file sent to a destination by hand (sftp-file), in bytes. */
export const SFTP_MAX_BYTES = 20 * 1024 * 1024;

const day = calendarDay('Use the format YYYY-MM-DD.');

export const reportTypeInfo = z.object({
  type: reportType,
  audience: z.enum(REPORT_AUDIENCES),
  name: z.string(),
  description: z.string(),
  formats: z.array(reportFormat),
});
export type ReportTypeInfo = z.infer<typeof reportTypeInfo>;

export const reportRun = z.object({
  id: z.number().int(),
  status: runStatus,
  period_start: z.string(),
  period_end: z.string(),
  file_name: z.string().nullable(),
  bytes: z.number().int().nullable(),
  rows: z.number().int().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  delivery: z.enum(DELIVERY_STATUSES),
  delivery_error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Download of the file when the run is done. */
  url: z.string().nullable(),
});
export type ReportRun = z.infer<typeof reportRun>;

export const report = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  enterprise_id: z.number().int().nullable(),
  name: z.string(),
  type: reportType,
  audience: z.enum(REPORT_AUDIENCES),
  format: reportFormat,
  period: reportPeriod,
  start: z.string().nullable(),
  end: z.string().nullable(),
  recurrence: recurrence,
  recurrence_state: z.enum(RECURRENCE_STATES),
  next_run_at: z.string().nullable(),
  destination: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  user: z.object({ id: z.number().int(), name: z.string() }),
  created_at: z.string(),
  last_run: reportRun.nullable(),
  failed_runs: z.number().int(),
  /** The newest finished file's download, if any (02 §7 "response has url"). */
  url: z.string().nullable(),
});
export type Report = z.infer<typeof report>;

export const reportDetail = report.extend({ runs: z.array(reportRun) });

export const newReport = z
  .object({
    type: reportType,
    name: line().trim().max(120).optional(),
    format: reportFormat.default('xlsx'),
    period: reportPeriod.default('last_30_days'),
    start: day.optional().nullable(),
    end: day.optional().nullable(),
    recurrence: recurrence.default('none'),
    destination_id: bodyId.optional().nullable(),
  })
  .superRefine((v, ctx) => {
    if (v.period === 'custom') {
      if (!v.start) ctx.addIssue({ code: 'custom', path: ['start'], message: REPORT_MESSAGES.datesNeeded });
      if (!v.end) ctx.addIssue({ code: 'custom', path: ['end'], message: REPORT_MESSAGES.datesNeeded });
      if (v.recurrence !== 'none')
        ctx.addIssue({ code: 'custom', path: ['recurrence'], message: REPORT_MESSAGES.customRecurring });
    }
  });
export type NewReport = z.input<typeof newReport>;

export const reportListQuery = pageQuery.extend({
  user_id: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
  type: reportType.optional(),
  enterprise_id: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
  audience: z.enum(REPORT_AUDIENCES).optional(),
});

const programParams = z.object({ programId: idParam });
const reportParams = z.object({ programId: idParam, reportId: idParam });
const enterpriseReportParams = z.object({ enterpriseId: idParam, reportId: idParam });

/** An SSH host key fingerprint as `ssh-keygen -lf` prints it: `SHA256:` and 43 base64 characters. */
export const HOST_KEY_PATTERN = /^SHA256:[A-Za-z0-9+/]{43}$/;
const hostKey = line()
  .trim()
  .regex(HOST_KEY_PATTERN, 'Give the fingerprint as SHA256:… (ssh-keygen -lf prints it).');

export const destination = z.object({
  id: z.number().int(),
  enterprise_id: z.number().int(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  directory: z.string(),
  /** The server's host key every connection must present; null until the first connection pins it. */
  host_key: z.string().nullable(),
  created_at: z.string(),
});
export type ReportDestination = z.infer<typeof destination>;

export const newDestination = z.object({
  name: line().trim().min(1, 'Give the destination a name.').max(80),
  host: line()
    .trim()
    .min(1, 'Give the server name.')
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$/, 'Use a host name or an IP address.'),
  port: z.number().int().min(1).max(65535).default(22),
  username: line().trim().min(1, 'Give the user name.').max(64),
  password: line().min(1, 'Give the password.').max(256),
  directory: line()
    .trim()
    .max(200)
    .regex(/^[A-Za-z0-9._/-]*$/, 'Use letters, digits, dots, dashes and slashes.')
    .refine((v) => !v.split('/').includes('..'), 'The folder cannot go up with "..".')
    .default(''),
  /** Pins the server's key from the start; without it the first connection pins the key it sees. */
  host_key: hostKey.nullable().optional(),
});

/** `{userId or null}` of the patient report paths: a patient, or the literal `null` for the whole program. */
const patientOrNull = z.union([z.literal('null').transform(() => null), idParam]);
const patientReportParams = z.object({ programId: idParam, userId: patientOrNull });

export const patientReport = z.object({
  id: z.number().int(),
  kind: z.enum(['patient_pdf', 'patients_pdf', 'patients_csv']),
  patient_id: z.number().int().nullable(),
  status: runStatus,
  period_start: z.string(),
  period_end: z.string(),
  file_name: z.string().nullable(),
  bytes: z.number().int().nullable(),
  rows: z.number().int().nullable(),
  error: z.string().nullable(),
  user: z.object({ id: z.number().int(), name: z.string() }),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  url: z.string().nullable(),
});
export type PatientReport = z.infer<typeof patientReport>;

export const patientReportBody = z
  .object({ start: day.optional().nullable(), end: day.optional().nullable() })
  .default({});

const tags = ['reports'] as const;

export const reportsContract = {
  types: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/report/types',
    summary: 'The report types the caller may request in the program, care and pharma',
    tags,
    params: programParams,
    responses: { 200: z.object({ data: z.array(reportTypeInfo) }) },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/report',
    summary:
      'Reports of the program, newest first (page 1, 10 per page by default; user_id, type, enterprise_id, audience)',
    tags,
    params: programParams,
    query: reportListQuery,
    responses: { 200: paged(report) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/report',
    summary: 'Request a care report (one-off or recurring); its first run is queued at once',
    tags,
    params: programParams,
    body: newReport,
    responses: { 201: reportDetail },
  }),
  createPharma: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/report-pharma',
    summary: 'Request a pharma report (per medication, no patient identifiers)',
    tags,
    params: programParams,
    body: newReport,
    responses: { 201: reportDetail },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/report/:reportId',
    summary: 'One report with its recent runs; url is the newest finished file',
    tags,
    params: reportParams,
    responses: { 200: reportDetail },
  }),
  file: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/report/:reportId/runs/:runId/file',
    summary: 'The file of a finished run',
    tags,
    params: z.object({ programId: idParam, reportId: idParam, runId: idParam }),
    responses: { 200: null },
    file: { contentType: 'application/octet-stream' },
  }),
  failed: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/report/:reportId/failed',
    summary: 'Failed runs of a report: generation or delivery failures (type), newest first',
    tags,
    params: reportParams,
    query: z.object({ type: failureType.optional() }),
    responses: { 200: z.object({ data: z.array(reportRun) }) },
  }),
  retry: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/report/:reportId/retry',
    summary: 'Queue the failed runs of a report again (type: generation or delivery; both when absent)',
    tags,
    params: reportParams,
    query: z.object({ type: failureType.optional() }),
    responses: { 200: z.object({ message: z.string(), retried: z.number().int() }) },
  }),
  pause: defineRoute({
    method: 'POST',
    path: '/api/v1/enterprises/:enterpriseId/reports/pause-recurrance/:reportId',
    summary: 'Pause a running recurrence, or resume a paused one (a toggle)',
    tags,
    params: enterpriseReportParams,
    responses: { 200: z.object({ message: z.string(), report }) },
  }),
  stop: defineRoute({
    method: 'POST',
    path: '/api/v1/enterprises/:enterpriseId/reports/stop-recurrance/:reportId',
    summary: 'Stop a recurrence for good (the runs made stay)',
    tags,
    params: enterpriseReportParams,
    responses: { 200: z.object({ message: z.string(), report }) },
  }),
  sftpFile: defineRoute({
    method: 'POST',
    path: '/api/v1/enterprises/:enterpriseId/reports/sftp-file',
    summary:
      "Send a file to one of the enterprise's SFTP destinations (multipart/form-data: report_destination_id, file)",
    tags,
    params: z.object({ enterpriseId: idParam }),
    responses: {
      200: z.object({
        message: z.string(),
        destination_id: z.number().int(),
        remote_path: z.string(),
        bytes: z.number().int(),
      }),
    },
  }),
  destinations: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/reports/destinations',
    summary: "The enterprise's SFTP destinations (passwords are never returned)",
    tags,
    params: z.object({ enterpriseId: idParam }),
    responses: { 200: z.object({ data: z.array(destination) }) },
  }),
  createDestination: defineRoute({
    method: 'POST',
    path: '/api/v1/enterprises/:enterpriseId/reports/destinations',
    summary: 'Add an SFTP destination (enterprise administrators; the password is stored encrypted)',
    tags,
    params: z.object({ enterpriseId: idParam }),
    body: newDestination,
    responses: { 201: destination },
  }),
  setDestinationHostKey: defineRoute({
    method: 'PUT',
    path: '/api/v1/enterprises/:enterpriseId/reports/destinations/:destinationId/host-key',
    summary:
      "Trust a destination server's new host key (after the server was re-keyed), or clear it so the next connection pins the key it sees",
    tags,
    params: z.object({ enterpriseId: idParam, destinationId: idParam }),
    body: z.object({ host_key: hostKey.nullable() }),
    responses: { 200: destination },
  }),
  deleteDestination: defineRoute({
    method: 'DELETE',
    path: '/api/v1/enterprises/:enterpriseId/reports/destinations/:destinationId',
    summary: 'Remove an SFTP destination; reports that used it fall back to download only',
    tags,
    params: z.object({ enterpriseId: idParam, destinationId: idParam }),
    responses: { 204: null },
  }),
  generatePatientReport: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/patients-report/generate/:userId',
    summary:
      "Queue a PDF report: one patient's (userId), or the program's patients on one PDF (the literal null)",
    tags,
    params: patientReportParams,
    body: patientReportBody,
    responses: { 201: z.object({ message: z.string(), report: patientReport }) },
  }),
  patientReports: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/patients-report/:userId',
    summary:
      "Patient reports generated: one patient's (userId), or the program-wide ones (null); newest first",
    tags,
    params: patientReportParams,
    responses: { 200: z.object({ data: z.array(patientReport) }) },
  }),
  patientReportFile: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/patients-report/files/:id',
    summary: 'The file of a finished patient report',
    tags,
    params: z.object({ programId: idParam, id: idParam }),
    responses: { 200: null },
    file: { contentType: 'application/octet-stream' },
  }),
  generateCsv: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/patients-report/generate-csv',
    summary:
      "Start the program's patients CSV in the background (one at a time per user: a generation in progress is returned)",
    tags,
    params: programParams,
    body: patientReportBody,
    responses: { 201: z.object({ message: z.string(), report: patientReport }) },
  }),
  cancelCsv: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/patients-report/cancel-csv/:id',
    summary: 'Cancel a patients CSV that is still being generated',
    tags,
    params: z.object({ programId: idParam, id: idParam }),
    responses: { 200: z.object({ message: z.string(), report: patientReport }) },
  }),
  checkCsv: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/patients-report/check-csv-generation',
    summary:
      "The caller's latest patients CSV of the program: generating, done (with url), failed or cancelled",
    tags,
    params: programParams,
    responses: { 200: z.object({ report: patientReport.nullable() }) },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/api/v1/users/download',
    summary:
      "The program's patients as they stand today, as .xlsx (program_id), stamped patients_YYYY_MM_DD_HH_mm_report.xlsx",
    tags,
    query: z.object({ program_id: queryInt(1, Number.MAX_SAFE_INTEGER) }),
    responses: { 200: null },
    file: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  }),
};
