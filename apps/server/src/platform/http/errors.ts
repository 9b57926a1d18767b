import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isFhirPath, sendOutcome } from './outcome';

export type ErrorCode =
  | 'bad_request'
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  /** A server CareDeck talks to (an SFTP destination) failed. */
  | 'bad_gateway';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  bad_gateway: 502,
};

/** The one error type services throw; its code fixes the HTTP status in one place. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): number {
    return STATUS[this.code];
  }
  static validation(errors: Record<string, string[]>, message?: string): AppError {
    const first = Object.values(errors)[0]?.[0];
    return new AppError('validation', message ?? first ?? 'The given data was invalid.', errors);
  }
  /** A request the server understood and refuses as it stands (spec messages fixed to 400, e.g. 'Unknown Device'). */
  static badRequest(message: string): AppError {
    return new AppError('bad_request', message);
  }
  static notFound(message = 'Not found.'): AppError {
    return new AppError('not_found', message);
  }
  static conflict(message: string): AppError {
    return new AppError('conflict', message);
  }
  static unauthenticated(message = 'Unauthenticated.'): AppError {
    return new AppError('unauthenticated', message);
  }
  static forbidden(message = 'This action is unauthorized.'): AppError {
    return new AppError('forbidden', message);
  }
  static rateLimited(retryAfterSeconds: number): AppError {
    return new AppError('rate_limited', 'Too many attempts. Please try again later.', undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}

/** Stack frames only: lines of the form `    at …`. Messages can span lines and quote data (drizzle's
 * "Failed query: … params: …", a constraint's key), so no message line is kept, however it is wrapped. */
function framesOf(stack: string | undefined): string[] {
  return (stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim());
}

type SafeError = { type: string; code?: string; frames: string[]; cause?: SafeError };

/**
 * What may be logged of an error: its type, its machine code (e.g. PostgreSQL's SQLSTATE) and its stack
 * frames, for the error and its causes. Never its message, parameters or any other property: they can carry PHI.
 */
export function safeErrorDetails(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error)) return { type: typeof error, frames: [] };
  const code = (error as { code?: unknown }).code;
  const details: SafeError = {
    type: error.constructor?.name && error.constructor.name !== 'Error' ? error.constructor.name : error.name,
    frames: framesOf(error.stack),
  };
  if (typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)) details.code = code;
  if (error.cause !== undefined && depth < 3) details.cause = safeErrorDetails(error.cause, depth + 1);
  return details;
}

function fieldOf(instancePath: string, prefix: string | undefined): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (path) return path;
  return prefix ?? 'body';
}

/**
 * Sends an error in the dialect of the path: the API's `{ message, errors? }` (plus `extra`, e.g. a 500's
 * `error_id`), or under /fhir the same status as an OperationOutcome (ADR 073). The one place both meet.
 */
function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  errors?: Record<string, string[]>,
  extra?: Record<string, string>,
): FastifyReply {
  if (isFhirPath(request.url)) return sendOutcome(reply, status, message, errors);
  return reply.status(status).send({ message, ...(errors ? { errors } : {}), ...extra });
}

