import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { access } from '../../platform/access/rules';
import { AppError } from '../../platform/http/errors';
import { sendFhir } from '../../platform/http/outcome';
import type { App } from '../../platform/http/types';
import { capabilityStatement } from './capability';
import type { FhirReader, FhirService } from './fhir.service';
import type { ResourceDefinition } from './resources/resource';
import { isLenient, parseSearch } from './search';

export const FHIR_BASE_PATH = '/fhir/R4';

/** The server's own address for fullUrl and links: PUBLIC_URL when set, else the request's host. */
export function baseUrlOf(config: Config, request: FastifyRequest): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** The reader of a FHIR request: the staff member or the SMART backend client the access hook found. */
export function readerOf(request: FastifyRequest): FhirReader {
  const actor = request.actor;
  if (actor?.realm === 'staff') return { kind: 'staff', adminId: actor.adminId, ip: actor.ip };
  if (actor?.realm === 'fhir_client')
    return {
      kind: 'client',
      clientId: actor.clientId,
      programId: actor.programId,
      scopes: actor.scopes,
      ip: actor.ip,
    };
  throw AppError.unauthenticated();
}

export function rawQueryOf(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
}

/**
 * FHIR R4 routes (ADR 073): outside /api/v1 and outside the contracts (FHIR's CapabilityStatement is their
 * contract), each with its access rule like every route. Hidden from the OpenAPI document.
 */
export function fhirRoutes(
  app: App,
  deps: { fhir: FhirService; config: Config; resources: readonly ResourceDefinition[] },
) {
  const { fhir, config, resources } = deps;
  const schema = { hide: true };
  app.route({
    method: 'GET',
    url: `${FHIR_BASE_PATH}/metadata`,
    config: { access: access.public() },
    schema,
    handler: async (request, reply) => {
      parseSearch(rawQueryOf(request), [], true);
      return sendFhir(reply, 200, capabilityStatement(baseUrlOf(config, request), resources));
    },
  });
  for (const def of resources) {
    app.route({
      method: 'GET',
      url: `${FHIR_BASE_PATH}/${def.type}`,
      config: { access: access.fhir() },
      schema,
      handler: async (request, reply) => {
        const bundle = await fhir.search(readerOf(request), def, {
          rawQuery: rawQueryOf(request),
          lenient: isLenient(request.headers.prefer),
          baseUrl: baseUrlOf(config, request),
        });
        return sendFhir(reply, 200, bundle);
      },
    });
    app.route({
      method: 'GET',
      url: `${FHIR_BASE_PATH}/${def.type}/:id`,
      config: { access: access.fhir() },
      schema,
      handler: async (request, reply) => {
        // A read takes no search parameters; `_format` is still checked (JSON only).
        parseSearch(rawQueryOf(request), [], true);
        const { id } = request.params as { id: string };
        const resource = await fhir.read(readerOf(request), def, id);
        return sendFhir(reply, 200, resource);
      },
    });
  }
}
