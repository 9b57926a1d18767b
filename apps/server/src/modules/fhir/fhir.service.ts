import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { auditFhirAccess, clientScope, type FhirAuditRow, staffScope } from './fhir.queries';
import type { FhirResource, PageItem, ReaderScope, ResourceDefinition } from './resources/resource';
import { encodeCursor, parseSearch } from './search';

/** Who reads: a staff member (their programs) or a SMART backend client (its program, within its scopes). */
export type FhirReader =
  | { kind: 'staff'; adminId: number; ip: string }
  | { kind: 'client'; clientId: number; programId: number; scopes: string[]; ip: string };

export function scopeOf(reader: FhirReader): ReaderScope {
  return reader.kind === 'staff' ? staffScope(reader.adminId) : clientScope(reader.programId);
}

/** A client's token must carry `system/{type}` or `system/*` with read and search (`.rs`, or v1's `.read`). */
export function assertScopes(reader: FhirReader, type: string): void {
  if (reader.kind !== 'client') return;
  const granted = reader.scopes.some((s) => new RegExp(`^system/(\\*|${type})\\.(rs|read)$`).test(s));
  if (!granted) throw AppError.forbidden(`The token's scopes do not cover reading ${type}.`);
}

export const auditActor = (reader: FhirReader) =>
  reader.kind === 'staff'
    ? { adminId: reader.adminId, clientId: null, ip: reader.ip }
    : { adminId: null, clientId: reader.clientId, ip: reader.ip };

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
export function createFhirService(deps: { db: Database; resources: readonly ResourceDefinition[] }) {
  const { db, resources } = deps;
  const byType = new Map(resources.map((r) => [r.type, r]));

  /** The resources a page's `_include`s name: one statement per included type, scoped like the page. */
  async function included(
    reader: FhirReader,
    def: ResourceDefinition,
    items: PageItem[],
    includes: string[],
  ) {
    const found: PageItem[] = [];
    for (const value of includes) {
      const include = def.includes?.find((i) => i.value === value);
      const target = include ? byType.get(include.type) : undefined;
      if (!include || !target) continue;
      const ids = [...new Set(items.flatMap((item) => include.ids(item.resource)))];
      if (ids.length === 0) continue;
      const page = await target.page(db, scopeOf(reader), {
        params: new Map([['_id', [ids]]]),
        count: ids.length,
        cursor: null,
        applied: [],
        includes: [],
      });
      found.push(...page.items);
    }
    return found;
  }

  return {
    async read(reader: FhirReader, def: ResourceDefinition, id: string): Promise<FhirResource> {
      assertScopes(reader, def.type);
      const search = {
        params: new Map([['_id', [[id]]]]),
        count: 1,
        cursor: null,
        applied: [],
        includes: [],
      };
      const page = await def.page(db, scopeOf(reader), search);
      const item = page.items[0];
      if (!item)
        throw AppError.notFound(`${def.type}/${/^[A-Za-z0-9.-]{1,64}$/.test(id) ? id : '…'} is not known.`);
      await auditFhirAccess(db, {
        ...auditActor(reader),
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
      assertScopes(reader, def.type);
      const search = parseSearch(
        input.rawQuery,
        def.params,
        input.lenient,
        (def.includes ?? []).map((i) => i.value),
      );
      const refusal = def.refuse?.(search);
      if (refusal) throw new AppError('bad_request', refusal);
      const page = await def.page(db, scopeOf(reader), search);
      const extra =
        search.includes.length > 0 ? await included(reader, def, page.items, search.includes) : [];
      await auditFhirAccess(db, {
        ...auditActor(reader),
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
        entry: [
          ...page.items.map((item) => ({
            fullUrl: `${url}/${item.resource.id}`,
            resource: item.resource,
            search: { mode: 'match' },
          })),
          ...extra.map((item) => ({
            fullUrl: `${input.baseUrl}/fhir/R4/${item.resource.resourceType}/${item.resource.id}`,
            resource: item.resource,
            search: { mode: 'include' },
          })),
        ],
      };
    },
  };
}

export type FhirService = ReturnType<typeof createFhirService>;
