import {
  NOTIFICATION_MESSAGES as M,
  normalisePhone,
  type PatientNotificationType,
  pageOf,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { enqueueEmail } from '../../platform/outbox/outbox';
import { notificationsOf as staffNotifications } from '../messenger/messenger.queries';
import { isOptedOut, queueSms } from '../sms/sms.queries';
import {
  audioAssignmentsOf,
  audioLibrary,
  insertAudioAssignments,
  insertNotification,
  knownAudios,
  notificationPatient,
  notificationsOf,
  optIn,
  patientsInProgram,
  readStaffNotifications,
} from './notifications.queries';

function programOf(actor: StaffActor) {
  if (!actor.program) throw new Error('a notification use case needs the program the access hook resolved');
  return actor.program.id;
}

export function createNotificationsService(deps: { db: Database }) {
  const { db } = deps;
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
      const phone = patient.phone_number
        ? (normalisePhone(patient.phone_number) ?? patient.phone_number)
        : null;
      if (input.type === 'sms' && !phone) throw AppError.validation({ type: [M.noPhone] });
      if (input.type === 'email' && !patient.email) throw AppError.validation({ type: [M.noEmail] });
      if (!patient.settings?.[input.type] && !input.opted_in)
        throw AppError.validation({ opted_in: [M.notOptedIn] });
      const blocked = input.type === 'sms' && phone !== null && (await isOptedOut(db, phone));
      const id = await db.transaction(async (tx) => {
        if (input.opted_in) await optIn(tx, patientId, input.type);
        let smsId: number | null = null;
        let status = 'queued';
        if (input.type === 'sms' && phone)
          smsId = await queueSms(tx, {
            programId,
            patientId,
            phone,
            body: `${input.title}: ${input.body}`,
            kind: 'notification',
            sentBy: actor.adminId,
          });
        else if (input.type === 'email' && patient.email) {
          await enqueueEmail(tx, {
            to: patient.email,
            subject: input.title,
            text: `Hello ${patient.first_name},\n\n${input.body}\n\nYour care team`,
            template: 'patient_notification',
          });
          status = 'sent';
        }
        if (blocked) status = 'blocked';
        const created = await insertNotification(tx, {
          programId,
          patientId,
          type: input.type,
          title: input.title,
          body: input.body,
          status,
          smsMessageId: smsId,
          sentBy: actor.adminId,
        });
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
