import { FHIR_SCOPE_TYPES } from '@caredeck/contracts';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config';
import { access } from '../../platform/access/rules';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { takeAttempt } from '../../platform/http/rate-limit';
import type { App } from '../../platform/http/types';
import { baseUrlOf, FHIR_BASE_PATH } from './fhir.routes';
import { type SmartService, TokenError } from './smart.service';

export const TOKEN_PATH = '/fhir/auth/token';
export const TOKEN_REQUESTS_PER_MINUTE = 60;

/** OAuth answers are JSON with `error` (RFC 6749 §5.2), never cached. */
function oauthError(reply: FastifyReply, error: TokenError): FastifyReply {
  return reply
    .status(error.status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: error.error, error_description: error.description }));
}

/**
 * SMART Backend Services (ADR 074): the discovery document and the token endpoint, both public (a client
 * proves itself with its signed assertion). The token endpoint reads `application/x-www-form-urlencoded`.
 */
export async function smartRoutes(app: App, deps: { smart: SmartService; config: Config; db: Database }) {
  const { smart, config, db } = deps;
  app.route({
    method: 'GET',
    url: `${FHIR_BASE_PATH}/.well-known/smart-configuration`,
    config: { access: access.public() },
    schema: { hide: true },
    handler: async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(
        JSON.stringify({
          token_endpoint: `${baseUrlOf(config, request)}${TOKEN_PATH}`,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['private_key_jwt'],
          token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
          scopes_supported: FHIR_SCOPE_TYPES.flatMap((t) => [`system/${t}.rs`, `system/${t}.read`]),
          capabilities: ['client-confidential-asymmetric', 'permission-v1', 'permission-v2'],
        }),
      ),
  });
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => {
        const form: Record<string, string> = {};
        for (const [key, value] of new URLSearchParams(String(body))) if (!(key in form)) form[key] = value;
        done(null, form);
      },
    );
    scope.route({
      method: 'POST',
      url: TOKEN_PATH,
      config: { access: access.public() },
      schema: { hide: true },
      handler: async (request, reply) => {
        const body = request.body;
        // Text values only (a JSON body may carry others): anything else is as good as absent.
        const form: Record<string, string> = {};
        if (body && typeof body === 'object' && !Array.isArray(body))
          for (const [key, value] of Object.entries(body)) if (typeof value === 'string') form[key] = value;
        try {
          // A public endpoint that verifies signatures: at most 60 requests a minute from one address.
          await takeAttempt(db, [
            { key: `fhir-token:${request.ip}`, max: TOKEN_REQUESTS_PER_MINUTE, windowSeconds: 60 },
          ]);
          const token = await smart.token(form, `${baseUrlOf(config, request)}${TOKEN_PATH}`, request.ip);
          return reply
            .header('cache-control', 'no-store')
            .type('application/json; charset=utf-8')
            .send(JSON.stringify(token));
        } catch (error) {
          if (error instanceof TokenError) return oauthError(reply, error);
          if (error instanceof AppError && error.code === 'rate_limited')
            return reply
              .status(429)
              .headers({ ...error.headers, 'cache-control': 'no-store' })
              .type('application/json; charset=utf-8')
              .send(JSON.stringify({ error: 'invalid_request', error_description: error.message }));
          throw error;
        }
      },
    });
  });
}
