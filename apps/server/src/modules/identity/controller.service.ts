import { INVALID_CREDENTIALS } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { controllerActor } from '../../platform/access/access.plugin';
import { audit } from '../../platform/audit/audit';
import { passwordMatches } from '../../platform/auth/passwords';
import { createSession, revokeSession } from '../../platform/auth/sessions';
import type { TokenService } from '../../platform/auth/tokens';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { clearEvents, releaseAttempts, takeAttempt } from '../../platform/http/rate-limit';

/** The controller area's own realm: its accounts, sessions and tokens never mix with staff ones. */
export function createControllerService(deps: { db: Database; tokens: TokenService; config: Config }) {
  const { db, tokens } = deps;
  return {
    async signIn(email: string, password: string, ip: string) {
      const key = `controller-signin:${email}:${ip}`;
      const attempt = await takeAttempt(db, [
        { key, max: 5, windowSeconds: 900 },
        // Per address too, so one address cannot try password after password across many accounts.
        { key: `controller-signin-ip:${ip}`, max: 30, windowSeconds: 900 },
      ]);
      const res = await db.execute<{ id: number; password_hash: string; disabled_at: string | null }>(
        sql`SELECT id, password_hash, disabled_at FROM controller_accounts WHERE lower(email) = ${email}`,
      );
      const account = res.rows[0];
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

    async signOut(request: FastifyRequest) {
      const actor = controllerActor(request);
      await db.transaction(async (tx) => {
        await revokeSession(tx, actor.sessionId, 'sign_out');
        await audit(tx, {
          actorAdminId: null,
          actorRealm: 'controller',
          action: 'controller.sign_out',
          subjectType: 'controller',
          subjectId: actor.controllerId,
          ip: request.ip,
        });
      });
    },

    async me(request: FastifyRequest) {
      const actor = controllerActor(request);
      const res = await db.execute<{ id: number; email: string; name: string }>(
        sql`SELECT id, email, name FROM controller_accounts WHERE id = ${actor.controllerId}`,
      );
      const row = res.rows[0];
      if (!row) throw AppError.unauthenticated();
      return row;
    },
  };
}

export type ControllerService = ReturnType<typeof createControllerService>;
