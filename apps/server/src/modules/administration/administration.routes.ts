import { administrationContract as c } from '@caredeck/contracts';
import { scopedEnterprise, scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { AdministrationService } from './administration.service';

const ADMINS = ['admin', 'enterprise_admin'] as const;

export async function administrationRoutes(app: App, deps: { administration: AdministrationService }) {
  const { administration: svc } = deps;

  // Staff directory: any staff member reads colleagues they share a program or enterprise with; the
  // service answers 404 for anyone else and decides who may change what.
  route(app, c.admin, {
    access: access.staff(),
    handler: async (req) => svc.detail(staffActor(req), req.params.id),
  });
  route(app, c.updateAdmin, {
    access: access.staff({ programRoles: ['admin', 'enterprise_admin'] }),
    handler: async (req) => svc.update(staffActor(req), req.params.id, req.body),
  });
  route(app, c.allAdmins, {
    access: access.staff(),
    handler: async (req) => svc.all(staffActor(req), req.query),
  });
  route(app, c.enterpriseAdmins, {
    access: access.enterprise(),
    handler: async (req) => svc.ofEnterprise(scopedEnterprise(req), req.query),
  });
  route(app, c.assignAdmins, {
    access: access.staff({ programRoles: ['admin', 'enterprise_admin'] }),
    handler: async (req) => svc.assign(staffActor(req), req.body),
  });
  route(app, c.physicians, {
    access: access.staff(),
    handler: async (req) => svc.physicians(staffActor(req), req.query.program_id),
  });

  route(app, c.showProgram, {
    access: access.program(),
    handler: async (req) => svc.showProgram(staffActor(req), scopedProgram(req).id),
  });
  route(app, c.createProgram, {
    access: access.staff(),
    handler: async (req) => svc.createProgram(staffActor(req), req.body),
  });
  route(app, c.updateProgram, {
    access: access.program(ADMINS),
    handler: async (req) => svc.updateProgram(staffActor(req), scopedProgram(req).id, req.body),
  });
  route(app, c.programImage, {
    access: access.program(),
    handler: async (req, reply) => sendLogo(reply, await svc.logo('program', scopedProgram(req).id)),
  });
  route(app, c.programEnterprise, {
    access: access.program(),
    handler: async (req) => svc.programEnterprise(staffActor(req), scopedProgram(req)),
  });

  route(app, c.enterprise, {
    access: access.enterprise(),
    handler: async (req) =>
      svc.enterprise(staffActor(req), scopedEnterprise(req), isTrue(req.query.withRelations)),
  });
  route(app, c.updateEnterprise, {
    access: access.enterprise(['enterprise_admin']),
    handler: async (req) => svc.updateEnterprise(staffActor(req), scopedEnterprise(req), req.body),
  });
  route(app, c.enterpriseImage, {
    access: access.enterprise(),
    handler: async (req, reply) => sendLogo(reply, await svc.logo('enterprise', scopedEnterprise(req).id)),
  });
  route(app, c.enterpriseHistory, {
    access: access.enterprise(ADMINS),
    handler: async (req) => svc.history(scopedEnterprise(req), req.query),
  });
}

function isTrue(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

function sendLogo(
  reply: import('fastify').FastifyReply,
  logo: { content_type: string; bytes: Buffer; updated_at: Date | string },
) {
  return reply
    .header('content-type', logo.content_type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    .header('cache-control', 'private, max-age=60')
    .header('last-modified', new Date(logo.updated_at).toUTCString())
    .send(logo.bytes);
}
