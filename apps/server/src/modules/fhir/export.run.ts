import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Database } from '../../platform/db/client';
import type { FileStorage } from '../../platform/files/storage';
import { timeSlicer } from '../../platform/jobs/yield';
import { beat, type ExportJob, type ExportOutput, nextPatientIds } from './export.queries';
import { clientScope, staffScope } from './fhir.queries';
import type { PageItem, ReaderScope, ResourceDefinition } from './resources/resource';

/** Patients per batch: each compartment type is read for a batch at a time (its `patient` parameter). */
const PATIENT_BATCH = 100;
/** Resources per statement: the most an export holds in memory per type at once. */
const PAGE = 1000;

/**
 * The types of the patient compartment and the search parameter that names a batch's patients. They are read
 * batch by batch of the export's patients; the other types (Organization, Practitioner) are read whole once.
 */
export const BY_PATIENT: Readonly<Record<string, string>> = {
  Patient: '_id',
  Observation: 'patient',
  Device: 'patient',
  MedicationRequest: 'patient',
  MedicationAdministration: 'patient',
};

/** Where an export's file of one type is stored. */
export const exportFileKey = (id: string, type: string) => `fhir-export/${id}/${type.toLowerCase()}`;

/** Thrown when the export was deleted while it ran: its files go, nothing is recorded. */
export class ExportCancelled extends Error {}

type FileWriter = ExportOutput & {
  write(text: string): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
};

/** One NDJSON file streamed into storage as it is written (backpressure respected), whole or not at all. */
function fileWriter(storage: FileStorage, key: string, type: string): FileWriter {
  const stream = new PassThrough();
  const stored = storage.put(key, stream);
  stored.catch(() => undefined); // awaited by end(); a failure also ends write() below
  return {
    type,
    key,
    count: 0,
    async write(text) {
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), stored]);
    },
    async end() {
      stream.end();
      await stored;
    },
    async abort() {
      stream.destroy(new Error('export stopped'));
      await stored.catch(() => undefined);
      await storage.remove(key);
    },
  };
}

function scopeOfJob(job: ExportJob): ReaderScope {
  return job.client_id !== null ? clientScope(job.program_id!) : staffScope(job.admin_id!);
}

/**
 * Writes an export's NDJSON files (ADR 079): the export's patients in keyset batches, and for each batch every
 * compartment type through the type's own page statement and mapping (the searches' `page`, never a second
 * mapping), a page of at most PAGE resources at a time streamed to storage. Memory is bounded by one page
 * per type, whatever the program's size. Returns the files written (types without resources have none).
 */
export async function writeExport(
  deps: { db: Database; storage: FileStorage; resources: ReadonlyMap<string, ResourceDefinition> },
  job: ExportJob,
): Promise<ExportOutput[]> {
  const { db, storage, resources } = deps;
  const scope = scopeOfJob(job);
  const writers = new Map<string, FileWriter>();
  const slice = timeSlicer();
  let written = 0;

  const emit = async (type: string, items: PageItem[]) => {
    if (items.length === 0) return;
    let writer = writers.get(type);
    if (!writer) {
      writer = fileWriter(storage, exportFileKey(job.id, type), type);
      writers.set(type, writer);
    }
    await writer.write(items.map((i) => `${JSON.stringify(i.resource)}\n`).join(''));
    writer.count += items.length;
    written += items.length;
  };

  const exportPages = async (type: string, params: Map<string, string[][]>) => {
    const def = resources.get(type)!;
    if (job.since && def.params.some((p) => p.name === '_lastUpdated'))
      params.set('_lastUpdated', [[`ge${new Date(job.since).toISOString()}`]]);
    let cursor: unknown[] | null = null;
    do {
      const page = await def.page(db, scope, { params, count: PAGE, cursor, applied: [], includes: [] });
      await emit(type, page.items);
      cursor = page.next;
      await slice();
    } while (cursor);
  };

  try {
    const patientTypes = job.types.filter((t) => t in BY_PATIENT);
    for (let after = 0; patientTypes.length > 0; ) {
      const ids = await nextPatientIds(db, scope, job.group_id, after, PATIENT_BATCH);
      if (ids.length === 0) break;
      after = ids[ids.length - 1]!;
      for (const type of patientTypes)
        await exportPages(type, new Map([[BY_PATIENT[type]!, [ids.map(String)]]]));
      if (!(await beat(db, job.id, written))) throw new ExportCancelled();
    }
    for (const type of job.types.filter((t) => !(t in BY_PATIENT))) await exportPages(type, new Map());
    for (const writer of writers.values()) await writer.end();
  } catch (err) {
    for (const writer of writers.values()) await writer.abort();
    throw err;
  }
  const byType = (type: string) => writers.get(type);
  return job.types.flatMap((type) => {
    const w = byType(type);
    return w ? [{ type, key: w.key, count: w.count }] : [];
  });
}
