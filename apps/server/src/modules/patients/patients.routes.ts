import { patientsContract as c } from '@caredeck/contracts';
import { scopedEnterprise, scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { PatientsService } from './patients.service';

export async function patientsRoutes(app: App, deps: { patients: PatientsService }) {
  const { patients } = deps;

  for (const contract of [c.list, c.listV2]) {
    route(app, contract, {
      access: access.program(),
      handler: async (req) =>
        patients.list(staffActor(req), { programIds: [scopedProgram(req).id], query: req.query }),
    });
  }

  route(app, c.enterpriseList, {
    access: access.enterprise(),
    handler: async (req) => {
      const enterprise = scopedEnterprise(req);
      const { program_id, ...query } = req.query;
      const narrowed =
        program_id && program_id !== 1
          ? enterprise.programIds.filter((id) => id === program_id)
          : enterprise.programIds;
      return patients.list(staffActor(req), { programIds: narrowed, query });
    },
  });
}
