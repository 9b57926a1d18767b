import { INVALID_CREDENTIALS } from '@caredeck/contracts';
import type { Config } from '../../config';
import type { ControllerActor, PublicActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import { passwordMatches } from '../../platform/auth/passwords';
import { createSession, revokeSession } from '../../platform/auth/sessions';
import type { TokenService } from '../../platform/auth/tokens';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { clearEvents, releaseAttempts, takeAttempt } from '../../platform/http/rate-limit';
import { controllerAccount, controllerAccountByEmail } from './identity.queries';

/** The controller area's own realm: its accounts, sessions and tokens never mix with staff ones. */
export function createControllerService(deps: { db: Database; tokens: TokenService; config: Config }) {
  const { db, tokens } = deps;
  return {
    async signIn(actor: PublicActor, input: { email: string; password: string }) {
      const { email, password } = input;
      const { ip } = actor;
      const key = `controller-signin:${email}:${ip}`;
      const attempt = await takeAttempt(db, [
        { key, max: 5, windowSeconds: 900 },
        // Per address too, so one address cannot try password after password across many accounts.
        { key: `controller-signin-ip:${ip}`, max: 30, windowSeconds: 900 },
      ]);
      const account = await controllerAccountByEmail(db, email);
      const valid = await passwordMatches(account?.password_hash, password);
      if (!account || !valid || account.disabled_at) throw AppError.unauthenticated(INVALID_CREDENTIALS);
      await releaseAttempts(db, attempt);
      await clearEvents(db, key);
      const sessionId = await db.transaction(async (tx) => {
        const sid = await createSession(tx, { realm: 'controller', controllerId: account.id }, 'full');
        await audit(tx, {
          actorAdminId: null,
          actorRealm: 'controller',
          action: 'controller.sign_in',
          subjectType: 'controller',
          subjectId: account.id,
          ip,
        });
        return sid;
      });
      const access_token = await tokens.signAccess({
        sub: account.id,
        sid: sessionId.publicId,
        realm: 'controller',
        scope: 'full',
      });
      return { status: 'signedIn' as const, access_token, expires_in: tokens.accessTtlSeconds };
    },

    async signOut(actor: ControllerActor) {
      await db.transaction(async (tx) => {
        await revokeSession(tx, actor.sessionId, 'sign_out');
        await audit(tx, {
          actorAdminId: null,
          actorRealm: 'controller',
          action: 'controller.sign_out',
          subjectType: 'controller',
          subjectId: actor.controllerId,
          ip: actor.ip,
        });
      });
    },

    async me(actor: ControllerActor) {
      const row = await controllerAccount(db, actor.controllerId);
      if (!row) throw AppError.unauthenticated();
      return row;
    },
  };
}

export type ControllerService = ReturnType<typeof createControllerService>;
