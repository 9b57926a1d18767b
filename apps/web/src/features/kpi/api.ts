import { kpiContract as c } from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onLiveEvent, PATIENT_DATA_EVENT, reloadLive } from '../../app/realtime';
import { api } from '../../shared/api-client';

/** The KPI refreshes at most this often while device data streams in (each refresh reads the whole program). */
export const KPI_LIVE_MS = 10_000;

/**
 * Keeps the KPI live: a stored dose or reading of any patient the user sees (socket `patient.data`) refreshes
 * the figures, at once when the last refresh is older than KPI_LIVE_MS, else when that much time has passed —
 * a busy program refreshes every 10 s, not on every event.
 */
export function useLiveKpi(): void {
  const client = useQueryClient();
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      timer = null;
      last = Date.now();
      void reloadLive(client, { queryKey: ['kpi'] });
    };
    const off = onLiveEvent(PATIENT_DATA_EVENT, () => {
      if (timer) return;
      const wait = last + KPI_LIVE_MS - Date.now();
      if (wait <= 0) refresh();
      else timer = setTimeout(refresh, wait);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [client]);
}

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
