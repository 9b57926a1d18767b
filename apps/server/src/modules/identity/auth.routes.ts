import {
  confirmRegistrationBody,
  controllerMe,
  controllerSignInResult,
  errorBody,
  forgotPasswordBody,
  messageBody,
  mfaBody,
  newPasswordBody,
  refreshResult,
  registerBody,
  resetPasswordBody,
  signInBody,
  signInResult,
} from '@caredeck/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import { access } from '../../platform/access/rules';
import type { TokenService } from '../../platform/auth/tokens';
import type { App } from '../../platform/http/types';
import type { ControllerService } from './controller.service';
import type { IdentityService, SignInOutcome } from './identity.service';

export const REFRESH_COOKIE = 'cd_refresh';
const REFRESH_COOKIE_PATH = '/api/auth';
const tags = ['auth'];
const errors = { 401: errorBody, 403: errorBody, 422: errorBody, 429: errorBody };

export function refreshCookieWriter(config: Config) {
  const options = {
    path: REFRESH_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: config.COOKIE_SECURE || config.NODE_ENV === 'production',
  };
  return {
    set(reply: FastifyReply, token: string) {
      reply.setCookie(REFRESH_COOKIE, token, { ...options, maxAge: config.REFRESH_TOKEN_TTL_DAYS * 86_400 });
    },
    clear(reply: FastifyReply) {
      reply.clearCookie(REFRESH_COOKIE, options);
    },
  };
}

export async function authRoutes(
  app: App,
  deps: { identity: IdentityService; controller: ControllerService; config: Config; tokens: TokenService },
) {
  const { identity, controller } = deps;
  const cookie = refreshCookieWriter(deps.config);
  const answer = (reply: FastifyReply, outcome: SignInOutcome) => {
    if (outcome.refreshToken) cookie.set(reply, outcome.refreshToken);
    return outcome.result;
  };

  app.post(
    '/api/auth/sign-in',
    {
      config: { access: access.public() },
      schema: { tags, body: signInBody, response: { 200: signInResult, ...errors } },
    },
    async (req, reply) => answer(reply, await identity.signIn(req.body.email, req.body.password, req.ip)),
  );

  app.post(
    '/api/auth/new-password',
    {
      config: { access: access.public() },
      schema: { tags, body: newPasswordBody, response: { 200: signInResult, ...errors } },
    },
    async (req, reply) =>
      answer(reply, await identity.completeNewPassword(req.body.challenge_token, req.body.password, req.ip)),
  );

  app.post(
    '/api/auth/mfa',
    {
      config: { access: access.public() },
      schema: { tags, body: mfaBody, response: { 200: signInResult, ...errors } },
    },
    async (req, reply) =>
      answer(reply, await identity.completeMfa(req.body.challenge_token, req.body.code, req.ip)),
  );

  app.post(
    '/api/auth/forgot-password',
    {
      config: { access: access.public() },
      schema: { tags, body: forgotPasswordBody, response: { 200: messageBody, ...errors } },
    },
    async (req) => {
      await identity.forgotPassword(req.body.email, req.ip);
      return { message: 'If the address belongs to an account, a code is on its way.' };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { access: access.public() },
      schema: { tags, body: resetPasswordBody, response: { 200: messageBody, ...errors } },
    },
    async (req) => {
      await identity.resetPassword(req.body.email, req.body.code, req.body.password, req.ip);
      return { message: 'Your password has been reset. Please sign in.' };
    },
  );

  app.post(
    '/api/auth/register',
    {
      config: { access: access.public() },
      schema: { tags, body: registerBody, response: { 200: messageBody, ...errors } },
    },
    async (req) => {
      await identity.register(req.body, req.ip);
      return { message: 'Check your e-mail for a confirmation code.' };
    },
  );

  app.post(
    '/api/auth/confirm-registration',
    {
      config: { access: access.public() },
      schema: { tags, body: confirmRegistrationBody, response: { 200: messageBody, ...errors } },
    },
    async (req) => {
      await identity.confirmRegistration(req.body.email, req.body.code, req.ip);
      return { message: 'Your account is confirmed. Please sign in.' };
    },
  );

  app.post(
    '/api/auth/refresh',
    {
      config: { access: access.public() },
      schema: { tags, response: { 200: refreshResult, 401: errorBody } },
    },
    async (req, reply) => {
      try {
        const { accessToken, refreshToken } = await identity.refresh(req.cookies[REFRESH_COOKIE]);
        cookie.set(reply, refreshToken);
        return { access_token: accessToken, expires_in: deps.config.ACCESS_TOKEN_TTL_SECONDS };
      } catch (err) {
        cookie.clear(reply);
        throw err;
      }
    },
  );

  app.post(
    '/api/auth/sign-out',
    { config: { access: access.public() }, schema: { tags, response: { 204: z.null() } } },
    async (req, reply) => {
      // The bearer names the session when it is still valid; the refresh cookie otherwise.
      const header = req.headers.authorization;
      const claims = header?.startsWith('Bearer ')
        ? await deps.tokens.verifyAccess(header.slice(7), 'staff')
        : null;
      const sid = claims?.sid ?? null;
      await identity.signOut(sid, req.cookies[REFRESH_COOKIE], req.ip);
      cookie.clear(reply);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/controller/sign-in',
    {
      config: { access: access.public() },
      schema: { tags, body: signInBody, response: { 200: controllerSignInResult, ...errors } },
    },
    async (req) => controller.signIn(req.body.email, req.body.password, req.ip),
  );

  app.post(
    '/api/auth/controller/sign-out',
    {
      config: { access: access.controller() },
      schema: { tags, response: { 204: z.null(), 401: errorBody } },
    },
    async (req, reply) => {
      await controller.signOut(req);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/controller/me',
    {
      config: { access: access.controller() },
      schema: { tags: ['controller'], response: { 200: controllerMe, 401: errorBody } },
    },
    async (req) => controller.me(req),
  );
}
