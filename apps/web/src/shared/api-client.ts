import {
  API_PREFIXES,
  type ErrorBody,
  type RouteContract,
  type RouteInput,
  type RouteResponse,
  routeUrl,
} from '@caredeck/contracts';

/** Anything with a zod-like `parse`: the contract schemas from `@caredeck/contracts`. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

/** Which credentials a call carries: the staff session, the controller session, or none (public calls). */
export type AuthRealm = 'staff' | 'controller' | 'none';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema?: ResponseParser<T>;
  auth?: AuthRealm;
  /** Renew the staff session and retry once on 401 (default true). */
  renew?: boolean;
  signal?: AbortSignal;
  /** Extra headers (the guest channel's `Authorization: Guest …`). */
  headers?: Record<string, string>;
}

/** A non-2xx answer (status 0: the request never got an answer). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;

  constructor(status: number, body: ErrorBody | null, message?: string) {
    super(message ?? body?.message ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** Field → messages of a 422 answer; empty for anything else. */
  get fieldErrors(): Record<string, string[]> {
    return this.body?.errors ?? {};
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The first message of each field of a 422 (to show under the fields), or null for any other failure. */
export function firstFieldErrors(error: unknown): Record<string, string> | null {
  if (!isApiError(error) || Object.keys(error.fieldErrors).length === 0) return null;
  return Object.fromEntries(Object.entries(error.fieldErrors).map(([field, list]) => [field, list[0] ?? '']));
}

/** How the client reaches the session: set once by the app (`app/auth/session.ts`). */
export interface SessionHooks {
  getStaffToken(): string | null;
  /** Gets a new access token; resolves false when the session cannot be renewed. */
  refreshStaffToken(): Promise<boolean>;
  onStaffUnauthorized(): void;
  /** A staff call was answered by a live session (the server's idle clock restarted). */
  onStaffActivity(): void;
  getControllerToken(): string | null;
  onControllerUnauthorized(): void;
}

const noSession: SessionHooks = {
  getStaffToken: () => null,
  refreshStaffToken: async () => false,
  onStaffUnauthorized: () => {},
  onStaffActivity: () => {},
  getControllerToken: () => null,
  onControllerUnauthorized: () => {},
};

let hooks: SessionHooks = noSession;

export function configureApiClient(sessionHooks: SessionHooks): void {
  hooks = sessionHooks;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function tokenFor(realm: AuthRealm): string | null {
  if (realm === 'staff') return hooks.getStaffToken();
  if (realm === 'controller') return hooks.getControllerToken();
  return null;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * The contracts' error shape (`errorBody`: message, per-field `errors`, `error_id`), read without zod: a failed
 * call is understood before the schemas load (the sign-in page shows without them, ADR 048). Null when the
 * answer does not have that shape; only its known fields are kept, as the schema would.
 */
export function readErrorBody(data: unknown): ErrorBody | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { message, errors, error_id } = data as Record<string, unknown>;
  if (typeof message !== 'string') return null;
  if (error_id !== undefined && typeof error_id !== 'string') return null;
  if (errors !== undefined) {
    if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return null;
    if (!Object.values(errors).every(isStringList)) return null;
  }
  return {
    message,
    ...(errors === undefined ? {} : { errors: errors as Record<string, string[]> }),
    ...(error_id === undefined ? {} : { error_id }),
  };
}

function toErrorBody(status: number, data: unknown): ErrorBody | null {
  const body = readErrorBody(data);
  if (body) return body;
  if (typeof data === 'string' && data) return { message: data };
  return status ? { message: `HTTP ${status}` } : null;
}

async function send(path: string, options: RequestOptions<unknown>, realm: AuthRealm): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = tokenFor(realm);
  if (token) headers.Authorization = `Bearer ${token}`;
  const hasBody = options.body !== undefined;
  // A form (files) sets its own multipart Content-Type with the boundary.
  const isForm = typeof FormData !== 'undefined' && options.body instanceof FormData;
  if (hasBody && !isForm) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: hasBody ? (isForm ? (options.body as FormData) : JSON.stringify(options.body)) : undefined,
      // The refresh token is an httpOnly cookie scoped to /api/auth: only those calls need it.
      credentials: path.startsWith(API_PREFIXES.auth) ? 'include' : 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, error instanceof Error ? error.message : 'Network error');
  }
}

