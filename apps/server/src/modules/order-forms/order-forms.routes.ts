import { orderFormsContract as c } from '@caredeck/contracts';
import { scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { sendAttachment } from '../../platform/files/attachment';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { ORDER_FORM_ROLES, type OrderFormsService } from './order-forms.service';

// The path program is checked by the access hook (404 outside, 403 for other roles); the service checks the
// patient is of that program and the form of that patient (404 otherwise).
export async function orderFormsRoutes(app: App, deps: { orderForms: OrderFormsService }) {
  const { orderForms: svc } = deps;
  const care = access.program(ORDER_FORM_ROLES);

  route(app, c.templates, {
    access: access.program(),
    handler: async (req) => svc.templates(scopedProgram(req).id),
  });
  route(app, c.patientTemplates, {
    access: care,
    handler: async (req) => svc.patientTemplates(staffActor(req), scopedProgram(req).id, req.params.userId),
  });
  route(app, c.list, {
    access: care,
    handler: async (req) => svc.list(staffActor(req), scopedProgram(req).id, req.params.userId, req.query),
  });
  route(app, c.create, {
    access: care,
    handler: async (req) => svc.create(staffActor(req), scopedProgram(req).id, req.params.userId, req.body),
  });
  route(app, c.send, {
    access: care,
    handler: async (req) => svc.send(staffActor(req), scopedProgram(req).id, req.params.userId, req.body),
  });
  route(app, c.resend, {
    access: care,
    handler: async (req) =>
      svc.resend(staffActor(req), scopedProgram(req).id, req.params.userId, req.params.id, req.body),
  });
  route(app, c.pdf, {
    access: care,
    handler: async (req, reply) =>
      sendAttachment(reply, {
        ...(await svc.pdf(staffActor(req), scopedProgram(req).id, req.params.userId, req.params.id)),
        contentType: c.pdf.file.contentType,
      }),
  });
  // The recipient of a sent form holds a link, not an account: the signed token is checked by the service
  // (401 for a bad or expired one), like the messenger's guest links (ADR 044).
  route(app, c.linkPdf, {
    access: access.guest(),
    handler: async (req, reply) =>
      sendAttachment(reply, {
        ...(await svc.linkPdf(req.params.token, req.ip)),
        contentType: c.linkPdf.file.contentType,
      }),
  });
}
