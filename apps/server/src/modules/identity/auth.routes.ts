import { authContract as c } from '@caredeck/contracts';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config';
import { controllerActor } from '../../platform/access/access.plugin';
import { publicActor } from '../../platform/access/actor';
import { access } from '../../platform/access/rules';
import type { TokenService } from '../../platform/auth/tokens';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { ControllerService } from './controller.service';
import type { IdentityService, SignInOutcome } from './identity.service';
import type { UserService } from './user.service';

export const REFRESH_COOKIE = 'cd_refresh';
/** The refresh cookie goes only to the auth routes, the folder of the refresh route. */
const REFRESH_COOKIE_PATH = c.refresh.path.slice(0, c.refresh.path.lastIndexOf('/'));

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
  deps: {
    identity: IdentityService;
    users: UserService;
    controller: ControllerService;
    config: Config;
    tokens: TokenService;
  },
) {
  const { identity, controller } = deps;
  const cookie = refreshCookieWriter(deps.config);
  const answer = (reply: FastifyReply, outcome: SignInOutcome) => {
    if (outcome.refreshToken) cookie.set(reply, outcome.refreshToken);
    return outcome.result;
  };

  route(app, c.signIn, {
    access: access.public(),
    handler: async (req, reply) => answer(reply, await identity.signIn(publicActor(req), req.body)),
  });

  route(app, c.newPassword, {
    access: access.public(),
    handler: async (req, reply) =>
      answer(reply, await identity.completeNewPassword(publicActor(req), req.body)),
  });

  route(app, c.mfa, {
    access: access.public(),
    handler: async (req, reply) => answer(reply, await identity.completeMfa(publicActor(req), req.body)),
  });

  route(app, c.forgotPassword, {
    access: access.public(),
    handler: async (req) => {
      await identity.forgotPassword(publicActor(req), req.body);
      return { message: 'If the address belongs to an account, a code is on its way.' };
    },
  });

  route(app, c.resetPassword, {
    access: access.public(),
    handler: async (req) => {
      await identity.resetPassword(publicActor(req), req.body);
      return { message: 'Your password has been reset. Please sign in.' };
    },
  });

  route(app, c.register, {
    access: access.public(),
    handler: async (req) => {
      await identity.register(publicActor(req), req.body);
      return { message: 'Check your e-mail for a confirmation code.' };
    },
  });

  route(app, c.confirmRegistration, {
    access: access.public(),
    handler: async (req) => {
      await identity.confirmRegistration(publicActor(req), req.body);
      return { message: 'Your account is confirmed. Please sign in.' };
    },
  });

  route(app, c.refresh, {
    access: access.public(),
    handler: async (req, reply) => {
      // No session to renew (a first visit): nothing to refuse, so no error status in the browser's console.
      if (!req.cookies[REFRESH_COOKIE]) return reply.code(204).send();
      try {
        const { accessToken, refreshToken, adminId } = await identity.refresh(publicActor(req), {
          refreshToken: req.cookies[REFRESH_COOKIE],
        });
        cookie.set(reply, refreshToken);
        const answer = { access_token: accessToken, expires_in: deps.config.ACCESS_TOKEN_TTL_SECONDS };
        // On a page load the console asks for the user with the token: one round trip instead of two.
        return req.query.include === 'user'
          ? { ...answer, user: await deps.users.activeUser({ adminId }) }
          : answer;
      } catch (err) {
        cookie.clear(reply);
        throw err;
      }
    },
  });

  route(app, c.signOut, {
    access: access.public(),
    handler: async (req, reply) => {
      // The bearer names the session when it is still valid; the refresh cookie otherwise.
      const header = req.headers.authorization;
      const claims = header?.startsWith('Bearer ')
        ? await deps.tokens.verifyAccess(header.slice(7), 'staff')
        : null;
      await identity.signOut(publicActor(req), {
        sessionPublicId: claims?.sid ?? null,
        refreshToken: req.cookies[REFRESH_COOKIE],
      });
      cookie.clear(reply);
    },
  });

  route(app, c.controllerSignIn, {
    access: access.public(),
    handler: async (req) => controller.signIn(publicActor(req), req.body),
  });

  route(app, c.controllerSignOut, {
    access: access.controller(),
    handler: async (req) => {
      await controller.signOut(controllerActor(req));
    },
  });

  route(app, c.controllerMe, {
    access: access.controller(),
    handler: async (req) => controller.me(controllerActor(req)),
  });
}