/** Maps every failure to the API's error shapes; 500s get an id and never a stack trace or PHI. */
export function registerErrorHandling(
  app: FastifyInstance,
  options: {
    /**
     * Asked before a 422 for refused input: true when the path (or an `objects` rule's body) names an object
     * the actor may not see (404); 'forbidden' when the actor sees it but lacks the route's role (403).
     */
    foreignPathObject?: (request: FastifyRequest) => Promise<boolean | 'forbidden'>;
  } = {},
): void {
  app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return sendError(request, reply, error.status, error.message, error.errors);
    }
    // A path that does not parse names no object: the same answer as for an id that does not exist.
    if (hasZodFastifySchemaValidationErrors(error) && error.validationContext === 'params') {
      return sendError(request, reply, 404, 'Not found.');
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A failed check leaves the answer a 422: it only refines the refusal.
      const foreign = await options.foreignPathObject?.(request).catch(() => false);
      if (foreign === 'forbidden') {
        const refusal = AppError.forbidden();
        return sendError(request, reply, refusal.status, refusal.message);
      }
      if (foreign) return sendError(request, reply, 404, 'Not found.');
      // No prototype: a field named `__proto__` or `valueOf` is a field like any other.
      const errors: Record<string, string[]> = Object.create(null);
      for (const issue of error.validation) {
        // A field or parameter the contract does not name: the error names it (not the whole body or query).
        const unknownKeys =
          issue.keyword === 'unrecognized_keys' ? (issue.params as { keys?: unknown }).keys : null;
        if (Array.isArray(unknownKeys) && unknownKeys.length > 0) {
          const where = error.validationContext === 'querystring' ? 'parameter' : 'field';
          for (const key of unknownKeys) {
            const field = fieldOf(
              `${(issue.instancePath ?? '').replace(/\/$/, '')}/${String(key)}`,
              error.validationContext,
            );
            errors[field] = [
              ...(Object.hasOwn(errors, field) ? errors[field]! : []),
              `This ${where} is not accepted.`,
            ];
          }
          continue;
        }
        const field = fieldOf(issue.instancePath ?? '', error.validationContext);
        // Own keys only: a client's field may be called `valueOf` or `__proto__`.
        const list = Object.hasOwn(errors, field) ? errors[field]! : [];
        // A repeated query parameter (`a=1&a=2`) arrives as a list: said plainly, not in zod's words.
        const repeated =
          error.validationContext === 'querystring' &&
          issue.keyword === 'invalid_type' &&
          /received array/.test(issue.message ?? '');
        list.push(repeated ? 'Give this parameter once.' : (issue.message ?? 'The value is invalid.'));
        errors[field] = list;
      }
      const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
      return sendError(request, reply, 422, first, errors);
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(request, reply, 413, 'The request is too large.');
    }
    if (status === 415) {
      return sendError(request, reply, 415, 'The request body must be JSON.');
    }
    if (status === 429) {
      return sendError(request, reply, 429, 'Too many requests. Please try again later.');
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, an empty JSON body and the like: the client's fault, said in our words (the
      // framework's messages quote the input).
      if (status === 400) {
        const message = 'The request body is not valid JSON.';
        return sendError(request, reply, 422, message, { body: [message] });
      }
      return sendError(request, reply, status, 'The request cannot be processed.');
    }
    const errorId = randomUUID();
    request.log.error({ err: safeErrorDetails(error), error_id: errorId }, 'unhandled error');
    return sendError(request, reply, 500, 'Server error.', undefined, { error_id: errorId });
  });

  app.setNotFoundHandler((request, reply) => {
    // The path is not echoed: it can carry text a user typed.
    sendError(request, reply, 404, 'Not found.');
  });
}

/**
 * Errors Fastify raises before routing (a path parameter over maxParamLength, a malformed
 * percent-encoding) get the contract's shape too: the path names nothing, so 404.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const known = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  if (known) sendError(request, reply, 404, 'Not found.');
  else sendError(request, reply, 422, 'The request is invalid.', { request: ['The request is invalid.'] });
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: 'The request line or headers are too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    message: 'The request took too long to arrive.',
  },
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a 1 MB query line: 431; a control byte in a
 * header, a malformed request line: 400; a request that never finishes: 408) answer in the contract's error
 * shape `{ message }`, not the framework's `{ error, message, statusCode }`, then the connection is closed.
 * Nothing of the request is echoed or logged (it may carry PHI in its query).
 */
export function clientErrorHandler(
  this: { log: { trace: (obj: object, msg: string) => void } } | undefined,
  err: NodeJS.ErrnoException,
  socket: {
    destroyed: boolean;
    writable: boolean;
    write: (data: string) => void;
    destroy: (e?: Error) => void;
  },
): void {
  // A reset connection has nothing to answer to.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (err.code && CLIENT_ERRORS[err.code]) || {
    status: 400,
    reason: 'Bad Request',
    message: 'The request could not be read.',
  };
  this?.log.trace({ code: typeof err.code === 'string' ? err.code : undefined }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ message: known.message });
    socket.write(
      `HTTP/1.1 ${known.status} ${known.reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(err);
}
