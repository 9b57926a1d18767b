import { AUTO_ROLES, tenancyContract as c } from '@caredeck/contracts';
import { scopedEnterprise, scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { TenancyService } from './tenancy.service';

export async function tenancyRoutes(app: App, deps: { tenancy: TenancyService }) {
  const { tenancy } = deps;

  route(app, c.programs, {
    access: access.staff(),
    handler: async (req) => ({ data: await tenancy.programsOf(staffActor(req).adminId) }),
  });

  route(app, c.enterprises, {
    access: access.staff(),
    handler: async (req) => ({ data: await tenancy.enterprisesOf(staffActor(req).adminId) }),
  });

  route(app, c.autoRoles, {
    access: access.staff(),
    handler: async (req) => ({ type: req.query.type, roles: [...AUTO_ROLES[req.query.type]] }),
  });

  route(app, c.checkAccess, {
    access: access.program(),
    handler: async (req) => {
      await tenancy.assertPatientInPrograms(req.params.id, [scopedProgram(req).id]);
      return { access: true as const };
    },
  });

  route(app, c.checkEnterpriseAccess, {
    access: access.enterprise(),
    handler: async (req) => {
      await tenancy.assertPatientInPrograms(req.params.id, scopedEnterprise(req).programIds);
      return { access: true as const };
    },
  });

  route(app, c.updateAdminRoles, {
    access: access.staff(),
    handler: async (req) =>
      tenancy.updateProgramRoles(
        staffActor(req).adminId,
        req.params.id,
        req.body.program_id,
        req.body.roles,
        req.ip,
      ),
  });
}
