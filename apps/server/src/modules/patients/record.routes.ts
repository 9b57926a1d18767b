import { CARE_ROLES, patientRecordContract as c, PATIENT_MESSAGES } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { AppAccountService } from './app-account.service';
import { patientObject } from './patients.queries';
import type { PatientRecordService } from './record.service';

/** A patient named by `users/{id}` without its program: the patient's program decides. */
const patient = (opts: { roles?: readonly (typeof CARE_ROLES)[number][]; notFound?: string } = {}) =>
  access.object(patientObject, opts);
const carer = { roles: CARE_ROLES };

export async function patientRecordRoutes(
  app: App,
  deps: { records: PatientRecordService; appAccounts: AppAccountService },
) {
  const { records, appAccounts } = deps;

  route(app, c.appPassword, {
    access: patient(carer),
    handler: async (req) =>
      appAccounts.password(staffActor(req), { patientId: req.params.id, body: req.body }),
  });
  route(app, c.verificationCode, {
    access: patient(carer),
    handler: async (req) => appAccounts.resendCode(staffActor(req), { patientId: req.params.id }),
  });

  route(app, c.create, {
    access: access.program(CARE_ROLES),
    handler: async (req) => records.create(staffActor(req), req.body),
  });

  route(app, c.get, {
    access: access.program(),
    handler: async (req) => records.get(staffActor(req), { patientId: req.params.id }),
  });

  // The spec writes the path with a trailing slash (`…/check-user-exist/`): the router ignores it (app.ts).
  route(app, c.checkExists, {
    access: access.program(),
    handler: async (req) =>
      records.duplicates(staffActor(req), { exceptId: req.params.patientId, ...req.query }),
  });

  route(app, c.update, {
    access: patient(carer),
    handler: async (req) => records.update(staffActor(req), { patientId: req.params.id, changes: req.body }),
  });

  route(app, c.changeProgram, {
    access: patient(carer),
    handler: async (req) =>
      records.changeProgram(staffActor(req), {
        patientId: req.params.id,
        from: req.body.old_program_id,
        to: req.body.new_program_id,
      }),
  });

  route(app, c.setPrograms, {
    access: patient(carer),
    handler: async (req) =>
      records.setPrograms(staffActor(req), { patientId: req.params.id, programIds: req.body.programs }),
  });

  route(app, c.deactivate, {
    access: patient({ ...carer, notFound: PATIENT_MESSAGES.notInProgram }),
    handler: async (req) =>
      records.setActive(staffActor(req), {
        patientId: req.params.id,
        active: false,
        programId: req.query.program_id,
      }),
  });

  route(app, c.activate, {
    access: patient({ ...carer, notFound: PATIENT_MESSAGES.notInProgram }),
    handler: async (req) =>
      records.setActive(staffActor(req), {
        patientId: req.params.id,
        active: true,
        programId: req.query.program_id,
      }),
  });

  route(app, c.notificationSettings, {
    access: patient(carer),
    handler: async (req) =>
      records.notificationSettings(staffActor(req), { patientId: req.params.id, changes: req.body }),
  });

  route(app, c.status, {
    access: patient(),
    handler: async (req) => records.status(staffActor(req), { patientId: req.params.id }),
  });

  route(app, c.setStatus, {
    access: patient(carer),
    handler: async (req) =>
      records.setStatus(staffActor(req), {
        patientId: req.params.id,
        value: req.body.value,
        reason: req.body.reason,
      }),
  });

  // The same roles as `users/{id}/status`, in every program the listed patients belong to (ADR 019).
  route(app, c.bulkStatus, {
    access: access.objects(patientObject, { field: 'users_id', ...carer }),
    handler: async (req) =>
      records.bulkStatus(staffActor(req), {
        patientIds: req.body.users_id,
        value: req.body.value,
        reason: req.body.reason,
      }),
  });

  route(app, c.auditHistory, {
    access: access.program(),
    handler: async (req) =>
      records.auditHistory(staffActor(req), { patientId: req.params.patientId, ...req.query }),
  });

  route(app, c.profileViewed, {
    access: patient(),
    handler: async (req) => records.profileViewed(staffActor(req), { patientId: req.params.id }),
  });

  route(app, c.search, {
    access: access.staff(),
    handler: async (req) => records.search(staffActor(req), req.query),
  });

  route(app, c.allPatients, {
    access: access.program(),
    handler: async (req) => records.allPatients(staffActor(req)),
  });
}
