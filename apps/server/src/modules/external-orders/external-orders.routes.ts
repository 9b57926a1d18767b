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
import { receiveCsvForm } from '../../platform/files/upload';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import { externalOrderObject, externalPatientObject } from './external-orders.queries';
import type { ExternalOrdersService } from './external-orders.service';

/** The import form: `program_id` and one CSV `file` (2 MB at most: 413), checked as UTF-8 text by content. */
async function readImportForm(req: FastifyRequest) {
  const { fields, file } = await receiveCsvForm(req, {
    maxBytes: EXTERNAL_ORDER_CSV_MAX_BYTES,
    messages: {
      required: M.fileRequired,
      tooLarge: M.fileTooLarge,
      tooManyFiles: 'Send one CSV file at a time.',
    },
  });
  const programId = fields.program_id;
  if (!programId || !/^[1-9][0-9]{0,15}$/.test(programId))
    throw AppError.validation({ program_id: ['Choose the program to import into.'] });
  return { programId: Number(programId), name: file.name, text: file.text };
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
