import { bulkActionsContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { type BulkActionsService, PROPOSER_ROLES } from './bulk-actions.service';

// Every call names its program in the query or resolves it from the job: the service checks the caller's roles
// there (404 outside the caller's programs, 403 for roles that may not approve).
export async function bulkActionsRoutes(app: App, deps: { bulk: BulkActionsService }) {
  const { bulk } = deps;
  route(app, c.list, {
    access: access.staff({ programRoles: PROPOSER_ROLES }),
    handler: async (req) => bulk.list(staffActor(req), req.query),
  });
  route(app, c.create, {
    access: access.staff({ programRoles: PROPOSER_ROLES }),
    handler: async (req) => bulk.create(staffActor(req), req.body),
  });
  route(app, c.approve, {
    access: access.staff(),
    handler: async (req) => bulk.approve(staffActor(req), req.body.job_id),
  });
  route(app, c.cancel, {
    access: access.staff(),
    handler: async (req) => bulk.cancel(staffActor(req), req.body.job_id),
  });
  route(app, c.rerunAll, {
    access: access.staff(),
    handler: async (req) => bulk.rerunAll(staffActor(req), req.params.jobId),
  });
  route(app, c.rerunFailed, {
    access: access.staff(),
    handler: async (req) => bulk.rerunFailed(staffActor(req), req.params.jobId),
  });
}
