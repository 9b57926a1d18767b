import {
  type PATIENT_SORT_FIELDS,
  type PATIENT_STATUSES,
  type PatientListQuery,
  type PatientSummary,
  patientsContract,
  summariesContract,
} from '@caredeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';
import { type ActiveScope, scopeKey } from '../tenancy/scope';

export type PatientSortField = (typeof PATIENT_SORT_FIELDS)[number];
export type SortDirection = 'ASC' | 'DESC';
export type PatientStatus = (typeof PATIENT_STATUSES)[number];

export interface PatientListParams {
  name: string;
  page: number;
  per_page: number;
  sort_by: PatientSortField;
  sort_direction: SortDirection;
  /** Filters in the wire's spelling (comma-separated lists); empty ones are not sent. */
  statuses?: string;
  sex?: string;
  assignedAdmin?: string;
  group?: string;
  pipelines?: string;
  follow_up_for?: string;
  assessment_type?: string;
  escalation?: string;
  /** Keyset paging: the last row of the previous page, or the first row of the next one (ids). */
  after?: string;
  before?: string;
}

/** The patient list of the active program, or of the enterprise on enterprise scope (same query, same shape). */
function fetchPatientList(scope: ActiveScope, params: PatientListParams, signal: AbortSignal) {
  const query = {
    ...params,
    page: String(params.page),
    per_page: String(params.per_page),
    name: params.name || undefined,
    statuses: params.statuses || undefined,
    sex: params.sex || undefined,
    assignedAdmin: params.assignedAdmin || undefined,
    group: params.group || undefined,
    pipelines: params.pipelines || undefined,
    follow_up_for: (params.follow_up_for || undefined) as PatientListQuery['follow_up_for'],
    assessment_type: (params.assessment_type || undefined) as PatientListQuery['assessment_type'],
    escalation: params.escalation || undefined,
    after: params.after || undefined,
    before: params.before || undefined,
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

/**
 * The worklist's adherence, last-reading and open-alert columns for the patients of a page: one call per
 * program on the page (one in program scope; on enterprise scope each patient's summary comes from their own
 * program, so those columns are not left at '–').
 */
export function usePatientSummaries(rows: readonly { id: number; program_id: number }[]) {
  const byProgram = new Map<number, number[]>();
  for (const row of rows) byProgram.set(row.program_id, [...(byProgram.get(row.program_id) ?? []), row.id]);
  const groups = [...byProgram];
  return useQuery({
    queryKey: [
      'patients',
      'summaries',
      groups.map(([programId, ids]) => `${programId}:${ids.join(',')}`).join(';'),
    ],
    queryFn: async ({ signal }) => {
      const answers = await Promise.all(
        groups.map(([programId, ids]) =>
          api.call(
            summariesContract.summaries,
            { params: { programId: String(programId) }, query: { ids: ids.join(',') } },
            { signal },
          ),
        ),
      );
      return answers.flatMap((answer) => answer.data);
    },
    enabled: groups.length > 0,
    staleTime: 30_000,
    select: (summaries): ReadonlyMap<number, PatientSummary> =>
      new Map(summaries.map((s) => [s.patient_id, s])),
  });
}
