import {
  type BillingPeriodCode,
  type BillingPeriodStatus,
  billingPeriodsContract as pc,
  billingAtRiskContract as rc,
  billingPeriodsExportContract as xc,
} from '@caredeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

/** The evidence view's filters as the periods call takes them (ADR 080). */
export type PeriodFilters = {
  code: BillingPeriodCode | '';
  status: BillingPeriodStatus | '';
  assignee_id: number | null;
};

/** GET {P}/billing/periods: one page of patients with their period, codes, evidence and what is missing. */
export function useBillingPeriods(
  programId: number,
  q: { page: number; per_page: number; date: string } & PeriodFilters,
) {
  return useQuery({
    queryKey: ['billing', programId, 'periods', q],
    queryFn: ({ signal }) =>
      api.call(pc.periods, { params: { programId: String(programId) }, query: periodsQuery(q) }, { signal }),
    placeholderData: keepPreviousData,
    enabled: programId > 0,
  });
}

function periodsQuery(q: { page: number; per_page: number; date: string } & PeriodFilters) {
  return {
    page: String(q.page),
    per_page: String(q.per_page),
    ...(q.date ? { date: q.date } : {}),
    ...(q.code ? { code: q.code } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.assignee_id ? { assignee_id: String(q.assignee_id) } : {}),
  };
}

/** GET {P}/billing/at-risk: who will miss the next code this period or month, soonest first. */
export function useBillingAtRisk(
  programId: number,
  q: { page: number; per_page: number; assignee_id: number | null },
) {
  return useQuery({
    queryKey: ['billing', programId, 'at-risk', q],
    queryFn: ({ signal }) =>
      api.call(
        rc.atRisk,
        {
          params: { programId: String(programId) },
          query: {
            page: String(q.page),
            per_page: String(q.per_page),
            ...(q.assignee_id ? { assignee_id: String(q.assignee_id) } : {}),
          },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: programId > 0,
  });
}

/** GET {P}/billing/periods.csv|.xlsx: the evidence view's rows with its filters, saved as a file. */
export function downloadBillingPeriods(
  programId: number,
  format: 'csv' | 'xlsx',
  q: { date: string } & PeriodFilters,
) {
  const { page: _page, per_page: _perPage, ...query } = periodsQuery({ ...q, page: 1, per_page: 1 });
  return api.download(xc[format], { params: { programId: String(programId) }, query });
}
