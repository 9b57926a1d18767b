import { billingPeriodsContract as pc, billingAtRiskContract as rc } from '@caredeck/contracts';
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

/** GET {P}/billing/at-risk: who will miss the next code this period or month, soonest first. */
export function useBillingAtRisk(programId: number, q: { page: number; per_page: number }) {
  return useQuery({
    queryKey: ['billing', programId, 'at-risk', q],
    queryFn: ({ signal }) =>
      api.call(
        rc.atRisk,
        {
          params: { programId: String(programId) },
          query: { page: String(q.page), per_page: String(q.per_page) },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: programId > 0,
  });
}
