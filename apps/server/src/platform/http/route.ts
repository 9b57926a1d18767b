import {
  errorBody,
  NO_BODY,
  type RouteBody,
  type RouteContract,
  type RouteParams,
  type RouteQuery,
  type RouteResult,
  strictBody,
} from '@caredeck/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AccessRule } from '../access/rules';
import type { App } from './types';

/** Every route can answer these, in the contract's error shape. */
const ERROR_RESPONSES = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  413: errorBody,
  422: errorBody,
  429: errorBody,
  500: errorBody,
  502: errorBody,
  503: errorBody,
} as const;

/** A route without query parameters in its contract takes none. */
const NO_QUERY = z.object({}).strict();

/**
 * The query a route accepts, strict: a parameter its contract does not name, a bracket form (`a[]=1`,
 * `a[b]=1`) or a repeated one answers 422 like any refused input, never silently ignored (issue 28 item 4).
 */
export function strictQuery(schema: z.ZodType | undefined): z.ZodType {
  if (!schema) return NO_QUERY;
  if (schema instanceof z.ZodObject) return schema.strict();
  return schema;
}

export type RouteRequest<C extends RouteContract> = FastifyRequest<{
  Params: RouteParams<C>;
  Querystring: RouteQuery<C>;
  Body: RouteBody<C>;
}>;

export type RouteHandler<C extends RouteContract> = (
  req: RouteRequest<C>,
  reply: FastifyReply,
) => Promise<RouteResult<C>>;

/**
 * Registers the handler of a contract route, with its access rule beside it. The handler's input is
 * typed from the contract's schemas and its return value must match the success schema (a mismatch
 * fails the type check); the reply's status is the contract's success status (201, 204 …).
 */
export function route<C extends RouteContract>(
  app: App,
  contract: C,
  options: {
    access: AccessRule;
    handler: RouteHandler<C>;
    /**
     * The route takes a multipart form or a JSON body that its handler reads and checks itself (strictly, with
     * `parseFormFields(…, { json: true })`): no body schema here. Notes and messages (ADR 070).
     */
    form?: true;
  },
): void {
  const statuses = Object.keys(contract.responses).map(Number);
  const success = Math.min(...statuses);
  const response: Record<number, z.ZodType> = { ...ERROR_RESPONSES };
  for (const status of statuses) {
    const schema = contract.responses[status as 200 | 201 | 204];
    response[status] = schema ?? z.null();
  }
  app.route({
    method: contract.method,
    url: contract.path,
    config: { access: options.access },
    schema: {
      ...(contract.summary ? { summary: contract.summary } : {}),
      ...(contract.tags ? { tags: [...contract.tags] } : {}),
      ...(contract.hidden ? { hide: true } : {}),
      ...(contract.params ? { params: contract.params } : {}),
      querystring: strictQuery(contract.query),
      // Bodies are strict like queries (ADR 070): an unknown field answers 422 naming it, at any depth.
      ...(contract.body
        ? { body: strictBody(contract.body) }
        : contract.method !== 'GET' && !options.form
          ? { body: NO_BODY }
          : {}),
      response,
    },
    handler: async (req, reply) => {
      const result = await options.handler(req as unknown as RouteRequest<C>, reply);
      // A file route sends its stream itself (reply.send(stream)); the reply is then Fastify's to finish.
      if (reply.sent || contract.file) return reply;
      if (reply.statusCode === 200 && success !== 200) reply.status(success);
      if (reply.statusCode === 204) return reply.send();
      return result;
    },
  });
}
