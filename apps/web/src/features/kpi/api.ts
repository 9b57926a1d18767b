import { kpiContract as c } from '@caredeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

/** The KPI of the active scope: the enterprise's programs together, or one program. */
export function useKpi(
  scope: { programId: number; enterpriseId: number | null },
  start: string,
  end: string,
) {
  return useQuery({
    queryKey: ['kpi', scope.enterpriseId ?? `p${scope.programId}`, start, end],
    queryFn: ({ signal }) =>
      scope.enterpriseId !== null
        ? api.call(
            c.enterprise,
            { params: { enterpriseId: String(scope.enterpriseId), start, end } },
            { signal },
          )
        : api.call(c.program, { params: { programId: String(scope.programId), start, end } }, { signal }),
    placeholderData: keepPreviousData,
    enabled: scope.programId > 0,
  });
}

export function downloadKpi(programId: number, start: string, end: string) {
  return api.download(c.export, { params: { programId: String(programId), start, end } });
}
