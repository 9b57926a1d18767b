import {
  notesContract as c,
  NOTE_MESSAGES as M,
  NOTE_FILE_TYPES,
  NOTE_MAX_FILES,
  newNoteFields,
} from '@caredeck/contracts';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
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
import { patientObject } from '../patients/patients.queries';
import { followUpObject, noteObject } from './notes.queries';
import type { NotesService } from './notes.service';

export type NoteFormDeps = { storage: FileStorage; maxFileBytes: number };

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/heic'] as const;

/** A multipart form (files streamed to storage) or a JSON body, as raw fields and the stored files. */
async function readForm(
  req: FastifyRequest,
  deps: NoteFormDeps,
  allowed: readonly string[],
  fileType: string,
): Promise<{ raw: Record<string, unknown>; files: UploadedFile[]; json: boolean }> {
  if (!req.isMultipart()) {
    const body = req.body;
    return {
      raw: body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {},
      files: [],
      json: true,
    };
  }
  const form = await receiveForm(req, {
    storage: deps.storage,
    prefix: 'notes',
    maxFiles: NOTE_MAX_FILES,
    maxFileBytes: deps.maxFileBytes,
    allowed,
    messages: { fileType, tooLarge: M.fileTooLarge, tooManyFiles: M.tooManyFiles },
  });
  const one = (name: string) => (Object.hasOwn(form.fields, name) ? form.fields[name]?.[0] : undefined);
  return {
    raw: {
      body: one('body') ?? '',
      internal: formFlag(one('internal')),
      escalate: formFlag(one('escalate')),
      follow_up_date: one('follow_up_date') || undefined,
      follow_up_admin_id: formId(one('follow_up_admin_id')),
    },
    files: form.files,
    json: false,
  };
}

const imageNoteFields = z.object({ body: newNoteFields.shape.body });

export async function notesRoutes(app: App, deps: { notes: NotesService; form: NoteFormDeps }) {
  const { notes, form } = deps;
  await app.register(multipart, { throwFileSizeLimit: true });
  const onPatient = access.object(patientObject);
  const onNote = access.object(noteObject, { notFound: M.notFound });
  const onFollowUp = access.object(followUpObject, { notFound: M.followUpNotFound });

  route(app, c.list, {
    access: onPatient,
    handler: async (req) => notes.list(staffActor(req), req.params.id, req.query),
  });
  route(app, c.create, {
    access: onPatient,
    form: true,
    handler: async (req) => {
      const { raw, files, json } = await readForm(req, form, NOTE_FILE_TYPES, M.fileType);
      const fields = await parseFormFields(newNoteFields, raw, files, form.storage, { json });
      return notes.create(staffActor(req), req.params.id, fields, files);
    },
  });
  route(app, c.imageNote, {
    access: access.program(),
    form: true,
    handler: async (req) => {
      await notes.assertPatient(staffActor(req), req.params.patientId);
      const { raw, files, json } = await readForm(req, form, IMAGE_TYPES, M.imageType);
      const fields = await parseFormFields(imageNoteFields, raw, files, form.storage, { json });
      return notes.imageNote(staffActor(req), req.params.patientId, fields.body, files);
    },
  });
  route(app, c.logs, { access: onNote, handler: async (req) => notes.logs(req.params.id) });
  route(app, c.edits, { access: onNote, handler: async (req) => notes.edits(req.params.id) });
  route(app, c.internal, {
    access: onNote,
    handler: async (req) => notes.setInternal(staffActor(req), req.params.id, req.body.internal),
  });
  route(app, c.update, {
    access: onNote,
    handler: async (req) => notes.update(staffActor(req), req.params.id, req.body.body),
  });
  route(app, c.remove, {
    access: onNote,
    handler: async (req) => notes.remove(staffActor(req), req.params.id),
  });
  route(app, c.pin, {
    access: onNote,
    handler: async (req) => notes.pin(staffActor(req), req.params.id, req.body?.pinned),
  });
  route(app, c.escalations, {
    access: onNote,
    handler: async (req) => notes.escalation(staffActor(req), req.params.id, req.body.active),
  });
  route(app, c.file, {
    access: onNote,
    handler: async (req, reply) => sendAttachment(reply, await notes.file(req.params.id, req.params.fileId)),
  });
  route(app, c.completeFollowUp, {
    access: onFollowUp,
    handler: async (req) => notes.completeFollowUp(staffActor(req), req.params.id),
  });
  route(app, c.updateFollowUp, {
    access: onFollowUp,
    handler: async (req) => notes.updateFollowUp(staffActor(req), req.params.id, req.body),
  });
  route(app, c.nextFollowUp, {
    access: access.program(),
    handler: async (req) => notes.nextFollowUp(staffActor(req), req.params.userId),
  });
}
