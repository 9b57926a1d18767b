import { billingPeriodsContract as pc } from '@caredeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

/** GET {P}/billing/periods: one page of patients with their period, codes, evidence and what is missing. */
export function useBillingPeriods(programId: number, q: { page: number; per_page: number; date: string }) {
  return useQuery({
    queryKey: ['billing', programId, 'periods', q],
    queryFn: ({ signal }) =>
      api.call(
        pc.periods,
        {
          params: { programId: String(programId) },
          query: { page: String(q.page), per_page: String(q.per_page), ...(q.date ? { date: q.date } : {}) },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: programId > 0,
  });
}