/**
 * The one place that calls `fetch`. Adds the bearer of the chosen realm, sends and reads JSON, validates the
 * answer against its contract schema, renews the staff session once on 401 and retries, and throws `ApiError`.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const realm = options.auth ?? (path.startsWith(API_PREFIXES.staff) ? 'staff' : 'none');
  let response = await send(path, options, realm);
  if (realm === 'staff') {
    if (response.status === 401 && options.renew !== false && (await hooks.refreshStaffToken())) {
      response = await send(path, options, realm);
    }
    if (response.status === 401) hooks.onStaffUnauthorized();
    else hooks.onStaffActivity();
  } else if (realm === 'controller' && response.status === 401) {
    hooks.onControllerUnauthorized();
  }
  const data = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, toErrorBody(response.status, data));
  return options.schema ? options.schema.parse(data) : (data as T);
}

export type CallOptions = Pick<RequestOptions<unknown>, 'auth' | 'renew' | 'signal' | 'headers'>;

type CallArgs<C extends RouteContract> =
  object extends RouteInput<C>
    ? [input?: RouteInput<C>, options?: CallOptions]
    : [input: RouteInput<C>, options?: CallOptions];

/**
 * Calls a contract route: the URL comes from its path template, the method from the contract, and the
 * answer is parsed by its success schema. Input and result are typed from the same contract the server
 * registers its handler from.
 */
export function callRoute<C extends RouteContract>(
  contract: C,
  ...[input, options]: CallArgs<C>
): Promise<RouteResponse<C>> {
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const success = Object.values(contract.responses)[0];
  return apiRequest(routeUrl(contract, params, query), {
    ...options,
    method: contract.method,
    body,
    schema: success ?? undefined,
  }) as Promise<RouteResponse<C>>;
}

/**
 * Calls a route before its contract has loaded: the request leaves at once with the route's method and path
 * (a zod-free head in packages/contracts, which the contract is built from), and a successful answer is parsed
 * by the contract's success schema once `load` has brought it. A failure never waits for it. Only for calls a
 * first screen makes before it shows (the start-up refresh); any other call uses `api.call`.
 */
export async function callBeforeContract<C extends RouteContract>(
  head: NoInfer<Pick<C, 'method' | 'path'>>,
  load: () => Promise<C>,
  ...[input, options]: CallArgs<C>
): Promise<RouteResponse<C>> {
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const data = await apiRequest(routeUrl(head, params, query), { ...options, method: head.method, body });
  if (data === undefined) return data as RouteResponse<C>; // 204: nothing to parse
  const contract = await load();
  const success = Object.values(contract.responses)[0];
  return (success ? success.parse(data) : data) as RouteResponse<C>;
}

/** The file name a Content-Disposition gives: `filename*=UTF-8''…` (any characters) or `filename="…"`. */
export function fileNameOf(disposition: string): string {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed encoding falls back to the plain name.
    }
  }
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download';
}

/**
 * Sends a multipart form (files) to a contract route: the same session handling and answer parsing as
 * `call`, the form's fields and files instead of a JSON body.
 */
export function uploadRoute<C extends RouteContract>(
  contract: C,
  input: { params?: Record<string, string | number>; query?: Record<string, unknown> },
  form: FormData,
  options?: CallOptions,
): Promise<RouteResponse<C>> {
  const success = Object.values(contract.responses)[0];
  return apiRequest(routeUrl(contract, input.params, input.query), {
    ...options,
    method: contract.method,
    body: form,
    schema: success ?? undefined,
  }) as Promise<RouteResponse<C>>;
}

/**
 * Downloads a file route (a spreadsheet, a PDF): the staff bearer like any call, the session renewed once on
 * 401, and the answer saved under the server's file name (Content-Disposition).
 */
export async function downloadRoute<C extends RouteContract>(
  contract: C,
  ...[input, options]: CallArgs<C>
): Promise<string> {
  const { params, query } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
  };
  const path = routeUrl(contract, params, query);
  const realm = options?.auth ?? 'staff';
  let response = await send(path, { ...options, method: contract.method }, realm);
  if (realm === 'staff' && response.status === 401 && (await hooks.refreshStaffToken()))
    response = await send(path, { ...options, method: contract.method }, realm);
  if (realm === 'staff' && response.status === 401) hooks.onStaffUnauthorized();
  if (!response.ok)
    throw new ApiError(response.status, toErrorBody(response.status, await readBody(response)));
  if (realm === 'staff') hooks.onStaffActivity();
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = fileNameOf(disposition);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

/** Reads a file route (a logo, an attachment to show) as a Blob, with the same session handling as `call`. */
export async function blobRoute<C extends RouteContract>(
  contract: C,
  ...[input, options]: CallArgs<C>
): Promise<Blob> {
  const { params, query } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
  };
  const path = routeUrl(contract, params, query);
  let response = await send(path, { ...options, method: contract.method }, 'staff');
  if (response.status === 401 && (await hooks.refreshStaffToken()))
    response = await send(path, { ...options, method: contract.method }, 'staff');
  if (response.status === 401) hooks.onStaffUnauthorized();
  if (!response.ok)
    throw new ApiError(response.status, toErrorBody(response.status, await readBody(response)));
  return response.blob();
}

export const api = {
  call: callRoute,
  callBeforeContract,
  blob: blobRoute,
  download: downloadRoute,
  upload: uploadRoute,
  get: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
