import { CARE_ROLES, medRecContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import type { ReconciliationService } from './reconciliation.service';

/** Pharmacists reconcile medication lists as much as the care team does. */
const RECONCILERS = [...CARE_ROLES, 'pharmacy'] as const;

export async function reconciliationRoutes(app: App, deps: { reconciliation: ReconciliationService }) {
  const { reconciliation: r } = deps;
  const read = access.object(patientObject, { param: 'patientId' });
  const write = access.object(patientObject, { param: 'patientId', roles: RECONCILERS });

  route(app, c.list, {
    access: read,
    handler: async (req) =>
      r.list(staffActor(req), { patientId: req.params.patientId, programId: req.query.program_id }) as never,
  });
  route(app, c.store, {
    access: write,
    handler: async (req) => r.store(staffActor(req), { patientId: req.params.patientId, values: req.body }),
  });
  route(app, c.update, {
    access: write,
    handler: async (req) =>
      r.update(staffActor(req), {
        patientId: req.params.patientId,
        medicationId: req.params.medicationId,
        values: req.body,
      }),
  });
  route(app, c.archive, {
    access: write,
    handler: async (req) =>
      r.archive(staffActor(req), { patientId: req.params.patientId, medicationId: req.params.medicationId }),
  });
  route(app, c.updateMethod, {
    access: write,
    handler: async (req) =>
      r.setMethod(staffActor(req), { patientId: req.params.patientId, method: req.body.value }) as never,
  });
  route(app, c.updateInput, {
    access: write,
    handler: async (req) =>
      r.updateInput(staffActor(req), {
        patientId: req.params.patientId,
        medicationId: req.params.medicationId,
        key: req.body.key,
        value: req.body.value,
      }),
  });
}
