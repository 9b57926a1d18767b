import { z } from 'zod';
import { calendarDay, idParam, line, paged, pageQuery } from './common';
import { defineRoute } from './route';

/**
 * 02 §7 "Logs" (ADR 039): what staff did in a program (the audit trail), day by day, the patients they worked
 * on, and their sign-ins and sign-outs. Program admins and enterprise admins read everyone's; staff their own.
 */
export const LOG_MESSAGES = {
  staffNotFound: 'Staff member not found',
  badRange: 'The end is before the start.',
} as const;

/** A calendar day (UTC), YYYY-MM-DD. */
const day = calendarDay('Use the format YYYY-MM-DD.');
const person = z.object({ id: z.number().int(), name: z.string() });

export const adminLogEntry = z.object({
  id: z.number().int(),
  admin: person.nullable(),
  action: z.string(),
  subject_type: z.string().nullable(),
  subject_id: z.number().int().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  at: z.string(),
});
export type AdminLogEntry = z.infer<typeof adminLogEntry>;

export const staffActivity = z.object({
  admin: person,
  actions: z.number().int(),
  patients: z.number().int(),
  minutes: z.number(),
  sign_ins: z.number().int(),
  last_at: z.string().nullable(),
});
export type StaffActivity = z.infer<typeof staffActivity>;

export const dayActivity = z.object({
  date: z.string(),
  actions: z.number().int(),
  patients: z.number().int(),
  /** Minutes on console pages (page-time sessions). */
  minutes: z.number(),
  first_at: z.string().nullable(),
  last_at: z.string().nullable(),
});
export type DayActivity = z.infer<typeof dayActivity>;

export const loginLogoutEntry = z.object({
  id: z.number().int(),
  login_at: z.string(),
  logout_at: z.string().nullable(),
  minutes: z.number().nullable(),
  ip: z.string().nullable(),
});
export type LoginLogoutEntry = z.infer<typeof loginLogoutEntry>;

const period = {
  start: day.optional(),
  end: day.optional(),
};
const tags = ['logs'] as const;
const P = z.object({ programId: idParam });
const PA = z.object({ programId: idParam, id: idParam });
// Dates in a path are checked by the service, so a bad one is a 422 naming it, not a 404.
const range = z.object({ programId: idParam, adminId: idParam, start: line().max(32), end: line().max(32) });

export const logsContract = {
  adminLogs: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/adminlogs',
    summary:
      "The program's staff actions, newest first (params: start, end (dates, UTC), admin_id, action prefix); summary=1: one row per staff member",
    tags,
    params: P,
    query: pageQuery.extend({
      ...period,
      admin_id: idParam.optional(),
      action: line().max(60).optional(),
      summary: z.enum(['0', '1']).optional(),
    }),
    responses: { 200: paged(z.union([adminLogEntry, staffActivity])) },
  }),
  adminLog: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/adminlogs/:id',
    summary:
      "One staff member's activity in the period (id: the staff member): totals and the latest actions",
    tags,
    params: PA,
    query: z.object(period),
    responses: {
      200: z.object({
        data: staffActivity.extend({
          by_action: z.record(z.string(), z.number().int()),
          latest: z.array(adminLogEntry),
        }),
      }),
    },
  }),
  dayWise: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/adminlogs/:id/daywise',
    summary:
      "One staff member's activity day by day (actions, patients, minutes on pages, first and last action)",
    tags,
    params: PA,
    query: z.object(period),
    responses: { 200: z.object({ data: z.array(dayActivity) }) },
  }),
  patientCounts: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/admins/:adminId/patient_counts/:start/:end',
    summary: 'How many patients the staff member worked on or viewed, per day and in all',
    tags,
    params: range,
    responses: {
      200: z.object({
        data: z.object({
          total: z.number().int(),
          days: z.array(z.object({ date: z.string(), patients: z.number().int() })),
        }),
      }),
    },
  }),
  loginLogoutLogs: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/admins/:adminId/login_logout_logs/:start/:end',
    summary: "The staff member's newest 500 sign-ins and sign-outs in the period, and the count of all",
    tags,
    params: range,
    responses: {
      200: z.object({
        data: z.array(loginLogoutEntry),
        /** Sign-ins in the period; `data` lists the newest 500 (issue 27). */
        total: z.number().int(),
      }),
    },
  }),
};
