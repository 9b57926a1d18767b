import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  GUEST_MESSAGES as G,
  type GuestChannel,
  guestContract,
  normalisePhone,
  routeUrl,
} from '@caredeck/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import type { FileStorage } from '../../platform/files/storage';
import type { UploadedFile } from '../../platform/files/upload';
import { AppError } from '../../platform/http/errors';
import { takeAttempt } from '../../platform/http/rate-limit';
import { enqueueEmail } from '../../platform/outbox/outbox';
import { queueSms } from '../sms/sms.queries';
import {
  insertInvite,
  inviteById,
  inviteePatient,
  invitesOf,
  liveInvite,
  markGuestRead,
  revokeInvite,
} from './guest.queries';
import {
  attachmentFor,
  type MessageRow,
  membership,
  messagesByIds,
  pageOfMessages,
} from './messenger.queries';
import type { MessengerService } from './messenger.service';

/** A guest holding a live link: who they are and the one conversation they may use. */
export type GuestSession = NonNullable<Awaited<ReturnType<typeof liveInvite>>>;

type LinkClaims = { i: number; c: number; e: number };

const b64 = (s: string) => Buffer.from(s).toString('base64url');

/** Masks where a link went: the last 4 digits of a phone, the first letter and domain of an e-mail. */
function masked(channel: GuestChannel, to: string): string {
  if (channel === 'sms') return `•••• ${to.slice(-4)}`;
  const [user = '', domain = ''] = to.split('@');
  return `${user.slice(0, 1)}•••@${domain}`;
}

