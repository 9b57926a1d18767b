import {
  CARE_ROLES,
  smsContract as c,
  SMS_SIGNATURE_HEADER,
  SMS_TIMESTAMP_HEADER,
} from '@caredeck/contracts';
import type { FastifyRequest } from 'fastify';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { keepRawJsonBody } from '../../platform/http/raw-body';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { groupObject } from '../groups/groups.queries';
import type { SmsService } from './sms.service';

const header = (req: FastifyRequest, name: string) => {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** Staff calls on patients' texts and temp messages. */
export async function smsRoutes(app: App, deps: { sms: SmsService }) {
  const { sms } = deps;
  route(app, c.thread, {
    access: access.program(),
    handler: async (req) => sms.thread(staffActor(req), req.params.patientId, req.query),
  });
  route(app, c.send, {
    access: access.program(CARE_ROLES),
    handler: async (req) => sms.send(staffActor(req), req.params.patientId, req.body),
  });
  route(app, c.markRead, {
    access: access.program(),
    handler: async (req) => sms.markRead(staffActor(req), req.params.patientId),
  });
  route(app, c.tempMessage, {
    access: access.program(CARE_ROLES),
    handler: async (req) => sms.tempMessage(staffActor(req), req.body),
  });
  route(app, c.groupSend, {
    access: access.object(groupObject, { roles: CARE_ROLES }),
    handler: async (req) => sms.groupSend(staffActor(req), req.params.id, req.body.message),
  });
  route(app, c.groupHistory, {
    access: access.object(groupObject),
    handler: async (req) => sms.groupHistory(req.params.id, req.query),
  });
  route(app, c.tempThreads, {
    access: access.staff(),
    handler: async (req) => sms.tempThreads(staffActor(req), req.query.program_id),
  });
  route(app, c.tempHistory, {
    access: access.staff(),
    handler: async (req) => sms.tempHistory(staffActor(req), req.params.phone, req.query.program_id),
  });
  route(app, c.markTempRead, {
    access: access.staff(),
    handler: async (req) => sms.markTempRead(staffActor(req), req.body.msg_ids),
  });
}

/** The provider's webhooks, in their own scope: the raw body is kept for the signature. */
export async function smsWebhookRoutes(app: App, deps: { sms: SmsService }) {
  keepRawJsonBody(app);
  const signature = (req: FastifyRequest) => ({
    timestamp: header(req, SMS_TIMESTAMP_HEADER),
    signature: header(req, SMS_SIGNATURE_HEADER),
    rawBody: req.rawBody?.toString('utf8') ?? '',
  });
  route(app, c.inbound, {
    // Public: the provider proves itself with the signature of each delivery.
    access: access.public(),
    handler: async (req) => deps.sms.inbound(signature(req), req.body),
  });
  route(app, c.status, {
    access: access.public(),
    handler: async (req) => deps.sms.status(signature(req), req.body),
  });
}
