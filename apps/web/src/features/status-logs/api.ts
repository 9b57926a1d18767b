import { statusLogsContract as c, type PATIENT_STATUSES, type StatusChangeSource } from '@caredeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';
import { type ActiveScope, scopeKey } from '../tenancy/scope';

export type StatusLogFilters = {
  start: string;
  end: string;
  page: number;
  per_page: number;
  status: (typeof PATIENT_STATUSES)[number] | '';
  /** The staff member who made the change (an id), or '' for anyone. */
  admin: string;
  source: StatusChangeSource | '';
  search: string;
  /** On enterprise scope: one of its programs (an id), or '' for all. */
  program: string;
};

/** The status log of the active program, or of the enterprise's programs on enterprise scope. */
export function useStatusLog(scope: ActiveScope | null, f: StatusLogFilters, enabled: boolean) {
  return useQuery({
    queryKey: ['status-logs', scopeKey(scope), f],
    queryFn: ({ signal }) => {
      const query = {
        start: f.start,
        end: f.end,
        page: String(f.page),
        per_page: String(f.per_page),
        status: f.status || undefined,
        admin_id: f.admin || undefined,
        source: f.source || undefined,
        search: f.search || undefined,
      };
      return scope!.enterpriseScope && scope!.enterprise
        ? api.call(
            c.enterpriseList,
            {
              params: { enterpriseId: String(scope!.enterprise.id) },
              query: { ...query, program_id: f.program || undefined },
            },
            { signal },
          )
        : api.call(c.list, { params: { programId: String(scope!.programId) }, query }, { signal });
    },
    enabled: enabled && scope !== null && scope.programId > 0,
    placeholderData: keepPreviousData,
    // A log: read afresh whenever the screen opens, so a change just made is there.
    staleTime: 0,
    retry: 1,
  });
}