export function createGuestService(deps: {
  db: Database;
  config: Config;
  storage: FileStorage;
  messenger: MessengerService;
}) {
  const { db, config, storage, messenger } = deps;
  const key = createHmac('sha256', config.JWT_SECRET).update('caredeck guest link v1').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  const publicUrl = (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/+$/, '');

  function sign(claims: LinkClaims): string {
    const payload = b64(JSON.stringify(claims));
    return `${payload}.${mac(payload)}`;
  }

  /** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
  function claimsOf(token: string): LinkClaims | null {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const expected = Buffer.from(mac(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
      if (!Number.isSafeInteger(claims.i) || !Number.isSafeInteger(claims.c) || typeof claims.e !== 'number')
        return null;
      return claims.e * 1000 > Date.now() ? claims : null;
    } catch {
      return null;
    }
  }

  /** The guest of a request (`Authorization: Guest <token>`), for one conversation: 401, or 404 for another. */
  async function guestOf(req: FastifyRequest, conversationId: number): Promise<GuestSession> {
    const header = req.headers.authorization ?? '';
    const token = /^Guest\s+(\S+)$/i.exec(header)?.[1] ?? '';
    const session = await authenticate(token);
    if (!session) throw AppError.unauthenticated(G.invalidLink);
    if (session.conversation_id !== conversationId) throw AppError.notFound();
    return session;
  }

  async function authenticate(token: string): Promise<GuestSession | null> {
    const claims = token ? claimsOf(token) : null;
    if (!claims) return null;
    const session = await liveInvite(db, claims.i);
    return session && session.conversation_id === claims.c ? session : null;
  }

  const fileUrl = (conversationId: number, fileId: number) =>
    routeUrl(guestContract.download, { id: conversationId, fileId });

  function toGuestMessage(m: MessageRow, inviteId: number) {
    return {
      id: m.id,
      body: m.body,
      sender: {
        name: m.sender.name,
        kind: m.sender.kind,
        you: m.sender.kind === 'guest' && m.sender.id === inviteId,
      },
      attachments: m.attachments.map((a) => ({ ...a, url: fileUrl(m.conversation_id, a.id) })),
      created_at: m.created_at,
    };
  }

  return {
    authenticate,
    guestOf,

    async invite(
      actor: StaffActor,
      input: { patientId: number; conversationId: number; channel?: GuestChannel },
    ) {
      const programId = actor.program?.id;
      if (!programId) throw new Error('the invite needs the program the access hook resolved');
      const member = await membership(db, input.conversationId, actor.adminId);
      if (!member || member.program_id !== programId) throw AppError.notFound();
      const patient = await inviteePatient(db, input.patientId, programId);
      if (!patient) throw AppError.notFound();
      const channel: GuestChannel = input.channel ?? (patient.phone_number ? 'sms' : 'email');
      const phone = patient.phone_number
        ? (normalisePhone(patient.phone_number) ?? patient.phone_number)
        : null;
      const to = channel === 'sms' ? phone : patient.email;
      if (!to)
        throw AppError.validation({
          channel: [input.channel ? (channel === 'sms' ? G.noPhone : G.noEmail) : G.noContact],
        });
      const invite = await db.transaction(async (tx) => {
        const created = await insertInvite(tx, {
          conversationId: input.conversationId,
          patientId: input.patientId,
          guestName: `${patient.first_name} ${patient.last_name}`,
          channel,
          sentTo: masked(channel, to),
          invitedBy: actor.adminId,
          hours: config.GUEST_LINK_HOURS,
        });
        const expires = Math.floor(new Date(created.expires_at).getTime() / 1000);
        const link = `${publicUrl}/guest/external-redirect?token=${sign({ i: created.id, c: input.conversationId, e: expires })}`;
        const text = `Your care team invites you to a secure conversation in CareDeck: ${link} (valid for ${config.GUEST_LINK_HOURS} hours).`;
        if (channel === 'sms')
          await queueSms(tx, {
            programId,
            patientId: input.patientId,
            phone: to,
            body: text,
            kind: 'guest_invite',
            sentBy: actor.adminId,
          });
        else
          await enqueueEmail(tx, {
            to,
            subject: 'Your care team invites you to a secure conversation',
            text: `Hello ${patient.first_name},\n\n${text}\n\nIf you did not expect this message, ignore it.\n\nCareDeck`,
            template: 'guest_invite',
          });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'messenger.guest.invite',
          subjectType: 'conversation',
          subjectId: input.conversationId,
          details: { invite_id: created.id, patient_id: input.patientId, channel },
          ip: actor.ip,
        });
        return created;
      });
      return { message: G.sent, data: invite };
    },

    async invites(actor: StaffActor, conversationId: number) {
      if (!(await membership(db, conversationId, actor.adminId))) throw AppError.notFound();
      return { data: await invitesOf(db, conversationId) };
    },

    async revoke(actor: StaffActor, conversationId: number, inviteId: number) {
      const member = await membership(db, conversationId, actor.adminId);
      if (!member) throw AppError.notFound();
      await db.transaction(async (tx) => {
        if (!(await revokeInvite(tx, conversationId, inviteId, actor.adminId))) throw AppError.notFound();
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: member.program_id,
          action: 'messenger.guest.revoke',
          subjectType: 'conversation',
          subjectId: conversationId,
          details: { invite_id: inviteId },
          ip: actor.ip,
        });
      });
      return { message: G.revoked, data: (await inviteById(db, inviteId))! };
    },

    /** Verifies a link (rate-limited per address; every attempt audited) and answers the guest session. */
    async verify(ip: string, token: string) {
      await takeAttempt(db, [{ key: `guest-link:${ip}`, max: 30, windowSeconds: 600 }]);
      const session = await authenticate(token);
      await audit(db, {
        actorAdminId: null,
        actorRealm: 'system',
        programId: session?.program_id ?? null,
        action: session ? 'messenger.guest.link_verified' : 'messenger.guest.link_refused',
        subjectType: 'conversation',
        subjectId: session?.conversation_id ?? null,
        details: session ? { invite_id: session.id } : {},
        ip,
      });
      if (!session) throw AppError.unauthenticated(G.invalidLink);
      return {
        token,
        sender: session.invited_by ?? 0,
        receiver: session.patient_id,
        conversation: session.conversation_id,
        conversation_name: session.conversation_name,
        guest_name: session.guest_name,
        expires_at: session.expires_at,
      };
    },

    /** What a guest sees: the conversation's name and its top-level messages (staff threads stay internal). */
    async conversation(guest: GuestSession) {
      const viewer = { kind: 'guest' as const, inviteId: guest.id };
      const page = await pageOfMessages(db, viewer, guest.conversation_id, { limit: 100 });
      const unread = page.messages.filter(
        (m) => m.id > guest.last_read_id && !(m.sender.kind === 'guest' && m.sender.id === guest.id),
      ).length;
      return {
        data: {
          id: guest.conversation_id,
          name: guest.conversation_name,
          guest_name: guest.guest_name,
          unread,
        },
        messages: page.messages.map((m) => toGuestMessage(m, guest.id)),
      };
    },

    async post(guest: GuestSession, input: { body: string; files: UploadedFile[] }) {
      const id = await messenger.post(
        { kind: 'guest', inviteId: guest.id, name: `${guest.guest_name} (guest)` },
        {
          conversationId: guest.conversation_id,
          conversationName: guest.conversation_name,
          fields: { body: input.body, urgent: false, mentions: [], phi: false, parent_id: null },
          files: input.files,
        },
        {
          actorAdminId: null,
          actorRealm: 'system',
          programId: guest.program_id,
          action: 'messenger.guest.post',
          subjectType: 'conversation',
          subjectId: guest.conversation_id,
        },
      );
      await markGuestRead(db, guest.id, guest.conversation_id);
      const [row] = await messagesByIds(db, { kind: 'guest', inviteId: guest.id }, [id]);
      return { data: toGuestMessage(row!, guest.id) };
    },

    async read(guest: GuestSession) {
      await markGuestRead(db, guest.id, guest.conversation_id);
      return { message: 'Marked as read' };
    },

    async download(guest: GuestSession, fileId: number) {
      const file = await attachmentFor(
        db,
        { kind: 'guest', inviteId: guest.id },
        guest.conversation_id,
        fileId,
      );
      if (!file) throw AppError.notFound();
      return {
        ...(await storage.open(file.storage_key)),
        fileName: file.file_name,
        contentType: file.content_type,
      };
    },
  };
}

export type GuestService = ReturnType<typeof createGuestService>;
