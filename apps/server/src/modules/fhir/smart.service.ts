import { FHIR_SCOPE } from '@caredeck/contracts';
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from 'jose';
import { audit } from '../../platform/audit/audit';
import type { TokenService } from '../../platform/auth/tokens';
import type { Database } from '../../platform/db/client';
import { liveClientByClientId, useAssertion } from './clients.queries';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Access tokens live five minutes: a client asks again (SMART Backend Services recommends at most 5). */
export const CLIENT_TOKEN_TTL_SECONDS = 300;
/** An assertion may not claim to be good for longer than this (SMART: exp at most 5 minutes ahead). */
const MAX_ASSERTION_SECONDS = 300;

/** An OAuth 2.0 token error (RFC 6749 §5.2): its code, what to tell the client, and the status. */
export class TokenError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string,
  ) {
    super(description);
  }
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}

/** Whether a granted scope covers a requested one: the same, or `system/*` for a type; `.read` ≡ `.rs`. */
function covers(granted: string, requested: string): boolean {
  const g = FHIR_SCOPE.exec(granted);
  const r = FHIR_SCOPE.exec(requested);
  return !!g && !!r && (g[1] === '*' || g[1] === r[1]);
}

/**
 * The token endpoint of SMART Backend Services (ADR 074): `client_credentials` with a JWT assertion signed by
 * the client's private key (RS384 or ES384), checked against its registered public keys: issuer and subject its
 * client id, audience this endpoint, `exp` at most five minutes ahead, `jti` never seen. Answers a short-lived
 * token of the scopes asked for that the client may have.
 */
export function createSmartService(deps: { db: Database; tokens: TokenService }) {
  const { db, tokens } = deps;
  return {
    async token(form: Record<string, string>, tokenUrl: string, ip: string) {
      if (form.grant_type !== 'client_credentials')
        throw new TokenError('unsupported_grant_type', 'Use grant_type=client_credentials.');
      if (form.client_assertion_type !== CLIENT_ASSERTION_TYPE || !form.client_assertion)
        throw new TokenError(
          'invalid_request',
          `Send client_assertion_type=${CLIENT_ASSERTION_TYPE} and a client_assertion.`,
        );
      if (!form.scope) throw new TokenError('invalid_request', 'Ask for a scope, e.g. system/*.rs.');
      let issuer: string | undefined;
      try {
        issuer = decodeJwt(form.client_assertion).iss;
      } catch {
        throw new TokenError('invalid_client', 'The client assertion is not a JWT.');
      }
      const client = issuer ? await liveClientByClientId(db, issuer) : null;
      if (!client) throw new TokenError('invalid_client', 'The client is not registered or was revoked.');
      let payload: { exp?: number; jti?: string };
      try {
        ({ payload } = await jwtVerify(
          form.client_assertion,
          createLocalJWKSet(client.jwks as JSONWebKeySet),
          {
            algorithms: ['RS384', 'ES384'],
            issuer: client.client_id,
            subject: client.client_id,
            audience: tokenUrl,
            requiredClaims: ['exp', 'jti'],
            clockTolerance: 30,
          },
        ));
      } catch {
        throw new TokenError(
          'invalid_client',
          'The client assertion does not verify with the registered keys.',
        );
      }
      const now = Date.now() / 1000;
      if (
        typeof payload.jti !== 'string' ||
        payload.jti.length > 200 ||
        payload.exp! - now > MAX_ASSERTION_SECONDS
      )
        throw new TokenError(
          'invalid_client',
          'The assertion needs a jti and an exp at most five minutes ahead.',
        );
      const requested = [...new Set(form.scope.split(' ').filter(Boolean))];
      const granted = requested.filter((r) => client.scopes.some((g) => covers(g, r)));
      if (granted.length === 0)
        throw new TokenError('invalid_scope', 'None of the scopes asked for is granted to this client.');
      const accessToken = await tokens.signFhirClient(
        { sub: client.id, scope: granted.join(' ') },
        CLIENT_TOKEN_TTL_SECONDS,
      );
      await db.transaction(async (tx) => {
        if (!(await useAssertion(tx, client.id, payload.jti!, new Date((payload.exp! + 30) * 1000))))
          throw new TokenError(
            'invalid_client',
            'This assertion was used already: sign a new one (a new jti).',
          );
        await audit(tx, {
          actorAdminId: null,
          actorRealm: 'fhir_client',
          programId: client.program_id,
          action: 'fhir_client.token',
          subjectType: 'fhir_client',
          subjectId: client.id,
          details: { scopes: granted },
          ip,
        });
      });
      return {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: CLIENT_TOKEN_TTL_SECONDS,
        scope: granted.join(' '),
      };
    },
  };
}

export type SmartService = ReturnType<typeof createSmartService>;
