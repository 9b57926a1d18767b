import {
  externalOrdersContract as c,
  EXTERNAL_ORDER_CSV_MAX_BYTES,
  EXTERNAL_ORDER_ROLES,
  EXTERNAL_ORDER_MESSAGES as M,
} from '@caredeck/contracts';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { safeFileName, sniffType } from '../../platform/files/upload';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import { externalOrderObject, externalPatientObject } from './external-orders.queries';
import type { ExternalOrdersService } from './external-orders.service';

/** The import form: `program_id` and one CSV `file` (2 MB at most: 413), read as UTF-8 text. */
async function readImportForm(req: FastifyRequest) {
  if (!req.isMultipart()) throw AppError.validation({ file: [M.fileRequired] });
  let programId: string | undefined;
  let file: { name: string; text: string } | undefined;
  try {
    for await (const part of req.parts({
      limits: { files: 1, fileSize: EXTERNAL_ORDER_CSV_MAX_BYTES, fields: 5, fieldSize: 100 },
    })) {
      if (part.type === 'field') {
        if (part.fieldname === 'program_id') programId = String(part.value);
        continue;
      }
      const bytes = await part.toBuffer();
      const name = safeFileName(part.filename);
      const type = await sniffType(bytes.subarray(0, 4100), name);
      let text: string | null = null;
      try {
        text = type ? new TextDecoder('utf-8', { fatal: true }).decode(bytes) : null;
      } catch {
        text = null;
      }
      if (text === null) throw AppError.validation({ file: ['The file is not a CSV text file (UTF-8).'] });
      file = { name, text };
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('too_large', M.fileTooLarge, { file: [M.fileTooLarge] });
    if (code === 'FST_FILES_LIMIT') throw AppError.validation({ file: ['Send one CSV file at a time.'] });
    if (code?.startsWith('FST_')) throw AppError.validation({ body: ['The form could not be read.'] });
    throw err;
  }
  if (!programId || !/^[1-9][0-9]{0,15}$/.test(programId))
    throw AppError.validation({ program_id: ['Choose the program to import into.'] });
  if (!file) throw AppError.validation({ file: [M.fileRequired] });
  return { programId: Number(programId), ...file };
}

// Lists, the import and finalize name their program in the query or body: the service checks the caller's role
// there (404 outside their programs, 403 for other roles). Paths naming an order, a pharmacy patient or a
// patient resolve its program in the access hook.
export async function externalOrdersRoutes(app: App, deps: { orders: ExternalOrdersService }) {
  const { orders } = deps;
  await app.register(multipart, { throwFileSizeLimit: true });
  const onOrder = (param: string) =>
    access.object(externalOrderObject, { param, roles: EXTERNAL_ORDER_ROLES, notFound: M.notFound });
  const onPatient = access.object(patientObject, {
    param: 'userId',
    roles: EXTERNAL_ORDER_ROLES,
    notFound: M.patientNotFound,
  });
  const onExternalPatient = access.object(externalPatientObject, {
    roles: EXTERNAL_ORDER_ROLES,
    notFound: M.patientNotFound,
  });

  route(app, c.statuses, {
    access: access.staff({ programRoles: EXTERNAL_ORDER_ROLES }),
    handler: async (req) => orders.statuses(staffActor(req), req.query.program_id),
  });
  route(app, c.history, {
    access: onOrder('orderId'),
    handler: async (req) => orders.history(req.params.orderId),
  });
  route(app, c.list, {
    access: access.staff({ programRoles: EXTERNAL_ORDER_ROLES }),
    handler: async (req) => orders.list(staffActor(req), req.query),
  });
  route(app, c.tracking, {
    access: onOrder('id'),
    handler: async (req) => orders.tracking(req.params.id),
  });
  route(app, c.fillFiles, {
    access: onPatient,
    handler: async (req) =>
      orders.fillFiles(staffActor(req), scopedProgram(req).id, req.params.userId, req.params.needByDate),
  });
  route(app, c.verifyFillFiles, {
    access: onPatient,
    handler: async (req) =>
      orders.verifyFillFiles(
        staffActor(req),
        scopedProgram(req).id,
        req.params.userId,
        req.params.needByDate,
      ),
  });
  route(app, c.regimens, {
    access: onPatient,
    handler: async (req) =>
      orders.regimens(staffActor(req), scopedProgram(req).id, req.params.userId, req.params.needByDate),
  });
  route(app, c.verifyRegimens, {
    access: onPatient,
    handler: async (req) =>
      orders.verifyRegimens(
        staffActor(req),
        scopedProgram(req).id,
        req.params.userId,
        req.params.needByDate,
        req.body,
      ),
  });
  route(app, c.matches, {
    access: onExternalPatient,
    handler: async (req) => orders.matches(req.params.id),
  });
  route(app, c.merge, {
    access: onExternalPatient,
    handler: async (req) =>
      orders.merge(staffActor(req), scopedProgram(req).id, req.params.id, req.params.patientId),
  });
  route(app, c.import, {
    access: access.staff(),
    handler: async (req) => {
      const form = await readImportForm(req);
      return orders.importCsv(staffActor(req), form.programId, form.text, form.name);
    },
  });
  route(app, c.finalize, {
    access: access.staff({ programRoles: EXTERNAL_ORDER_ROLES }),
    handler: async (req) => orders.finalize(staffActor(req), req.body),
  });
}
