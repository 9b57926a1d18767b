import { FHIR_PREFIX } from '@caredeck/contracts';
import type { FastifyReply } from 'fastify';

/** FHIR's JSON media type: every answer under /fhir carries it, errors included (ADR 073). */
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** Whether a request path is FHIR's (`/fhir/…`): its errors are OperationOutcomes, not `{ message }`. */
export function isFhirPath(url: string | undefined): boolean {
  return !!url && (url === '/fhir' || url.startsWith(FHIR_PREFIX));
}

/** The OperationOutcome issue type for an HTTP status (FHIR R4 IssueType value set). */
const ISSUE_CODES: Record<number, string> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  406: 'not-supported',
  408: 'timeout',
  409: 'conflict',
  413: 'too-long',
  415: 'not-supported',
  422: 'invalid',
  429: 'throttled',
  431: 'too-long',
  500: 'exception',
  502: 'transient',
  503: 'transient',
};

export type OutcomeIssue = { text: string; code?: string; expression?: string };

/** An OperationOutcome of error issues; `code` defaults to the status's issue type. */
export function operationOutcome(status: number, issues: readonly OutcomeIssue[]) {
  const fallback = ISSUE_CODES[status] ?? (status >= 500 ? 'exception' : 'invalid');
  return {
    resourceType: 'OperationOutcome' as const,
    issue: issues.map((i) => ({
      severity: 'error' as const,
      code: i.code ?? fallback,
      details: { text: i.text },
      ...(i.expression ? { expression: [i.expression] } : {}),
    })),
  };
}

/** Sends a FHIR resource (or OperationOutcome) as `application/fhir+json`, serialised here. */
export function sendFhir(reply: FastifyReply, status: number, resource: unknown): FastifyReply {
  return reply.status(status).type(FHIR_JSON).send(JSON.stringify(resource));
}

/**
 * The FHIR answer for an error the API would answer `{ message, errors? }`: the same status, the message as
 * the first issue and each field message as an issue naming its field. Nothing of the request is echoed.
 */
export function sendOutcome(
  reply: FastifyReply,
  status: number,
  message: string,
  errors?: Record<string, string[]>,
  code?: string,
): FastifyReply {
  const issues: OutcomeIssue[] = [];
  const fields = errors ? Object.entries(errors) : [];
  if (fields.length === 0) issues.push({ text: message, code });
  for (const [field, messages] of fields)
    for (const text of messages) issues.push({ text, code, expression: field });
  return sendFhir(reply, status, operationOutcome(status, issues));
}
