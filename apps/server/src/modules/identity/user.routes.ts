import {
  activeUser,
  activeUserV2,
  broadcastingAuthBody,
  broadcastingAuthResponse,
  changePasswordBody,
  errorBody,
  idParam,
  loginLogResponse,
  mfaCodeBody,
  mfaSetupResult,
  pageSessionBody,
  resetPasswordExpireBody,
  signInResult,
  updateProfileBody,
} from '@caredeck/contracts';
import { z } from 'zod';
import type { Config } from '../../config';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { AppError } from '../../platform/http/errors';
import type { App } from '../../platform/http/types';
import type { Realtime } from '../../platform/realtime/realtime';
import { refreshCookieWriter } from './auth.routes';
import type { IdentityService } from './identity.service';
import type { UserService } from './user.service';

const tags = ['user'];
const errors = {
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
  429: errorBody,
};
const idParams = z.object({ id: idParam });

export async function userRoutes(
  app: App,
  deps: { users: UserService; identity: IdentityService; realtime: Realtime; config: Config },
) {
  const { users, identity, realtime } = deps;
  const cookie = refreshCookieWriter(deps.config);

  // Before HIPAA consent the limited token may read the user and give consent, nothing else.
  app.get(
    '/api/v1/user',
    {
      config: { access: access.staff({ hipaaPending: true }) },
      schema: { tags, response: { 200: activeUser, ...errors } },
    },
    async (req) => users.activeUser(staffActor(req).adminId),
  );

  app.get(
    '/api/v2/user',
    {
      config: { access: access.staff({ hipaaPending: true }) },
      schema: { tags, response: { 200: activeUserV2, ...errors } },
    },
    async (req) => ({ ...(await users.activeUser(staffActor(req).adminId)), realtime: realtime.keys() }),
  );

  app.put(
    '/api/v1/user',
    {
      config: { access: access.staff() },
      schema: { tags, body: updateProfileBody, response: { 200: activeUser, ...errors } },
    },
    async (req) => users.updateProfile(staffActor(req).adminId, req.body, req.ip),
  );

  app.put(
    '/api/v1/user/consent/hipaa',
    {
      config: { access: access.staff({ hipaaPending: true }) },
      schema: { tags, response: { 200: signInResult, ...errors } },
    },
    async (req, reply) => {
      const actor = staffActor(req);
      const outcome = await identity.consentHipaa(
        actor.adminId,
        { id: actor.sessionId, publicId: actor.sessionPublicId },
        req.ip,
      );
      if (outcome.refreshToken) cookie.set(reply, outcome.refreshToken);
      return outcome.result;
    },
  );

  app.put(
    '/api/v1/user/password',
    {
      config: { access: access.staff() },
      schema: { tags, body: changePasswordBody, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      const actor = staffActor(req);
      await identity.changePassword(
        actor.adminId,
        actor.sessionId,
        req.body.current_password,
        req.body.password,
        req.ip,
      );
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/v1/user/mfa/setup',
    { config: { access: access.staff() }, schema: { tags, response: { 200: mfaSetupResult, ...errors } } },
    async (req) => users.mfaSetup(staffActor(req).adminId),
  );

  app.post(
    '/api/v1/user/mfa/enable',
    {
      config: { access: access.staff() },
      schema: { tags, body: mfaCodeBody, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await users.mfaEnable(staffActor(req).adminId, req.body.code, req.ip);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/v1/user/mfa/disable',
    {
      config: { access: access.staff() },
      schema: { tags, body: mfaCodeBody, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await users.mfaDisable(staffActor(req).adminId, req.body.code, req.ip);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/api/v1/user/login_log',
    { config: { access: access.staff() }, schema: { tags, response: { 200: loginLogResponse, ...errors } } },
    async (req) => {
      const actor = staffActor(req);
      return users.loginLog(actor.adminId, actor.sessionId, req.ip);
    },
  );

  app.put(
    '/api/v1/logout_log/:id',
    {
      config: { access: access.staff() },
      schema: { tags, params: idParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await users.logoutLog(staffActor(req).adminId, req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/api/v1/user/reset-password-expire',
    {
      config: { access: access.staff() },
      schema: { tags, body: resetPasswordExpireBody, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await users.resetPasswordExpire(staffActor(req).adminId, req.body.email, req.ip);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/v1/broadcasting/auth',
    {
      config: { access: access.staff() },
      schema: {
        tags: ['realtime'],
        body: broadcastingAuthBody,
        response: { 200: broadcastingAuthResponse, ...errors },
      },
    },
    async (req) =>
      realtime.authorizeChannel(staffActor(req).adminId, req.body.socket_id, req.body.channel_name),
  );

  app.post(
    '/api/v1/programs/:programId/users/:id/session',
    {
      config: { access: access.program() },
      schema: {
        tags,
        params: z.object({ programId: idParam, id: idParam }),
        body: pageSessionBody,
        response: { 201: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const actor = staffActor(req);
      // Page time is recorded for the signed-in user only; another id is not theirs to write.
      if (req.params.id !== actor.adminId) throw AppError.notFound();
      await users.recordPageSession(actor, req.body);
      return reply.status(201).send(null);
    },
  );
}
