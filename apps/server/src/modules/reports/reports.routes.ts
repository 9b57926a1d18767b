import { reportsContract as c, SFTP_MAX_BYTES } from '@caredeck/contracts';
import multipart from '@fastify/multipart';
import { scopedEnterprise, scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { sendAttachment } from '../../platform/files/attachment';
import type { FileStorage } from '../../platform/files/storage';
import { formId, receiveForm } from '../../platform/files/upload';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { CARE_REPORT_ROLES, PHARMA_REPORT_ROLES, REPORT_ROLES, type ReportsService } from './reports.service';

const SFTP_TYPES = [
  'text/csv',
  'text/plain',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/zip',
] as const;

export async function reportsRoutes(app: App, deps: { reports: ReportsService; storage: FileStorage }) {
  const { reports: svc, storage } = deps;
  await app.register(multipart, { throwFileSizeLimit: true });

  route(app, c.types, {
    access: access.program(REPORT_ROLES),
    handler: async (req) => svc.types(scopedProgram(req).roles),
  });
  route(app, c.list, {
    access: access.program(REPORT_ROLES),
    handler: async (req) => {
      const program = scopedProgram(req);
      return svc.list(program.id, program.roles, req.query);
    },
  });
  route(app, c.create, {
    access: access.program(CARE_REPORT_ROLES),
    handler: async (req) => svc.create(staffActor(req), scopedProgram(req), req.body, 'care'),
  });
  route(app, c.createPharma, {
    access: access.program(PHARMA_REPORT_ROLES),
    handler: async (req) => svc.create(staffActor(req), scopedProgram(req), req.body, 'pharma'),
  });
  route(app, c.get, {
    access: access.program(REPORT_ROLES),
    handler: async (req) => {
      const program = scopedProgram(req);
      return svc.get(program.id, program.roles, req.params.reportId);
    },
  });
  route(app, c.file, {
    access: access.program(REPORT_ROLES),
    handler: async (req, reply) => {
      const program = scopedProgram(req);
      const file = await svc.file(
        staffActor(req),
        program.id,
        program.roles,
        req.params.reportId,
        req.params.runId,
      );
      return sendAttachment(reply, file);
    },
  });
  route(app, c.failed, {
    access: access.program(REPORT_ROLES),
    handler: async (req) => {
      const program = scopedProgram(req);
      return svc.failed(program.id, program.roles, req.params.reportId, req.query.type);
    },
  });
  route(app, c.retry, {
    access: access.program(REPORT_ROLES),
    handler: async (req) => {
      const program = scopedProgram(req);
      return svc.retry(staffActor(req), program.id, program.roles, req.params.reportId, req.query.type);
    },
  });
  route(app, c.pause, {
    access: access.enterprise(),
    handler: async (req) => svc.pause(staffActor(req), scopedEnterprise(req), req.params.reportId),
  });
  route(app, c.stop, {
    access: access.enterprise(),
    handler: async (req) => svc.stop(staffActor(req), scopedEnterprise(req), req.params.reportId),
  });
  route(app, c.destinations, {
    access: access.enterprise(),
    handler: async (req) => svc.destinations(scopedEnterprise(req).id),
  });
  route(app, c.createDestination, {
    access: access.enterprise(['enterprise_admin']),
    handler: async (req) => svc.createDestination(staffActor(req), scopedEnterprise(req), req.body),
  });
  route(app, c.setDestinationHostKey, {
    access: access.enterprise(['enterprise_admin']),
    handler: async (req) =>
      svc.setDestinationHostKey(
        staffActor(req),
        scopedEnterprise(req),
        req.params.destinationId,
        req.body.host_key,
      ),
  });

  route(app, c.deleteDestination, {
    access: access.enterprise(['enterprise_admin']),
    handler: async (req) => {
      await svc.deleteDestination(staffActor(req), scopedEnterprise(req), req.params.destinationId);
    },
  });
  route(app, c.sftpFile, {
    access: access.enterprise(['enterprise_admin', 'admin']),
    handler: async (req) => {
      if (!req.isMultipart()) throw AppError.validation({ file: ['Choose a file to send.'] });
      const form = await receiveForm(req, {
        storage,
        prefix: 'sftp-outgoing',
        maxFiles: 1,
        maxFileBytes: SFTP_MAX_BYTES,
        allowed: SFTP_TYPES,
        messages: {
          fileType: 'Send a CSV, text, PDF, spreadsheet or zip file.',
          tooLarge: 'The file is larger than 20 MB.',
          tooManyFiles: 'Send one file at a time.',
        },
      });
      const file = form.files[0];
      const destination = formId(form.fields.report_destination_id?.[0]);
      if (typeof destination !== 'number' || !file) {
        if (file) await storage.remove(file.key);
        throw AppError.validation({
          ...(typeof destination !== 'number' ? { report_destination_id: ['Choose a destination.'] } : {}),
          ...(!file ? { file: ['Choose a file to send.'] } : {}),
        });
      }
      return svc.sftpFile(staffActor(req), scopedEnterprise(req), destination, file);
    },
  });
  route(app, c.generatePatientReport, {
    access: access.program(CARE_REPORT_ROLES),
    handler: async (req) =>
      svc.generatePatientReport(staffActor(req), scopedProgram(req).id, req.params.userId, req.body ?? {}),
  });
  route(app, c.patientReports, {
    access: access.program(CARE_REPORT_ROLES),
    handler: async (req) => svc.patientReports(scopedProgram(req).id, req.params.userId),
  });
  route(app, c.patientReportFile, {
    access: access.program(CARE_REPORT_ROLES),
    handler: async (req, reply) =>
      sendAttachment(
        reply,
        await svc.patientReportFile(staffActor(req), scopedProgram(req).id, req.params.id),
      ),
  });
  route(app, c.generateCsv, {
    access: access.program(CARE_REPORT_ROLES),
    handler: async (req) => svc.generateCsv(staffActor(req), scopedProgram(req).id, req.body ?? {}),
  });
  route(app, c.cancelCsv, {
    access: access.program(CARE_REPORT_ROLES),
    handler: async (req) => svc.cancelCsv(staffActor(req), scopedProgram(req).id, req.params.id),
  });
  route(app, c.checkCsv, {
    access: access.program(CARE_REPORT_ROLES),
    handler: async (req) => svc.checkCsv(staffActor(req), scopedProgram(req).id),
  });
  // The program is in the query: the service checks the caller's roles there (404 outside).
  route(app, c.download, {
    access: access.staff({ programRoles: CARE_REPORT_ROLES }),
    handler: async (req, reply) => {
      const { fileName, stream } = await svc.download(staffActor(req), req.query.program_id);
      reply
        .type(c.download.file.contentType)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  });
}
