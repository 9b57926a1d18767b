import {
  SMS_MESSAGES as M,
  normalisePhone,
  pageOf,
  SMS_START_WORDS,
  SMS_STOP_WORDS,
} from '@caredeck/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import { visiblePrograms } from '../tenancy/tenancy.queries';
import {
  dueMessages,
  groupMessages,
  groupRecipients,
  insertGroupMessage,
  insertInbound,
  isOptedOut,
  lastProgramTexting,
  markAttemptFailed,
  markPatientRead,
  markSent,
  markTempRead,
  patientOfProgram,
  patientsByPhone,
  patientThread,
  providerIdSeen,
  queueSms,
  setOptOut,
  smsById,
  tempMessages,
  tempThreads,
  updateStatusByProviderId,
} from './sms.queries';
import { type SmsTransport, verifySmsWebhook } from './sms.transport';

/** Live event to a program: a text arrived or changed state (ids only). */
export const SMS_EVENT = 'sms.changed';
const MAX_ATTEMPTS = 5;
const WEBHOOK_WINDOW_SECONDS = 300;

export function createSmsService(deps: {
  db: Database;
  realtime: Realtime;
  transport: SmsTransport;
  webhookSecret: string | null;
  log: FastifyBaseLogger;
}) {
  const { db, realtime, transport, webhookSecret, log } = deps;

  const programOf = (actor: StaffActor) => {
    if (!actor.program) throw new Error('an SMS use case needs the program the access hook resolved');
    return actor.program.id;
  };

  const patientPhone = (programId: number, patientId: number) => patientOfProgram(db, patientId, programId);

  async function queue(
    actor: StaffActor,
    m: { programId: number; patientId: number | null; phone: string; body: string; kind: string },
  ) {
    if (await isOptedOut(db, m.phone)) throw AppError.validation({ phone_number: [M.optedOut] });
    const id = await db.transaction(async (tx) => {
      const created = await queueSms(tx, { ...m, sentBy: actor.adminId });
      await audit(tx, {
        actorAdminId: actor.adminId,
        programId: m.programId,
        action: m.patientId ? 'sms.send' : 'sms.temp_send',
        subjectType: m.patientId ? 'patient' : 'sms',
        subjectId: m.patientId ?? created,
        details: { sms_id: created, length: m.body.length },
        ip: actor.ip,
      });
      return created;
    });
    return (await smsById(db, id))!;
  }

  return {
    async thread(actor: StaffActor, patientId: number, q: { page: number; per_page: number }) {
      const programId = programOf(actor);
      const patient = await patientPhone(programId, patientId);
      if (!patient) throw AppError.notFound();
      const res = await patientThread(db, patientId, q.page, q.per_page);
      return {
        ...pageOf(res.rows, q, res.total),
        unread: res.unread,
        opted_out: patient.phone_number
          ? await isOptedOut(db, normalisePhone(patient.phone_number) ?? patient.phone_number)
          : false,
      };
    },

    async send(actor: StaffActor, patientId: number, input: { message: string; phone_number?: string }) {
      const programId = programOf(actor);
      const patient = await patientPhone(programId, patientId);
      if (!patient) throw AppError.notFound();
      const stored = patient.phone_number
        ? (normalisePhone(patient.phone_number) ?? patient.phone_number)
        : null;
      const phone = input.phone_number ?? stored;
      if (!phone) throw AppError.validation({ phone_number: [M.noPhone] });
      const data = await queue(actor, { programId, patientId, phone, body: input.message, kind: 'message' });
      realtime.toProgram(programId, SMS_EVENT, { patient_id: patientId });
      return { message: M.queued, data };
    },

    async markRead(actor: StaffActor, patientId: number) {
      const programId = programOf(actor);
      if (!(await patientPhone(programId, patientId))) throw AppError.notFound();
      const count = await markPatientRead(db, patientId);
      if (count > 0) realtime.toProgram(programId, SMS_EVENT, { patient_id: patientId });
      return { message: M.read, count };
    },

    async tempMessage(actor: StaffActor, input: { message: string; phone_number: string }) {
      const programId = programOf(actor);
      const data = await queue(actor, {
        programId,
        patientId: null,
        phone: input.phone_number,
        body: input.message,
        kind: 'message',
      });
      return { message: M.queued, data };
    },

    /** Texts every active patient of the cohort with a mobile phone (the access rule resolved the cohort). */
    async groupSend(actor: StaffActor, groupId: number, message: string) {
      const programId = programOf(actor);
      const patients = await groupRecipients(db, groupId);
      const recipients = patients.flatMap((p) => {
        const phone = p.phone_number ? normalisePhone(p.phone_number) : null;
        return phone ? [{ patientId: p.id, phone }] : [];
      });
      if (recipients.length === 0) throw AppError.validation({ message: [M.groupEmpty] });
      const id = await db.transaction(async (tx) => {
        const created = await insertGroupMessage(tx, {
          programId,
          groupId,
          body: message,
          sentBy: actor.adminId,
          skipped: patients.length - recipients.length,
          recipients,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'sms.group_send',
          subjectType: 'group',
          subjectId: groupId,
          details: { group_message_id: created, recipients: recipients.length, length: message.length },
          ip: actor.ip,
        });
        return created;
      });
      realtime.toProgram(programId, SMS_EVENT, { group_id: groupId });
      const data = (await groupMessages(db, groupId, { page: 1, per_page: 1 }, id)).rows[0]!;
      return { message: M.groupQueued, data };
    },

    async groupHistory(groupId: number, q: { page: number; per_page: number }) {
      const { rows, total } = await groupMessages(db, groupId, q);
      return pageOf(rows, q, total);
    },

    async tempThreads(actor: StaffActor, programId?: number) {
      const visible = (await visiblePrograms(db, actor.adminId)).map((p) => p.id);
      const scope = programId === undefined ? visible : visible.filter((id) => id === programId);
      if (programId !== undefined && scope.length === 0) throw AppError.notFound();
      return { data: await tempThreads(db, scope) };
    },

    async tempHistory(actor: StaffActor, rawPhone: string, programId?: number) {
      const phone = normalisePhone(rawPhone);
      if (!phone) throw AppError.validation({ phone: ['Enter a valid phone number.'] });
      const visible = (await visiblePrograms(db, actor.adminId)).map((p) => p.id);
      const scope = programId === undefined ? visible : visible.filter((id) => id === programId);
      if (programId !== undefined && scope.length === 0) throw AppError.notFound();
      return { data: await tempMessages(db, scope, phone) };
    },

    async markTempRead(actor: StaffActor, ids: number[]) {
      const visible = (await visiblePrograms(db, actor.adminId)).map((p) => p.id);
      const done = await markTempRead(db, visible, ids);
      if (!done) throw AppError.notFound();
      return { message: M.read, ids: done };
    },

    /**
     * An inbound text: STOP/START words set the opt-out; a known patient's phone joins that patient's thread,
     * an unknown one becomes a temp message of the program that last texted it. Signed and fresh only;
     * a repeated delivery (same provider id) changes nothing.
     */
    async inbound(
      signature: { timestamp: string; signature: string; rawBody: string },
      input: { id: string; from: string; body: string },
    ) {
      verify(signature);
      const phone = normalisePhone(input.from);
      if (!phone) throw AppError.validation({ from: ['Enter a valid phone number.'] });
      if (await providerIdSeen(db, input.id)) return { message: 'Already received' };
      const word = input.body.trim().toUpperCase();
      const stop = (SMS_STOP_WORDS as readonly string[]).includes(word);
      const start = (SMS_START_WORDS as readonly string[]).includes(word);
      const [patient] = await patientsByPhone(db, phone);
      const programId = patient?.programId ?? (await lastProgramTexting(db, phone));
      await db.transaction(async (tx) => {
        if (stop || start) await setOptOut(tx, phone, stop);
        await insertInbound(tx, {
          programId,
          patientId: patient?.id ?? null,
          phone,
          body: input.body,
          providerId: input.id,
          kind: stop ? 'opt_out' : start ? 'opt_in' : 'message',
        });
      });
      if (programId) realtime.toProgram(programId, SMS_EVENT, { patient_id: patient?.id ?? null });
      return { message: 'Received' };
    },

    async status(
      signature: { timestamp: string; signature: string; rawBody: string },
      input: { id: string; status: 'delivered' | 'failed' },
    ) {
      verify(signature);
      const row = await updateStatusByProviderId(db, input.id, input.status);
      if (row?.program_id)
        realtime.toProgram(Number(row.program_id), SMS_EVENT, { patient_id: row.patient_id });
      return { message: row ? 'Updated' : 'Unknown message' };
    },

    /** Sends what is due: one short transaction per batch, rows locked so several workers never send twice. */
    async deliverPending(batch = 20): Promise<number> {
      const programs = new Set<number>();
      const sent = await db.transaction(async (tx) => {
        const due = await dueMessages(tx, batch);
        for (const m of due) {
          try {
            const res = await transport.send({ id: m.id, to: m.phone, body: m.body });
            await markSent(tx, m.id, res.providerId, res.delivered);
          } catch (err) {
            await markAttemptFailed(tx, m.id, (err as Error).message, MAX_ATTEMPTS);
            log.warn({ sms: { id: m.id, attempt: m.attempts + 1 } }, 'sms delivery failed');
          }
          if (m.program_id) programs.add(Number(m.program_id));
        }
        return due.length;
      });
      for (const id of programs) realtime.toProgram(id, SMS_EVENT, {});
      return sent;
    },
  };

  function verify(s: { timestamp: string; signature: string; rawBody: string }) {
    if (!webhookSecret) throw AppError.unauthenticated('SMS webhooks are not configured.');
    const at = Number(s.timestamp);
    if (!Number.isFinite(at) || Math.abs(Date.now() / 1000 - at) > WEBHOOK_WINDOW_SECONDS)
      throw AppError.unauthenticated('The signature is too old or from the future.');
    if (!verifySmsWebhook(webhookSecret, s.timestamp, s.rawBody, s.signature))
      throw AppError.unauthenticated('The signature does not match.');
  }
}

export type SmsService = ReturnType<typeof createSmsService>;
