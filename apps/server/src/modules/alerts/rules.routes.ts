import { rulesContract as c, RULE_EDITOR_ROLES } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { ruleObject } from './rules.queries';
import type { RulesService } from './rules.service';

export async function rulesRoutes(app: App, deps: { rules: RulesService }) {
  const { rules } = deps;
  const editRule = access.object(ruleObject, { roles: RULE_EDITOR_ROLES, notFound: 'Rule not found' });
  route(app, c.observables, { access: access.staff(), handler: async () => rules.observables() });
  route(app, c.criterion, { access: access.staff(), handler: async () => rules.criterion() });
  route(app, c.outcomes, { access: access.staff(), handler: async () => rules.outcomes() });
  // Calls without a path program: the service checks the query's or the body's program (404 outside).
  route(app, c.list, {
    access: access.staff(),
    handler: async (req) => rules.list(staffActor(req), req.query),
  });
  route(app, c.create, {
    access: access.staff({ programRoles: RULE_EDITOR_ROLES }),
    handler: async (req) => rules.create(staffActor(req), req.body),
  });
  route(app, c.dryRun, {
    access: access.staff({ programRoles: RULE_EDITOR_ROLES }),
    handler: async (req) => rules.dryRun(staffActor(req), req.body),
  });
  route(app, c.update, {
    access: editRule,
    handler: async (req) => rules.update(staffActor(req), req.params.id, req.body),
  });
  route(app, c.remove, {
    access: editRule,
    handler: async (req) => rules.remove(staffActor(req), req.params.id),
  });
}
