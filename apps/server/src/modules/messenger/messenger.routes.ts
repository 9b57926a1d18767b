import {
  messengerContract as c,
  MESSENGER_FILE_TYPES,
  MESSENGER_MAX_FILES,
  MESSENGER_MESSAGES,
  newMessageFields,
} from '@caredeck/contracts';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { sendAttachment } from '../../platform/files/attachment';
import type { FileStorage } from '../../platform/files/storage';
import {
  formFlag,
  formId,
  parseFormFields,
  receiveForm,
  type UploadedFile,
} from '../../platform/files/upload';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { conversationObject } from './messenger.queries';
import type { MessengerService } from './messenger.service';

export type MessageFormDeps = { storage: FileStorage; maxFileBytes: number; prefix: string };

/**
 * The fields and files of a new message: a multipart form (files streamed to storage) or a JSON body.
 * Form fields are strings: flags read '1'/'true', mentions a JSON array or repeated fields.
 */
export async function readMessageForm(req: FastifyRequest, deps: MessageFormDeps) {
  let raw: Record<string, unknown>;
  let files: UploadedFile[] = [];
  if (req.isMultipart()) {
    const form = await receiveForm(req, {
      storage: deps.storage,
      prefix: deps.prefix,
      maxFiles: MESSENGER_MAX_FILES,
      maxFileBytes: deps.maxFileBytes,
      allowed: MESSENGER_FILE_TYPES,
      messages: {
        fileType: MESSENGER_MESSAGES.fileType,
        tooLarge: MESSENGER_MESSAGES.fileTooLarge,
        tooManyFiles: MESSENGER_MESSAGES.tooManyFiles,
      },
    });
    files = form.files;
    const one = (name: string) => (Object.hasOwn(form.fields, name) ? form.fields[name]?.[0] : undefined);
    const mentions = Object.hasOwn(form.fields, 'mentions') ? (form.fields.mentions ?? []) : [];
    let mentionIds: unknown = [];
    try {
      mentionIds =
        mentions.length === 1 && mentions[0]?.startsWith('[')
          ? JSON.parse(mentions[0])
          : mentions.filter((m) => m !== '').map((m) => (/^[0-9]{1,15}$/.test(m) ? Number(m) : m));
    } catch {
      mentionIds = mentions;
    }
    raw = {
      body: one('body') ?? '',
      parent_id: formId(one('parent_id')),
      urgent: formFlag(one('urgent')),
      phi: formFlag(one('phi')),
      mentions: mentionIds,
    };
  } else {
    raw = (req.body ?? {}) as Record<string, unknown>;
    if (typeof raw !== 'object' || Array.isArray(raw)) raw = {};
  }
  return {
    fields: await parseFormFields(newMessageFields, raw, files, deps.storage, { json: !req.isMultipart() }),
    files,
  };
}

export async function messengerRoutes(
  app: App,
  deps: { messenger: MessengerService; form: MessageFormDeps },
) {
  const { messenger } = deps;
  await app.register(multipart, { throwFileSizeLimit: true });
  const member = access.object(conversationObject);
  const memberOf = (param: string) => access.object(conversationObject, { param });
  const flag = (v: string) => v === '1' || v === 'true';

  route(app, c.list, {
    access: access.staff(),
    handler: async (req) => messenger.list(staffActor(req), req.query),
  });
  route(app, c.unreadMentions, {
    access: access.staff(),
    handler: async (req) => messenger.unreadMentions(staffActor(req)),
  });
  route(app, c.create, {
    access: access.staff(),
    handler: async (req) => messenger.create(staffActor(req), req.body),
  });
  route(app, c.readAll, {
    access: access.staff(),
    handler: async (req) => messenger.readAll(staffActor(req)),
  });
  route(app, c.get, {
    access: member,
    handler: async (req) => messenger.get(staffActor(req), req.params.id, req.query),
  });
  route(app, c.rename, {
    access: member,
    handler: async (req) => messenger.rename(staffActor(req), req.params.id, req.body.name),
  });
  route(app, c.confirmPhi, {
    access: member,
    handler: async (req) => messenger.confirmPhi(staffActor(req), req.params.id, req.body),
  });
  route(app, c.search, {
    access: member,
    handler: async (req) => messenger.search(staffActor(req), req.params.id, req.query),
  });
  route(app, c.files, {
    access: member,
    handler: async (req) => messenger.files(staffActor(req), req.params.id),
  });
  route(app, c.download, {
    access: member,
    handler: async (req, reply) => {
      return sendAttachment(
        reply,
        await messenger.download(staffActor(req), req.params.id, req.params.fileId),
      );
    },
  });
  route(app, c.addUsers, {
    access: member,
    handler: async (req) => messenger.addUsers(staffActor(req), req.params.id, req.body.users),
  });
  route(app, c.removeUser, {
    access: member,
    handler: async (req) =>
      messenger.removeUser(staffActor(req), req.params.id, req.params.userId, flag(req.query.isLeaving)),
  });
  route(app, c.updateUser, {
    access: member,
    handler: async (req) => messenger.updateUser(staffActor(req), req.params.id, req.params.userId, req.body),
  });
  route(app, c.mute, {
    access: member,
    handler: async (req) =>
      messenger.mute(staffActor(req), req.params.id, req.params.userId, req.body.muteValue),
  });
  route(app, c.post, {
    access: member,
    form: true,
    handler: async (req) => {
      const actor = staffActor(req);
      const form = await readMessageForm(req, deps.form);
      return messenger.postAsStaff(actor, { conversationId: req.params.id, ...form });
    },
  });
  route(app, c.read, {
    access: member,
    handler: async (req) => messenger.read(staffActor(req), req.params.id),
  });
  route(app, c.unread, {
    access: member,
    handler: async (req) => messenger.unread(staffActor(req), req.params.id),
  });
  route(app, c.thread, {
    access: member,
    handler: async (req) => messenger.thread(staffActor(req), req.params.id, req.params.messageId),
  });
  route(app, c.clearThreads, {
    access: member,
    handler: async (req) => messenger.clearThreads(staffActor(req), req.params.id, req.params.messageId),
  });
  route(app, c.acknowledge, {
    access: memberOf('conversationId'),
    handler: async (req) =>
      messenger.acknowledge(
        staffActor(req),
        req.params.conversationId,
        req.params.userId,
        req.body.parent_id,
      ),
  });
  route(app, c.thumbsUp, {
    access: memberOf('conversationId'),
    handler: async (req) =>
      messenger.thumbsUp(
        staffActor(req),
        req.params.conversationId,
        req.params.userId,
        req.body.parent_id,
        req.body.value,
      ),
  });
  route(app, c.notifications, {
    access: access.staff(),
    handler: async (req) => messenger.notifications(staffActor(req), req.query.unread === '1'),
  });
  route(app, c.count, {
    access: access.staff(),
    handler: async (req) => messenger.count(staffActor(req)),
  });
  route(app, c.mentionable, {
    access: access.staff(),
    handler: async (req) => messenger.mentionable(staffActor(req), req.query),
  });
}
