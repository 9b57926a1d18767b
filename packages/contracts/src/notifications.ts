import { z } from 'zod';
import { bodyId, calendarDay, idParam, line, paged, pageQuery, text } from './common';
import { defineRoute } from './route';

/** 01 §3/§7 Notification and Audio assignment; the staff notification bell. ADR 032. */
export const PATIENT_NOTIFICATION_TYPES = ['sms', 'email', 'push'] as const;
export type PatientNotificationType = (typeof PATIENT_NOTIFICATION_TYPES)[number];

/** A staff notification of the messenger (mention, urgent message, added to a conversation): the bell lists them. */
export const messengerNotification = z.object({
  id: z.number().int(),
  kind: z.enum(['mention', 'urgent', 'added']),
  conversation_id: z.number().int(),
  conversation_name: z.string(),
  message_id: z.number().int().nullable(),
  from_name: z.string(),
  preview: z.string(),
  read: z.boolean(),
  created_at: z.string(),
});
export type MessengerNotification = z.infer<typeof messengerNotification>;

export const NOTIFICATION_MESSAGES = {
  sent: 'Notification sent',
  notOptedIn:
    'The patient has not opted in to this kind of notification. Confirm they agree (opted_in) to send it.',
  noPhone: 'The patient has no mobile phone number.',
  noEmail: 'The patient has no e-mail address.',
  audiosAssigned: 'Audios Assigned!',
  audiosFailed: 'Failed Fetching Audios, Try again later',
  unknownAudio: 'Choose audios from the library.',
  unknownPatients: 'Some of the patients are not in this program.',
  read: 'Marked as read',
  scheduled: 'Reminder scheduled',
  stopped: 'Reminder stopped',
  scheduleNotFound: 'Reminder not found',
  noMoreDays: 'The reminder would never be sent: choose weekdays between the first and the last day.',
} as const;

export const patientNotification = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  type: z.enum(PATIENT_NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  status: z.enum(['queued', 'sent', 'delivered', 'failed', 'blocked']),
  sent_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type PatientNotification = z.infer<typeof patientNotification>;

export const audio = z.object({
  id: z.number().int(),
  name: z.string(),
  language: z.string(),
  duration_seconds: z.number().int(),
});
export type Audio = z.infer<typeof audio>;

export const audioAssignment = z.object({
  id: z.number().int(),
  audio: z.object({ id: z.number().int(), name: z.string(), language: z.string() }),
  start_date: z.string(),
  /** The last day it plays: start_date + times - 1. */
  end_date: z.string(),
  at_time: z.string(),
  times: z.number().int(),
  assigned_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type AudioAssignment = z.infer<typeof audioAssignment>;

export const notificationSchedule = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  type: z.enum(PATIENT_NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  time: z.string(),
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  days: z.array(z.number().int()),
  start_date: z.string(),
  end_date: z.string().nullable(),
  /** When it is sent next (the patient's time zone applied); null when it is done or stopped. */
  next_at: z.string().nullable(),
  sent: z.number().int(),
  active: z.boolean(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type NotificationSchedule = z.infer<typeof notificationSchedule>;

const tags = ['notifications'] as const;
const patientParams = z.object({ programId: idParam, id: idParam });
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const notificationsContract = {
  send: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/notifications',
    summary: 'Send the patient a notification by SMS, e-mail or push (only on a channel they opted in to)',
    tags,
    params: patientParams,
    body: z.object({
      type: z.enum(PATIENT_NOTIFICATION_TYPES),
      title: line().trim().min(1, 'Enter a title.').max(120),
      body: text().trim().min(1, 'Write the notification.').max(1000),
      opted_in: z.boolean().default(false),
    }),
    responses: { 201: z.object({ message: z.string(), data: patientNotification }) },
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/notifications_history',
    summary: 'Notifications sent to the patient, newest first, with their delivery state',
    tags,
    params: patientParams,
    query: pageQuery,
    responses: { 200: paged(patientNotification) },
  }),
  staff: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/admins/notifications',
    summary:
      "The signed-in staff member's notifications in the program (the bell): mentions, urgent messages, being added",
    tags,
    params: z.object({ programId: idParam }),
    responses: { 200: z.object({ data: z.array(messengerNotification), unread: z.number().int() }) },
  }),
  readAt: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/admins/notifications/reading_at',
    summary: 'Mark some of your notifications read (notification_ids, comma-separated)',
    tags,
    params: z.object({ programId: idParam }),
    query: z.object({
      notification_ids: line()
        .max(2000)
        .regex(/^\d{1,15}(,\d{1,15})*$/, 'Give notification ids separated by commas.')
        .transform((v) => v.split(',').map(Number)),
    }),
    responses: { 200: z.object({ message: z.string(), count: z.number().int() }) },
  }),
  audios: defineRoute({
    method: 'GET',
    path: '/api/v1/audio',
    summary: 'The library of audio reminders that can be assigned to patients',
    tags,
    responses: { 200: z.object({ data: z.array(audio) }) },
  }),
  schedule: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/schedules',
    summary:
      "Schedule a recurring reminder to the patient: a notification on some weekdays at a time of the patient's day",
    tags,
    params: patientParams,
    body: z
      .object({
        type: z.enum(PATIENT_NOTIFICATION_TYPES),
        title: line().trim().min(1, 'Enter a title.').max(120),
        body: text().trim().min(1, 'Write the reminder.').max(1000),
        time: line().regex(TIME, 'Enter the time as HH:MM.'),
        days: z
          .array(z.number().int().min(1).max(7))
          .min(1, 'Choose at least one weekday.')
          .max(7)
          .transform((d) => [...new Set(d)].sort()),
        start_date: calendarDay('Enter the date as YYYY-MM-DD.'),
        end_date: calendarDay('Enter the date as YYYY-MM-DD.').nullable().default(null),
      })
      .refine((v) => v.end_date === null || v.end_date >= v.start_date, {
        message: 'The last day must be on or after the first.',
        path: ['end_date'],
      }),
    responses: { 201: z.object({ message: z.string(), data: notificationSchedule }) },
  }),
  schedules: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/schedules',
    summary: "The patient's reminders, the active ones first",
    tags,
    params: patientParams,
    responses: { 200: z.object({ data: z.array(notificationSchedule) }) },
  }),
  stopSchedule: defineRoute({
    method: 'DELETE',
    path: '/api/v1/programs/:programId/users/:id/schedules/:scheduleId',
    summary: 'Stop a reminder (it is kept, stopped, with what it sent)',
    tags,
    params: patientParams.extend({ scheduleId: idParam }),
    responses: { 200: z.object({ message: z.string(), data: notificationSchedule }) },
  }),
  audioAssignments: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/notifications/audio',
    summary: "The patient's audio reminders, latest start first (the ones still playing or to come first)",
    tags,
    params: patientParams,
    responses: { 200: z.object({ data: z.array(audioAssignment) }) },
  }),
  assignAudio: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/notifications/audio',
    summary: 'Assign audio reminders to patients: from date at time, every day, numToEnd times',
    tags,
    params: z.object({ programId: idParam }),
    body: z.object({
      date: calendarDay('Enter the date as YYYY-MM-DD.'),
      time: line().regex(TIME, 'Enter the time as HH:MM.'),
      numToEnd: z.number().int().min(1, 'At least once.').max(365),
      patientIds: z.array(bodyId).min(1, 'Choose at least one patient.').max(1000),
      audioIds: z.array(bodyId).min(1, 'Choose at least one audio.').max(20),
    }),
    responses: { 201: z.object({ message: z.string(), assigned: z.number().int() }) },
  }),
};
