import { dataViewsContract as c, usageViewsContract as u } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import type { AdherenceService } from './adherence.service';

export async function adherenceRoutes(app: App, deps: { adherence: AdherenceService }) {
  const { adherence } = deps;
  const patient = access.object(patientObject, { notFound: 'Patient not found' });

  for (const contract of [c.adherenceFrom, c.complianceFrom])
    route(app, contract, {
      access: access.program(),
      handler: async (req) =>
        adherence.inProgram(staffActor(req), {
          patientId: req.params.id,
          start: req.params.start,
          end: null,
        }),
    });
  for (const contract of [c.adherenceRange, c.complianceRange])
    route(app, contract, {
      access: access.program(),
      handler: async (req) =>
        adherence.inProgram(staffActor(req), {
          patientId: req.params.id,
          start: req.params.start,
          end: req.params.end,
        }),
    });
  route(app, c.userAdherence, {
    access: patient,
    handler: async (req) => adherence.ofPatient(staffActor(req), { patientId: req.params.id }),
  });
  route(app, c.userAdherenceRange, {
    access: patient,
    handler: async (req) =>
      adherence.ofPatient(staffActor(req), {
        patientId: req.params.id,
        start: req.params.start,
        end: req.params.end,
      }),
  });
  route(app, c.userAdherenceGraph, {
    access: patient,
    handler: async (req) => adherence.graph(staffActor(req), { patientId: req.params.id }),
  });
  route(app, c.measurementsGrouped, {
    access: access.program(),
    handler: async (req) =>
      adherence.measurementsGrouped(staffActor(req), {
        patientId: req.params.id,
        start: req.params.start,
        end: req.params.end,
        types: req.query.types,
      }),
  });
  route(app, c.measurementsByType, {
    access: patient,
    handler: async (req) =>
      adherence.measurementsByType(staffActor(req), {
        patientId: req.params.id,
        type: req.params.type,
        ...req.query,
      }),
  });
  route(app, c.patientAll, {
    access: patient,
    handler: async (req) => adherence.patientAll(staffActor(req), { patientId: req.params.id }),
  });
  route(app, c.measurementsRange, {
    access: patient,
    handler: async (req) =>
      adherence.measurementsRange(staffActor(req), {
        patientId: req.params.id,
        start: req.params.start,
        end: req.params.end,
        ...req.query,
      }),
  });
  route(app, u.usages, {
    access: access.program(),
    handler: async (req) =>
      adherence.usages(staffActor(req), {
        patientId: req.params.id,
        start: req.params.start,
        end: req.params.end,
      }),
  });
  route(app, u.inhalerUsages, {
    access: access.program(),
    handler: async (req) =>
      adherence.inhalerUsages(staffActor(req), {
        patientId: req.params.userId,
        start: req.params.start,
        end: req.params.end,
      }),
  });
  route(app, u.activitiesFrom, {
    access: access.program(),
    handler: async (req) =>
      adherence.activities(staffActor(req), { patientId: req.params.id, start: req.params.start, end: null }),
  });
  route(app, u.activitiesRange, {
    access: access.program(),
    handler: async (req) =>
      adherence.activities(staffActor(req), {
        patientId: req.params.id,
        start: req.params.start,
        end: req.params.end,
      }),
  });
  route(app, u.sleepFrom, {
    access: access.program(),
    handler: async (req) =>
      adherence.sleep(staffActor(req), { patientId: req.params.id, start: req.params.start, end: null }),
  });
  route(app, u.sleepRange, {
    access: access.program(),
    handler: async (req) =>
      adherence.sleep(staffActor(req), {
        patientId: req.params.id,
        start: req.params.start,
        end: req.params.end,
      }),
  });
}
