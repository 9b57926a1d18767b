import { staffContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { StaffService } from './staff.service';

export async function staffRoutes(app: App, deps: { staff: StaffService }) {
  const { staff } = deps;

  route(app, c.create, {
    access: access.program(['admin', 'enterprise_admin']),
    handler: async (req) => staff.create(staffActor(req), req.body),
  });

  // No program in the path: the service checks the caller administers the program it resolves.
  route(app, c.createAnywhere, {
    access: access.staff({ programRoles: ['admin', 'enterprise_admin'] }),
    handler: async (req) => {
      const { program_id, ...body } = req.body;
      return staff.create(staffActor(req), { ...body, programId: program_id });
    },
  });
}
