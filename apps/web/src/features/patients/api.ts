import { type PATIENT_SORT_FIELDS, patientListResponse } from '@caredeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';
import { type ActiveScope, scopeKey } from '../tenancy/scope';

export type PatientSortField = (typeof PATIENT_SORT_FIELDS)[number];
export type SortDirection = 'ASC' | 'DESC';

export interface PatientListParams {
  name: string;
  page: number;
  per_page: number;
  sort_by: PatientSortField;
  sort_direction: SortDirection;
}

/** The patient list of the active program, or of the enterprise on enterprise scope (same query, same shape). */
export function patientListPath(scope: ActiveScope): string {
  return scope.enterpriseScope && scope.enterprise
    ? `/api/v1/enterprises/${scope.enterprise.id}/patients`
    : `/api/v1/programs/${scope.programId}/users`;
}

export function patientListQuery(scope: ActiveScope, params: PatientListParams) {
  return queryOptions({
    queryKey: ['patients', 'list', scopeKey(scope), params] as const,
    queryFn: ({ signal }) =>
      api.get(patientListPath(scope), {
        query: { ...params, name: params.name || undefined },
        schema: patientListResponse,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePatientList(scope: ActiveScope, params: PatientListParams) {
  return useQuery(patientListQuery(scope, params));
}
