import * as contracts from '@caredeck/contracts';
import { NO_BODY, type RouteContract, routeUrl, strictBody } from '@caredeck/contracts';
import { vi } from 'vitest';

/**
 * The mock key of a contract route, 'METHOD /path' with its path parameters filled in: tests address
 * routes by the same objects as the server and the client, never by a path written out again.
 */
export function on(contract: RouteContract, params?: Record<string, string | number>): string {
  return `${contract.method} ${routeUrl(contract, params)}`;
}

export interface MockRequest {
  method: string;
  path: string;
  url: URL;
  body: unknown;
  headers: Headers;
  credentials: RequestCredentials | undefined;
}

export interface MockReply {
  status?: number;
  body?: unknown;
}

export type MockHandler = (request: MockRequest) => MockReply | Promise<MockReply>;

/** Every contract route with its path as a pattern, to judge the bodies the console sends like the server does. */
const ROUTES: { method: string; pattern: RegExp; contract: RouteContract }[] = Object.entries(contracts)
  .flatMap(([name, value]) =>
    name.endsWith('Contract') && value && typeof value === 'object'
      ? Object.values(value as Record<string, unknown>)
          .filter((c): c is RouteContract => !!c && typeof c === 'object' && 'path' in c && 'method' in c)
          .map((contract) => ({
            method: contract.method,
            pattern: new RegExp(`^${contract.path.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+')}$`),
            contract,
          }))
      : [],
  )
  // A literal segment wins over a parameter (`PUT …/conversations/read` before `…/conversations/:id`).
  .sort((a, b) => a.contract.path.split(':').length - b.contract.path.split(':').length);

/**
 * The fields of a JSON body the route's contract does not name (bodies are strict on the server, ADR 070):
 * the mock answers them with the server's 422, so a screen that sends a stray field fails its test.
 */
function strayFields(method: string, path: string, body: unknown): Record<string, string[]> | null {
  const route = ROUTES.find((r) => r.method === method && r.pattern.test(path));
  if (!route || method === 'GET') return null;
  const schema = route.contract.body ? strictBody(route.contract.body) : NO_BODY;
  const result = schema.safeParse(body);
  if (result.success) return null;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    for (const key of issue.keys) errors[[...issue.path, key].join('.')] = ['This field is not accepted.'];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * Stubs `fetch` with handlers keyed 'METHOD /path' (path without the query string). Unhandled calls answer
 * 404 and are listed in `unhandled`, so a test can assert nothing unexpected was called.
 */
export function mockFetch(handlers: Record<string, MockHandler | MockReply>) {
  const calls: MockRequest[] = [];
  const unhandled: string[] = [];
  /** Calls refused for a field their contract does not name (what the server answers 422). */
  const strays: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const request: MockRequest = {
      method,
      path: url.pathname,
      url,
      body: text === undefined ? undefined : JSON.parse(text),
      headers: new Headers(init?.headers),
      credentials: init?.credentials,
    };
    calls.push(request);
    const stray = text === undefined ? null : strayFields(method, url.pathname, request.body);
    if (stray) {
      strays.push(`${method} ${url.pathname}: ${Object.keys(stray).join(', ')}`);
      console.warn(`[stray body field] ${strays.at(-1)}`);
      return new Response(JSON.stringify({ message: 'This field is not accepted.', errors: stray }), {
        status: 422,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const key = `${method} ${url.pathname}`;
    const handler = handlers[key];
    if (!handler) {
      unhandled.push(key);
      return new Response(JSON.stringify({ message: 'Not Found' }), { status: 404 });
    }
    const reply = typeof handler === 'function' ? await handler(request) : handler;
    const status = reply.status ?? 200;
    if (status === 204 || reply.body === undefined) return new Response(null, { status });
    return new Response(JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    unhandled,
    strays,
    fetch: fetchMock,
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}
