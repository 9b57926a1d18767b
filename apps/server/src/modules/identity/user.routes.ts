import { type AccessRuleEntry, accessRulesContract, userContract as c } from '@caredeck/contracts';
import type { Config } from '../../config';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { Realtime } from '../../platform/realtime/realtime';
import { refreshCookieWriter } from './auth.routes';
import type { IdentityService } from './identity.service';
import type { UserService } from './user.service';

export async function userRoutes(
  app: App,
  deps: { users: UserService; identity: IdentityService; realtime: Realtime; config: Config },
) {
  const { users, identity, realtime } = deps;
  const cookie = refreshCookieWriter(deps.config);

  // Before HIPAA consent the limited token may read the user and give consent, nothing else.
  route(app, c.me, {
    access: access.staff({ hipaaPending: true }),
    handler: async (req) => users.activeUser(staffActor(req)),
  });

  route(app, c.meV2, {
    access: access.staff({ hipaaPending: true }),
    handler: async (req) => ({
      ...(await users.activeUser(staffActor(req))),
      realtime: realtime.keys(),
    }),
  });

  // The roles each route requires, read from the rules the routes declared (ADR 065): the console's one source
  // for which actions to offer. Built once, on the first call (every route is registered by then).
  let rules: AccessRuleEntry[] | null = null;
  route(app, accessRulesContract.list, {
    access: access.staff(),
    handler: async () => {
      rules ??= app.accessTable.flatMap(({ method, url, access: rule }): AccessRuleEntry[] => {
        if (method === 'HEAD') return [];
        const roles = rule.kind === 'staff' ? rule.programRoles : 'roles' in rule ? rule.roles : undefined;
        return roles ? [{ method, path: url, roles: [...roles] }] : [];
      });
      return { data: rules };
    },
  });

  route(app, c.updateProfile, {
    access: access.staff(),
    handler: async (req) => users.updateProfile(staffActor(req), req.body),
  });

  route(app, c.consentHipaa, {
    access: access.staff({ hipaaPending: true }),
    handler: async (req, reply) => {
      const outcome = await identity.consentHipaa(staffActor(req));
      if (outcome.refreshToken) cookie.set(reply, outcome.refreshToken);
      return outcome.result;
    },
  });

  route(app, c.changePassword, {
    access: access.staff(),
    handler: async (req) => {
      await identity.changePassword(staffActor(req), req.body);
    },
  });

  route(app, c.mfaSetup, {
    access: access.staff(),
    handler: async (req) => users.mfaSetup(staffActor(req)),
  });

  route(app, c.mfaEnable, {
    access: access.staff(),
    handler: async (req) => users.mfaEnable(staffActor(req), req.body),
  });

  route(app, c.mfaDisable, {
    access: access.staff(),
    handler: async (req) => users.mfaDisable(staffActor(req), req.body),
  });

  route(app, c.loginLog, {
    access: access.staff(),
    handler: async (req) => users.loginLog(staffActor(req)),
  });

  route(app, c.logoutLog, {
    access: access.staff(),
    handler: async (req) => users.logoutLog(staffActor(req), { logId: req.params.id }),
  });

  route(app, c.resetPasswordExpire, {
    access: access.staff(),
    handler: async (req) => users.resetPasswordExpire(staffActor(req), req.body),
  });

  route(app, c.broadcastingAuth, {
    access: access.staff(),
    handler: async (req) =>
      realtime.authorizeChannel(staffActor(req).adminId, req.body.socket_id, req.body.channel_name),
  });

  route(app, c.pageSession, {
    access: access.program(),
    handler: async (req) => {
      const actor = staffActor(req);
      // Page time is recorded for the signed-in user only; another id is not theirs to write.
      if (req.params.id !== actor.adminId) throw AppError.notFound();
      await users.recordPageSession(actor, req.body);
    },
  });
}
