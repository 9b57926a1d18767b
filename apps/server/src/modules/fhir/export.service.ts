import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import type { FileStorage } from '../../platform/files/storage';
import { AppError } from '../../platform/http/errors';
import { parseExportParams, respondsAsync } from './export.params';
import {
  claimExport,
  completeExport,
  deleteExpiredExports,
  deleteExport,
  type ExportJob,
  type ExportOwner,
  failExport,
  findCohort,
  findExport,
  insertExport,
} from './export.queries';
import { BY_PATIENT, ExportCancelled, writeExport } from './export.run';
import { assertScopes, auditActor, type FhirReader, scopeOf } from './fhir.service';
import type { ResourceDefinition } from './resources/resource';
import { isLenient, numericId } from './search';

/** How long an export's files are kept (from completion), and a job that never ran (from kick-off). */
export const EXPORT_TTL_HOURS = 24;
/** What a second kick-off while one runs is told to wait (seconds). */
export const EXPORT_BUSY_RETRY_SECONDS = 60;

const ownerOf = (reader: FhirReader): ExportOwner =>
  reader.kind === 'staff'
    ? { adminId: reader.adminId, clientId: null }
    : { adminId: null, clientId: reader.clientId };

function auditIdentity(reader: FhirReader) {
  const actor = auditActor(reader);
  return {
    actorAdminId: actor.adminId,
    actorRealm: reader.kind === 'staff' ? ('staff' as const) : ('fhir_client' as const),
    ip: actor.ip,
    clientDetails: actor.clientId !== null ? { fhir_client_id: actor.clientId } : {},
  };
}

/**
 * The types an export writes: those named by `_type`, each within a client's scopes (403 otherwise), or by
 * default the patient compartment's types the reader may read (a client's scopes may narrow them).
 */
function typesOf(reader: FhirReader, asked: string[] | null): string[] {
  if (asked) {
    for (const type of asked) assertScopes(reader, type);
    return asked;
  }
  const readable = Object.keys(BY_PATIENT).filter((type) => {
    try {
      assertScopes(reader, type);
      return true;
    } catch {
      return false;
    }
  });
  if (readable.length === 0) throw AppError.forbidden("The token's scopes cover none of the types exported.");
  return readable;
}

/** A file name of the manifest (`Observation.ndjson`) as its type, when the export wrote it. */
function outputOf(job: ExportJob, fileName: string) {
  const m = /^([A-Za-z]{1,64})\.ndjson$/.exec(fileName);
  return m ? job.output.find((o) => o.type === m[1]) : undefined;
}

/**
 * Bulk Data `$export` (issue 31 item 2; docs/fhir.md, ADR 079): kick-off queues a job owned by its caller,
 * a background run writes its NDJSON files to storage, and only its owner sees its status and files (anyone
 * else: 404, as for an export that does not exist). Each kick-off, download and cancellation is audited.
 */
