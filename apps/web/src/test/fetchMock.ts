import { type RouteContract, routeUrl } from '@caredeck/contracts';
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

/**
 * Stubs `fetch` with handlers keyed 'METHOD /path' (path without the query string). Unhandled calls answer
 * 404 and are listed in `unhandled`, so a test can assert nothing unexpected was called.
 */
export function mockFetch(handlers: Record<string, MockHandler | MockReply>) {
  const calls: MockRequest[] = [];
  const unhandled: string[] = [];
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
    fetch: fetchMock,
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}
