import { fhirClientsContract as c } from '@caredeck/contracts';
import { scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { FhirClientsService } from './clients.service';

/** The program's SMART backend clients: its administrators (and enterprise admins) register and revoke them. */
export function fhirClientRoutes(app: App, deps: { clients: FhirClientsService }) {
  const { clients } = deps;
  const admins = access.program(['admin', 'enterprise_admin']);
  route(app, c.list, {
    access: admins,
    handler: async (req) => clients.list(scopedProgram(req).id, req.query),
  });
  route(app, c.create, {
    access: admins,
    handler: async (req) => clients.create(staffActor(req), scopedProgram(req).id, req.body),
  });
  route(app, c.revoke, {
    access: admins,
    handler: async (req) => clients.revoke(staffActor(req), scopedProgram(req).id, req.params.clientId),
  });
}
