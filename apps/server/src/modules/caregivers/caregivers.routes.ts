import { CARE_ROLES, caregiversContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import type { CaregiversService } from './caregivers.service';

export async function caregiversRoutes(app: App, deps: { caregivers: CaregiversService }) {
  const { caregivers } = deps;
  const patientLink = access.object(patientObject, { param: 'patient_id', roles: CARE_ROLES });

  route(app, c.create, {
    access: access.program(CARE_ROLES),
    handler: async (req) => caregivers.create(staffActor(req), req.body),
  });
  route(app, c.list, {
    access: access.program(),
    handler: async (req) => caregivers.list(staffActor(req), req.query),
  });
  route(app, c.link, {
    access: patientLink,
    handler: async (req) =>
      caregivers.setLink(staffActor(req), {
        patientId: req.params.patient_id,
        caregiverId: req.params.caregiver_id,
        linked: true,
      }),
  });
  route(app, c.unlink, {
    access: patientLink,
    handler: async (req) =>
      caregivers.setLink(staffActor(req), {
        patientId: req.params.patient_id,
        caregiverId: req.params.caregiver_id,
        linked: false,
      }),
  });
  route(app, c.ofPatient, {
    access: access.program(),
    handler: async (req) => caregivers.ofPatient(staffActor(req), { patientId: req.params.patientId }),
  });
}
