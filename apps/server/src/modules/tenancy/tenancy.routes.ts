import { AUTO_ROLES, tenancyContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { TenancyService } from './tenancy.service';

export async function tenancyRoutes(app: App, deps: { tenancy: TenancyService }) {
  const { tenancy } = deps;

  route(app, c.programs, {
    access: access.staff(),
    handler: async (req) => ({ data: await tenancy.programsOf(staffActor(req)) }),
  });

  route(app, c.enterprises, {
    access: access.staff(),
    handler: async (req) => ({
      data: await tenancy.enterprisesOf(staffActor(req), req.query.withRelations === 'true'),
    }),
  });

  route(app, c.programAdmins, {
    access: access.program(),
    handler: async (req) => tenancy.programAdmins(staffActor(req)),
  });

  route(app, c.autoRoles, {
    access: access.staff(),
    handler: async (req) => ({ type: req.query.type, roles: [...AUTO_ROLES[req.query.type]] }),
  });

  route(app, c.checkAccess, {
    access: access.program(),
    handler: async (req) => tenancy.checkPatientAccess(staffActor(req), { patientId: req.params.id }),
  });

  route(app, c.checkEnterpriseAccess, {
    access: access.enterprise(),
    handler: async (req) => tenancy.checkPatientAccess(staffActor(req), { patientId: req.params.id }),
  });
}
