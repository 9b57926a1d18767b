import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { auditFhirAccess, type FhirAuditRow } from './fhir.queries';
import type { FhirResource, PageItem, ResourceDefinition } from './resources/resource';
import { encodeCursor, parseSearch } from './search';

export type FhirReader = { adminId: number; ip: string };

/** Audit rows of a page: one per patient whose data it holds, with how many of its resources. */
function auditRows(items: PageItem[]): FhirAuditRow[] {
  const byPatient = new Map<number, FhirAuditRow>();
  for (const item of items) {
    if (item.patientId === null) continue;
    const row = byPatient.get(item.patientId) ?? {
      patientId: item.patientId,
      programId: item.programId,
      count: 0,
    };
    row.count++;
    byPatient.set(item.patientId, row);
  }
  return [...byPatient.values()];
}

/**
 * Reads and searches (ADR 073): one statement for the page, scoped in SQL to the programs the reader may see,
 * and one for the audit rows. A resource of a program the reader may not see is absent, as one that does not
 * exist (404 on read, left out of a search).
 */
export function createFhirService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async read(reader: FhirReader, def: ResourceDefinition, id: string): Promise<FhirResource> {
      const search = { params: new Map([['_id', [[id]]]]), count: 1, cursor: null, applied: [] };
      const page = await def.page(db, reader.adminId, search);
      const item = page.items[0];
      if (!item)
        throw AppError.notFound(`${def.type}/${/^[A-Za-z0-9.-]{1,64}$/.test(id) ? id : '…'} is not known.`);
      await auditFhirAccess(db, {
        adminId: reader.adminId,
        ip: reader.ip,
        action: 'fhir.read',
        resourceType: def.type,
        parameters: [],
        rows: auditRows([item]),
        total: 1,
      });
      return item.resource;
    },

    async search(
      reader: FhirReader,
      def: ResourceDefinition,
      input: { rawQuery: string; lenient: boolean; baseUrl: string },
    ) {
      const search = parseSearch(input.rawQuery, def.params, input.lenient);
      const refusal = def.refuse?.(search);
      if (refusal) throw new AppError('bad_request', refusal);
      const page = await def.page(db, reader.adminId, search);
      await auditFhirAccess(db, {
        adminId: reader.adminId,
        ip: reader.ip,
        action: 'fhir.search',
        resourceType: def.type,
        parameters: [...new Set(search.applied.map(([key]) => key))],
        rows: auditRows(page.items),
        total: page.items.length,
      });
      const url = `${input.baseUrl}/fhir/R4/${def.type}`;
      const query = (extra: [string, string][]) =>
        new URLSearchParams([...search.applied, ['_count', String(search.count)], ...extra]).toString();
      return {
        resourceType: 'Bundle',
        type: 'searchset',
        link: [
          {
            relation: 'self',
            url: `${url}?${query(search.cursor ? [['_cursor', encodeCursor(search.cursor)]] : [])}`,
          },
          ...(page.next
            ? [{ relation: 'next', url: `${url}?${query([['_cursor', encodeCursor(page.next)]])}` }]
            : []),
        ],
        entry: page.items.map((item) => ({
          fullUrl: `${url}/${item.resource.id}`,
          resource: item.resource,
          search: { mode: 'match' },
        })),
      };
    },
  };
}

export type FhirService = ReturnType<typeof createFhirService>;
