import { z } from 'zod';
import { calendarDay, idParam, line, paged, pageQuery } from './common';
import { patientStatus } from './patients';
import { defineRoute } from './route';

/**
 * 02 §2 /status-logs (ADR 047): the log of patients' status changes in a program (or across an enterprise's
 * programs): who changed which patient's status, from what to what, how, why and when. 02 §7 names no call for
 * the screen; these two follow the program and enterprise lists (`programs/{p}/users`, `enterprises/{e}/patients`).
 */
export const STATUS_LOG_MESSAGES = {
  badDay: 'Use the format YYYY-MM-DD.',
  badRange: 'The end is before the start.',
  tooLong: 'Choose a period of at most 366 days.',
  programNotFound: 'Program not found',
} as const;

/** How a change was made: the patient enrolled with it, one patient's status set, several at once, a bulk action
 * approved, or the patient inactivated or activated. */
export const STATUS_CHANGE_SOURCES = ['enrolment', 'single', 'bulk', 'bulk_action', 'activation'] as const;
export const statusChangeSource = z.enum(STATUS_CHANGE_SOURCES);
export type StatusChangeSource = z.infer<typeof statusChangeSource>;

/** Default and longest period of the log, in days (UTC days, like the staff logs). */
export const STATUS_LOG_DEFAULT_DAYS = 30;
export const STATUS_LOG_MAX_DAYS = 366;

const day = calendarDay(STATUS_LOG_MESSAGES.badDay);
const person = z.object({ id: z.number().int(), name: z.string() });

export const statusLogEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string().nullable() }),
  program: z.object({ id: z.number().int(), name: z.string() }),
  /** Null when the patient was enrolled with the status (or the status before is not known). */
  from: patientStatus.nullable(),
  to: patientStatus,
  source: statusChangeSource,
  reason: z.string().nullable(),
  /** Null when no staff member made it (imports, the system). */
  changed_by: person.nullable(),
});
export type StatusLogEntry = z.infer<typeof statusLogEntry>;

export const statusLogQuery = pageQuery.extend({
  /** First and last day of the period (UTC); default the last 30 days, at most 366. */
  start: day.optional(),
  end: day.optional(),
  /** The status changed to. */
  status: patientStatus.optional(),
  /** The staff member who made the change. */
  admin_id: idParam.optional(),
  source: statusChangeSource.optional(),
  /** The patient: words of the first or last name, or the MRN. */
  search: line().trim().max(100).optional(),
});
export type StatusLogQuery = z.infer<typeof statusLogQuery>;

const tags = ['status-logs'] as const;

export const statusLogsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/status-logs',
    summary:
      "Status changes of the program's patients, newest first (start, end, status, admin_id, source, search; paged)",
    tags,
    params: z.object({ programId: idParam }),
    query: statusLogQuery,
    responses: { 200: paged(statusLogEntry) },
  }),
  enterpriseList: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/status-logs',
    summary:
      "Status changes across the enterprise's programs the caller sees (program_id narrows to one), newest first",
    tags,
    params: z.object({ enterpriseId: idParam }),
    query: statusLogQuery.extend({ program_id: idParam.optional() }),
    responses: { 200: paged(statusLogEntry) },
  }),
};
