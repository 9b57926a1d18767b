import { type PATIENT_SORT_FIELDS, patientsContract } from '@caredeck/contracts';
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
function fetchPatientList(scope: ActiveScope, params: PatientListParams, signal: AbortSignal) {
  const query = {
    ...params,
    page: String(params.page),
    per_page: String(params.per_page),
    name: params.name || undefined,
  };
  return scope.enterpriseScope && scope.enterprise
    ? api.call(
        patientsContract.enterpriseList,
        { params: { enterpriseId: String(scope.enterprise.id) }, query },
        { signal },
      )
    : api.call(patientsContract.list, { params: { programId: String(scope.programId) }, query }, { signal });
}

export function patientListQuery(scope: ActiveScope, params: PatientListParams) {
  return queryOptions({
    queryKey: ['patients', 'list', scopeKey(scope), params] as const,
    queryFn: ({ signal }) => fetchPatientList(scope, params, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePatientList(scope: ActiveScope, params: PatientListParams) {
  return useQuery(patientListQuery(scope, params));
}
