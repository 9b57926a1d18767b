import { alertsContract, analyticsContract, type DASHBOARD_FACTS } from '@caredeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';
import { ALERTS_KEY, scopeQuery } from '../alerts/api';
import { type ActiveScope, scopeKey } from '../tenancy/scope';

export type DashboardFact = (typeof DASHBOARD_FACTS)[number];

/** The last `days` days up to today, as the dashboard calls name them. */
export function lastDaysRange(days: number): { start: string; end: string } {
  const end = new Date();
  const start = new Date(end.getTime() - (days - 1) * 86_400_000);
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

/** One fact per day for the active scope; reloads with the alert board's live events and every minute. */
export function useDashboardFact(scope: ActiveScope | null, fact: DashboardFact, days: number) {
  const { start, end } = lastDaysRange(days);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return useQuery({
    queryKey: [...ALERTS_KEY, 'dashboard', scopeKey(scope), fact, start, end],
    queryFn: ({ signal }) =>
      api.call(
        analyticsContract.dashboard,
        { params: { fact, start, end }, query: { ...scopeQuery(scope), zone } },
        { signal },
      ),
    enabled: scope !== null,
    refetchInterval: 60_000,
  });
}

export function usePatientCounts(scope: ActiveScope | null) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'counts', scopeKey(scope)],
    queryFn: ({ signal }) => api.call(alertsContract.usersCount, { query: scopeQuery(scope) }, { signal }),
    enabled: scope !== null,
  });
}
