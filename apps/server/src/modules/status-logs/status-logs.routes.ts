import { statusLogsContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { StatusLogsService } from './status-logs.service';

export async function statusLogsRoutes(app: App, deps: { statusLogs: StatusLogsService }) {
  const { statusLogs } = deps;
  // Whoever may see the program's patients may read their status changes (the patients list's rule).
  route(app, c.list, {
    access: access.program(),
    handler: async (req) => statusLogs.list(staffActor(req), req.query),
  });
  route(app, c.enterpriseList, {
    access: access.enterprise(),
    handler: async (req) => statusLogs.listEnterprise(staffActor(req), req.query),
  });
}
