import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * One route of the API, defined once: the server registers its handler from it, the console calls it
 * through the typed client, tests and mocks address it, and OpenAPI is generated from it (ADR 018).
 * `responses` names the success answer(s) only; every route also answers the contract's error shape.
 */
export type RouteContract = {
  method: HttpMethod;
  /** Fastify-style path: `/api/v1/programs/:programId/users`. Written nowhere else. */
  path: string;
  summary?: string;
  tags?: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Success status → body schema; `null` for 204 No Content. */
  responses: Partial<Record<200 | 201 | 204, z.ZodType | null>>;
  /** Hidden from the OpenAPI document (health checks). */
  hidden?: boolean;
  /** The success answer is a file (spreadsheet, PDF) of this media type, streamed: `responses` is `{ 200: null }`. */
  file?: { contentType: string };
};

export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What the server handler receives, after validation. */
export type RouteParams<C extends RouteContract> = Out<C['params']>;
export type RouteQuery<C extends RouteContract> = Out<C['query']>;
export type RouteBody<C extends RouteContract> = Out<C['body']>;

export type SuccessStatus<C extends RouteContract> = Extract<keyof C['responses'], number>;
type SuccessSchema<C extends RouteContract> = C['responses'][SuccessStatus<C>];

// Distributed over the success statuses: a route answering 200 or 204 returns its body or nothing.
type ResultOf<S> = S extends z.ZodType ? z.input<S> : NoContent;
type ResponseOf<S> = S extends z.ZodType ? z.output<S> : undefined;
/** What the handler returns (before serialisation) and what the client receives (JSON). */
export type RouteResult<C extends RouteContract> = ResultOf<SuccessSchema<C>>;
// biome-ignore lint/suspicious/noConfusingVoidType: a 204 handler may simply end without a return.
type NoContent = void | null | undefined;
export type RouteResponse<C extends RouteContract> = ResponseOf<SuccessSchema<C>>;

type Optional<K extends string, T> = undefined extends T ? { [P in K]?: T } : { [P in K]: T };

/** What a client sends: path params, query and body as the contract accepts them. */
export type RouteInput<C extends RouteContract> = Optional<'params', In<C['params']>> &
  Optional<'query', In<C['query']>> &
  Optional<'body', In<C['body']>>;

/** The URL of a call: path parameters filled in (encoded), query appended (blank values left out). */
export function routeUrl(
  contract: Pick<RouteContract, 'path'>,
  params?: Record<string, string | number> | undefined,
  query?: Record<string, unknown> | undefined,
): string {
  const path = contract.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${contract.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  if (!query) return path;
  const text = Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return text ? `${path}?${text}` : path;
}

/** Path prefixes the platform treats as a whole (cache headers, cookies, which session a call carries). */
export const API_PREFIXES = {
  /** Every API answer (no-store). */
  api: '/api/',
  /** Staff API of both versions (carry the staff session). */
  staff: '/api/v',
  /** Sign-in flows: the only paths the refresh cookie is sent to. */
  auth: '/api/auth',
  /** The OpenAPI document and its UI (public, cacheable). */
  docs: '/api/docs',
} as const;

/**
 * FHIR R4 (docs/fhir.md, ADR 073): FHIR's own answers and errors (OperationOutcome), never cached. Apart from
 * API_PREFIXES, which the console's first screen loads: the console never calls it.
 */
export const FHIR_PREFIX = '/fhir/';
