import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../../../platform/db/client';
import type { ParsedSearch, SearchParamDef } from '../search';

export type FhirResource = { resourceType: string; id: string } & Record<string, unknown>;

/** A resource of a page, with the patient (and home program) whose data it is, for the audit trail. */
export type PageItem = { resource: FhirResource; patientId: number | null; programId: number | null };

export type Page = { items: PageItem[]; next: unknown[] | null };

/**
 * What a reader may see, as subqueries put inside each statement: the programs (ids) and the enterprises
 * seen beyond those programs' own (an enterprise admin's enterprise without programs). fhir.queries.ts.
 */
export type ReaderScope = { programs: SQL; enterprises: SQL };

/**
 * A FHIR resource type CareDeck serves: its search parameters (exactly those listed in the
 * CapabilityStatement) and one statement per page, scoped to the programs the staff member may see.
 * A read is a search by `_id`.
 */
export type ResourceDefinition = {
  type: string;
  /** Profiles the resources claim (CapabilityStatement.rest.resource.supportedProfile). */
  profiles: string[];
  params: SearchParamDef[];
  /**
   * `_include` values served: each names a reference element of this type and the type it points to, whose
   * resources come in one more statement per page (`Observation:device` → Device).
   */
  includes?: { value: string; type: string; ids: (resource: FhirResource) => string[] }[];
  /** Why a search is refused before it runs (a search too broad to serve), or null. */
  refuse?: (search: ParsedSearch) => string | null;
  page(db: Queryable, scope: ReaderScope, search: ParsedSearch): Promise<Page>;
};

/** An ISO instant from what the driver gives for a timestamptz. */
export function instant(value: Date | string): string {
  return new Date(value).toISOString();
}

/** A text value FHIR may carry: trimmed, and left out when empty (FHIR forbids empty strings). */
export function text(value: string | null | undefined): string | undefined {
  const t = value?.trim();
  return t ? t : undefined;
}

/** The object without its undefined fields (JSON drops them anyway; tests compare objects). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Rows over the page size mean there is a next page; its cursor is the last kept row's key. */
export function paged<R>(
  rows: R[],
  count: number,
  key: (row: R) => unknown[],
): { rows: R[]; next: unknown[] | null } {
  if (rows.length <= count) return { rows, next: null };
  const kept = rows.slice(0, count);
  return { rows: kept, next: key(kept[kept.length - 1]!) };
}