export function createExportService(deps: {
  db: Database;
  storage: FileStorage;
  resources: readonly ResourceDefinition[];
  log: FastifyBaseLogger;
}) {
  const { db, storage, log } = deps;
  const resources = new Map(deps.resources.map((r) => [r.type, r]));
  const served = deps.resources.map((r) => r.type);

  /** The cohort a Group export names, if the reader may see its program (else 404, as one that does not exist). */
  async function cohortOf(reader: FhirReader, groupId: string) {
    const id = numericId(groupId);
    const cohort = id ? await findCohort(db, scopeOf(reader), id) : null;
    if (!cohort) throw AppError.notFound('This Group is not known.');
    return cohort;
  }

  /** Queues the export and its audit row in one transaction; 429 while the owner has one queued or running. */
  function queue(
    reader: FhirReader,
    e: {
      types: string[];
      since: Date | null;
      request: string;
      cohort: { id: number; program_id: number } | null;
    },
  ): Promise<string> {
    const programId = reader.kind === 'client' ? reader.programId : (e.cohort?.program_id ?? null);
    const who = auditIdentity(reader);
    return db.transaction(async (tx) => {
      const id = await insertExport(tx, {
        ...ownerOf(reader),
        programId,
        groupId: e.cohort?.id ?? null,
        types: e.types,
        since: e.since,
        request: e.request,
        ttlHours: EXPORT_TTL_HOURS,
      });
      if (!id)
        throw new AppError(
          'rate_limited',
          'An export of yours is queued or running: wait for it to finish, or cancel it, before the next.',
          undefined,
          { 'retry-after': String(EXPORT_BUSY_RETRY_SECONDS) },
        );
      await audit(tx, {
        actorAdminId: who.actorAdminId,
        actorRealm: who.actorRealm,
        programId,
        action: 'fhir.export',
        subjectType: e.cohort ? 'group' : undefined,
        subjectId: e.cohort?.id ?? null,
        details: {
          export_id: id,
          types: e.types,
          since: e.since?.toISOString() ?? null,
          ...who.clientDetails,
        },
        ip: who.ip,
      });
      return id;
    });
  }

  async function removeFiles(job: ExportJob) {
    for (const o of job.output) await storage.remove(o.key);
  }

  async function run(job: ExportJob) {
    try {
      const output = await writeExport({ db, storage, resources }, job);
      if (!(await completeExport(db, job.id, output, EXPORT_TTL_HOURS)))
        await removeFiles({ ...job, output });
    } catch (err) {
      if (err instanceof ExportCancelled) return;
      // The error's type only: its message could quote data.
      log.warn({ job: 'fhir-export', err: { type: (err as Error).name } }, 'export failed');
      await failExport(db, job.id, 'The export failed on the server; start a new one.');
    }
  }

  return {
    async kickOff(
      reader: FhirReader,
      input: {
        rawQuery: string;
        prefer: string | string[] | undefined;
        groupId: string | null;
        request: string;
      },
    ): Promise<string> {
      if (!respondsAsync(input.prefer))
        throw AppError.badRequest('$export is asynchronous: send the header Prefer: respond-async.');
      const params = parseExportParams(input.rawQuery, served, isLenient(input.prefer));
      const types = typesOf(reader, params.types);
      const cohort = input.groupId === null ? null : await cohortOf(reader, input.groupId);
      return queue(reader, { types, since: params.since, request: input.request, cohort });
    },

    /** The owner's export (404 for anyone else's or an expired one). */
    async status(reader: FhirReader, id: string): Promise<ExportJob> {
      const job = await findExport(db, ownerOf(reader), id);
      if (!job) throw AppError.notFound('This export is not known (it may have expired or been deleted).');
      return job;
    },

    /** Deletes the owner's export and its files; a running one stops at its next batch. */
    async cancel(reader: FhirReader, id: string): Promise<void> {
      const who = auditIdentity(reader);
      const job = await db.transaction(async (tx) => {
        const deleted = await deleteExport(tx, ownerOf(reader), id);
        if (!deleted)
          throw AppError.notFound('This export is not known (it may have expired or been deleted).');
        await audit(tx, {
          actorAdminId: who.actorAdminId,
          actorRealm: who.actorRealm,
          programId: deleted.program_id,
          action: 'fhir.export_delete',
          details: { export_id: id, status: deleted.status, ...who.clientDetails },
          ip: who.ip,
        });
        return deleted;
      });
      await removeFiles(job);
    },

    /** One file of a completed export, streamed from storage; each download is audited. */
    async file(
      reader: FhirReader,
      id: string,
      fileName: string,
    ): Promise<{ stream: Readable; size: number }> {
      const job = await findExport(db, ownerOf(reader), id);
      const output = job?.status === 'completed' ? outputOf(job, fileName) : undefined;
      if (!job || !output) throw AppError.notFound('This export file is not known.');
      const file = await storage.open(output.key);
      const who = auditIdentity(reader);
      await auditView(db, {
        actorAdminId: who.actorAdminId,
        actorRealm: who.actorRealm,
        programId: job.program_id,
        action: 'fhir.export_file',
        details: { export_id: id, resource_type: output.type, count: output.count, ...who.clientDetails },
        ip: who.ip,
      });
      return file;
    },

    /**
     * The background work (every FHIR_EXPORT_MS on worker processes): deletes expired exports with their
     * files, then runs queued exports one after another. Returns how many ran.
     */
    async runDue(limit = 5): Promise<number> {
      for (const job of await deleteExpiredExports(db)) await removeFiles(job);
      let ran = 0;
      for (; ran < limit; ran++) {
        const job = await claimExport(db);
        if (!job) break;
        await run(job);
      }
      return ran;
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
