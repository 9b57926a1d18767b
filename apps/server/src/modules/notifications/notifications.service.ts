import {
  NOTIFICATION_MESSAGES as M,
  normalisePhone,
  type PatientNotificationType,
  pageOf,
} from '@caredeck/contracts';
import { nextReminder, resolveDisplayZone } from '@caredeck/domain';
import type { StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { enqueueEmail } from '../../platform/outbox/outbox';
import { notificationsOf as staffNotifications } from '../messenger/messenger.queries';
import { isOptedOut, queueSms } from '../sms/sms.queries';
import {
  advanceSchedule,
  audioAssignmentsOf,
  audioLibrary,
  dueSchedules,
  insertAudioAssignments,
  insertNotification,
  insertSchedule,
  knownAudios,
  notificationPatient,
  notificationsOf,
  optIn,
  patientsInProgram,
  patientZone,
  readStaffNotifications,
  schedulesOf,
  stopSchedule,
} from './notifications.queries';

function programOf(actor: StaffActor) {
  if (!actor.program) throw new Error('a notification use case needs the program the access hook resolved');
  return actor.program.id;
}

type Recipient = NonNullable<Awaited<ReturnType<typeof notificationPatient>>>;

function phoneOf(patient: Recipient): string | null {
  return patient.phone_number ? (normalisePhone(patient.phone_number) ?? patient.phone_number) : null;
}

/** A channel the patient can be reached on and agreed to (or agrees to now): 422 otherwise. */
function checkChannel(patient: Recipient, type: PatientNotificationType, optedInNow: boolean) {
  if (type === 'sms' && !phoneOf(patient)) throw AppError.validation({ type: [M.noPhone] });
  if (type === 'email' && !patient.email) throw AppError.validation({ type: [M.noEmail] });
  if (!patient.settings?.[type] && !optedInNow) throw AppError.validation({ opted_in: [M.notOptedIn] });
}

/**
 * Sends one notification inside the caller's transaction: SMS through the outbox (blocked when the number
 * opted out), e-mail through the mail outbox, push queued for the patient app; the notification row keeps it.
 */
async function deliver(
  tx: Queryable,
  n: {
    programId: number;
    patientId: number;
    patient: Recipient;
    type: PatientNotificationType;
    title: string;
    body: string;
    sentBy: number | null;
  },
): Promise<number> {
  const phone = phoneOf(n.patient);
  let smsId: number | null = null;
  let status = 'queued';
  if (n.type === 'sms' && phone) {
    smsId = await queueSms(tx, {
      programId: n.programId,
      patientId: n.patientId,
      phone,
      body: `${n.title}: ${n.body}`,
      kind: 'notification',
      sentBy: n.sentBy,
    });
    if (await isOptedOut(tx, phone)) status = 'blocked';
  } else if (n.type === 'email' && n.patient.email) {
    await enqueueEmail(tx, {
      to: n.patient.email,
      subject: n.title,
      text: `Hello ${n.patient.first_name},\n\n${n.body}\n\nYour care team`,
      template: 'patient_notification',
    });
    status = 'sent';
  }
  return insertNotification(tx, {
    programId: n.programId,
    patientId: n.patientId,
    type: n.type,
    title: n.title,
    body: n.body,
    status,
    smsMessageId: smsId,
    sentBy: n.sentBy,
  });
}

export function createNotificationsService(deps: { db: Database; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  return {
    /**
     * Sends a notification on one channel, only if the patient opted in to it (or the sender confirms they
     * just did: `opted_in`, which turns the channel on). SMS goes through the outbox, e-mail through the
     * mail outbox; push waits for the patient app.
     */
    async send(
      actor: StaffActor,
      patientId: number,
      input: { type: PatientNotificationType; title: string; body: string; opted_in: boolean },
    ) {
      const programId = programOf(actor);
      const patient = await notificationPatient(db, patientId, programId);
      if (!patient) throw AppError.notFound();
      checkChannel(patient, input.type, input.opted_in);
      const id = await db.transaction(async (tx) => {
        if (input.opted_in) await optIn(tx, patientId, input.type);
        const created = await deliver(tx, { programId, patientId, patient, ...input, sentBy: actor.adminId });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'patient.notification.send',
          subjectType: 'patient',
          subjectId: patientId,
          details: { notification_id: created, type: input.type, opted_in: input.opted_in },
          ip: actor.ip,
        });
        return created;
      });
      const [data] = (await notificationsOf(db, patientId, { id, page: 1, perPage: 1 })).rows;
      return { message: M.sent, data: data! };
    },

    /** A recurring reminder; the channel must be one the patient agreed to (as for a single notification). */
    async schedule(
      actor: StaffActor,
      patientId: number,
      input: {
        type: PatientNotificationType;
        title: string;
        body: string;
        time: string;
        days: number[];
        start_date: string;
        end_date: string | null;
      },
    ) {
      const programId = programOf(actor);
      const patient = await notificationPatient(db, patientId, programId);
      if (!patient) throw AppError.notFound();
      checkChannel(patient, input.type, false);
      const zone = resolveDisplayZone(await patientZone(db, patientId));
      const rule = {
        time: input.time,
        days: input.days,
        startDate: input.start_date,
        endDate: input.end_date,
      };
      const nextAt = nextReminder(rule, zone, now());
      if (nextAt === null) throw AppError.validation({ days: [M.noMoreDays] });
      const id = await db.transaction(async (tx) => {
        const created = await insertSchedule(tx, {
          programId,
          patientId,
          type: input.type,
          title: input.title,
          body: input.body,
          time: input.time,
          days: input.days,
          startDate: input.start_date,
          endDate: input.end_date,
          nextAt,
          createdBy: actor.adminId,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'patient.notification.schedule',
          subjectType: 'patient',
          subjectId: patientId,
          details: { schedule_id: created, type: input.type, days: input.days },
          ip: actor.ip,
        });
        return created;
      });
      return { message: M.scheduled, data: (await schedulesOf(db, programId, patientId, id))[0]! };
    },

    async schedules(actor: StaffActor, patientId: number) {
      const programId = programOf(actor);
      if (!(await notificationPatient(db, patientId, programId))) throw AppError.notFound();
      return { data: await schedulesOf(db, programId, patientId) };
    },

    async stopSchedule(actor: StaffActor, patientId: number, scheduleId: number) {
      const programId = programOf(actor);
      if (!(await stopSchedule(db, scheduleId, programId, patientId, actor.adminId)))
        throw AppError.notFound(M.scheduleNotFound);
      return { message: M.stopped, data: (await schedulesOf(db, programId, patientId, scheduleId))[0]! };
    },

    /**
     * Sends the reminders that are due (each at most once per firing, whatever the number of processes:
     * rows are locked and skipped) and moves each to its next firing in the patient's zone. A patient who
     * has since turned the channel off is not sent it; the reminder moves on.
     */
    async sendDue(batch = 200): Promise<number> {
      const current = now();
      return db.transaction(async (tx) => {
        const due = await dueSchedules(tx, new Date(current), batch);
        let sent = 0;
        for (const s of due) {
          const patient = await notificationPatient(tx, s.patient_id, s.program_id);
          const reachable =
            patient !== null &&
            (() => {
              try {
                checkChannel(patient, s.type, false);
                return true;
              } catch {
                return false;
              }
            })();
          if (patient && reachable) {
            await deliver(tx, {
              programId: s.program_id,
              patientId: s.patient_id,
              patient,
              type: s.type,
              title: s.title,
              body: s.body,
              sentBy: null,
            });
            sent++;
          }
          const zone = resolveDisplayZone(s.time_zone);
          const rule = { time: s.time, days: s.days, startDate: s.start_date, endDate: s.end_date };
          await advanceSchedule(tx, s.id, nextReminder(rule, zone, current), reachable);
        }
        return sent;
      });
    },

    async history(actor: StaffActor, patientId: number, q: { page: number; per_page: number }) {
      const programId = programOf(actor);
      if (!(await notificationPatient(db, patientId, programId))) throw AppError.notFound();
      const res = await notificationsOf(db, patientId, { page: q.page, perPage: q.per_page });
      return pageOf(res.rows, q, res.total);
    },

    async staff(actor: StaffActor) {
      return staffNotifications(db, actor.adminId, false, programOf(actor));
    },

    async readAt(actor: StaffActor, ids: number[]) {
      const count = await readStaffNotifications(db, actor.adminId, programOf(actor), ids);
      return { message: M.read, count };
    },

    async audioAssignments(actor: StaffActor, patientId: number) {
      const programId = programOf(actor);
      if (!(await notificationPatient(db, patientId, programId))) throw AppError.notFound();
      return { data: await audioAssignmentsOf(db, programId, patientId) };
    },

    async audios() {
      const data = await audioLibrary(db);
      return { data };
    },

    async assignAudio(
      actor: StaffActor,
      input: { date: string; time: string; numToEnd: number; patientIds: number[]; audioIds: number[] },
    ) {
      const programId = programOf(actor);
      const patientIds = [...new Set(input.patientIds)];
      const audioIds = [...new Set(input.audioIds)];
      if (
        Number.isNaN(Date.parse(`${input.date}T00:00:00Z`)) ||
        new Date(`${input.date}T00:00:00Z`).toISOString().slice(0, 10) !== input.date
      )
        throw AppError.validation({ date: ['Enter a real date.'] });
      if ((await patientsInProgram(db, programId, patientIds)) !== patientIds.length)
        throw AppError.validation({ patientIds: [M.unknownPatients] });
      if ((await knownAudios(db, audioIds)) !== audioIds.length)
        throw AppError.validation({ audioIds: [M.unknownAudio] });
      const assigned = await db.transaction(async (tx) => {
        const n = await insertAudioAssignments(tx, {
          programId,
          patientIds,
          audioIds,
          date: input.date,
          time: input.time,
          times: input.numToEnd,
          by: actor.adminId,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'patient.audio.assign',
          subjectType: 'program',
          subjectId: programId,
          details: { patients: patientIds.length, audios: audioIds, times: input.numToEnd },
          ip: actor.ip,
        });
        return n;
      });
      return { message: M.audiosAssigned, assigned };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
