import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { access } from '../../platform/access/rules';
import { operationOutcome, sendFhir } from '../../platform/http/outcome';
import type { App } from '../../platform/http/types';
import type { ExportJob } from './export.queries';
import type { ExportService } from './export.service';
import { baseUrlOf, FHIR_BASE_PATH, rawQueryOf, readerOf } from './fhir.routes';

export const EXPORT_STATUS_PATH = `${FHIR_BASE_PATH}/$export-status`;
export const EXPORT_FILE_PATH = `${FHIR_BASE_PATH}/$export-file`;
/** What a client polling a running export is asked to wait between polls (seconds). */
const POLL_SECONDS = 2;

/** The completion manifest of Bulk Data (its files' URLs on the host the client polls). */
export function exportManifest(job: ExportJob, baseUrl: string) {
  return {
    transactionTime: new Date(job.transaction_time!).toISOString(),
    request: job.request,
    requiresAccessToken: true,
    output: job.output.map((o) => ({
      type: o.type,
      url: `${baseUrl}${EXPORT_FILE_PATH}/${job.id}/${o.type}.ndjson`,
      count: o.count,
    })),
    error: [],
  };
}

function sendStatus(reply: FastifyReply, job: ExportJob, baseUrl: string) {
  if (job.status === 'queued' || job.status === 'running')
    return reply
      .status(202)
      .header('x-progress', job.status === 'queued' ? 'queued' : `${job.written} resources written`)
      .header('retry-after', String(POLL_SECONDS))
      .send();
  if (job.status === 'failed')
    return sendFhir(reply, 500, operationOutcome(500, [{ text: job.error ?? 'The export failed.' }]));
  return reply
    .status(200)
    .header('expires', new Date(job.expires_at).toUTCString())
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(exportManifest(job, baseUrl)));
}

/**
 * Bulk Data Access 2.0 `$export` (ADR 079): kick-off (Patient and Group level), status, cancellation and the
 * NDJSON files, each with the FHIR access rule (a staff session or a client token; ADR 074) and hidden from
 * the OpenAPI document like every /fhir route.
 */
export function exportRoutes(app: App, deps: { exports: ExportService; config: Config }) {
  const { exports, config } = deps;
  const schema = { hide: true };
  const rule = { access: access.fhir() };

  const kickOff = async (request: FastifyRequest, reply: FastifyReply, groupId: string | null) => {
    const baseUrl = baseUrlOf(config, request);
    const id = await exports.kickOff(readerOf(request), {
      rawQuery: rawQueryOf(request),
      prefer: request.headers.prefer,
      groupId,
      request: `${baseUrl}${request.url}`,
    });
    reply.header('content-location', `${baseUrl}${EXPORT_STATUS_PATH}/${id}`);
    return sendFhir(reply, 202, {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'information',
          code: 'informational',
          details: { text: 'The export is queued: poll the URL in Content-Location.' },
        },
      ],
    });
  };

  app.route({
    method: 'GET',
    url: `${FHIR_BASE_PATH}/Patient/$export`,
    config: rule,
    schema,
    handler: (request, reply) => kickOff(request, reply, null),
  });
  app.route({
    method: 'GET',
    url: `${FHIR_BASE_PATH}/Group/:groupId/$export`,
    config: rule,
    schema,
    handler: (request, reply) => kickOff(request, reply, (request.params as { groupId: string }).groupId),
  });
  app.route({
    method: 'GET',
    url: `${EXPORT_STATUS_PATH}/:exportId`,
    config: rule,
    schema,
    handler: async (request, reply) => {
      const job = await exports.status(readerOf(request), (request.params as { exportId: string }).exportId);
      return sendStatus(reply, job, baseUrlOf(config, request));
    },
  });
  app.route({
    method: 'DELETE',
    url: `${EXPORT_STATUS_PATH}/:exportId`,
    config: rule,
    schema,
    handler: async (request, reply) => {
      await exports.cancel(readerOf(request), (request.params as { exportId: string }).exportId);
      return reply.status(202).send();
    },
  });
  app.route({
    method: 'GET',
    url: `${EXPORT_FILE_PATH}/:exportId/:file`,
    config: rule,
    schema,
    handler: async (request, reply) => {
      const { exportId, file } = request.params as { exportId: string; file: string };
      const { stream, size } = await exports.file(readerOf(request), exportId, file);
      return reply
        .status(200)
        .type('application/fhir+ndjson')
        .header('content-length', String(size))
        .send(stream);
    },
  });
}
