import { logsContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { LogsService } from './logs.service';

export async function logsRoutes(app: App, deps: { logs: LogsService }) {
  const { logs } = deps;
  // Anyone in the program reaches these; the service limits staff without a reader role to their own logs.
  const inProgram = access.program();
  route(app, c.adminLogs, {
    access: inProgram,
    handler: async (req) => logs.adminLogs(staffActor(req), req.query),
  });
  route(app, c.adminLog, {
    access: inProgram,
    handler: async (req) => logs.adminLog(staffActor(req), req.params.id, req.query),
  });
  route(app, c.dayWise, {
    access: inProgram,
    handler: async (req) => logs.dayWise(staffActor(req), req.params.id, req.query),
  });
  route(app, c.patientCounts, {
    access: inProgram,
    handler: async (req) => logs.patientCounts(staffActor(req), req.params.adminId, req.params),
  });
  route(app, c.loginLogoutLogs, {
    access: inProgram,
    handler: async (req) => logs.loginLogout(staffActor(req), req.params.adminId, req.params),
  });
}
