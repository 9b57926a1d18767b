import { CARE_ROLES, guestContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { publicActor } from '../../platform/access/actor';
import { access } from '../../platform/access/rules';
import { sendAttachment } from '../../platform/files/attachment';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { GuestService } from './guest.service';
import { conversationObject } from './messenger.queries';
import { type MessageFormDeps, readMessageForm } from './messenger.routes';

/** The guest channel (02 §7) and the staff's side of it (inviting, listing and revoking guest links). */
export async function guestRoutes(app: App, deps: { guests: GuestService; form: MessageFormDeps }) {
  const { guests } = deps;

  route(app, c.invite, {
    access: access.program(CARE_ROLES),
    handler: async (req) =>
      guests.invite(staffActor(req), {
        patientId: req.params.receiverId,
        conversationId: req.query.conversation_id,
        channel: req.query.channel,
      }),
  });
  route(app, c.invites, {
    access: access.object(conversationObject),
    handler: async (req) => guests.invites(staffActor(req), req.params.id),
  });
  route(app, c.revoke, {
    access: access.object(conversationObject),
    handler: async (req) => guests.revoke(staffActor(req), req.params.id, req.params.inviteId),
  });
  route(app, c.verify, {
    access: access.public(),
    handler: async (req) => guests.verify(publicActor(req).ip, req.query.token),
  });
  route(app, c.conversation, {
    access: access.guest(),
    handler: async (req) => guests.conversation(await guests.guestOf(req, req.params.id)),
  });
  route(app, c.post, {
    access: access.guest(),
    form: true,
    handler: async (req) => {
      const guest = await guests.guestOf(req, req.params.id);
      const form = await readMessageForm(req, { ...deps.form, prefix: 'guest' });
      if (form.fields.parent_id || form.fields.urgent || form.fields.mentions.length > 0 || form.fields.phi) {
        await Promise.all(form.files.map((f) => deps.form.storage.remove(f.key)));
        throw AppError.validation({ body: ['A guest sends text and files only.'] });
      }
      return guests.post(guest, { body: form.fields.body, files: form.files });
    },
  });
  route(app, c.read, {
    access: access.guest(),
    handler: async (req) => guests.read(await guests.guestOf(req, req.params.id)),
  });
  route(app, c.download, {
    access: access.guest(),
    handler: async (req, reply) => {
      const guest = await guests.guestOf(req, req.params.id);
      return sendAttachment(reply, await guests.download(guest, req.params.fileId));
    },
  });
}
