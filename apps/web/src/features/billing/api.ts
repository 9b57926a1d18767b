import {
  type BillingStatus,
  type BillingType,
  billingContract as c,
  memoryContract,
  type RecordTimeBody,
} from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

export type ReportFilter = {
  start: string;
  end: string;
  page: number;
  per_page: number;
  search: string;
  status: BillingStatus | '';
  only_billable: boolean;
};

const reportQuery = (programId: number, f: ReportFilter) => ({
  program_id: String(programId),
  search: f.search,
  ...(f.status ? { status: f.status } : {}),
  ...(f.only_billable ? { only_billable: '1' as const } : {}),
});

/** GET billing/{start}/{end}?program_id=: one page of the program's billing for the period, with its summary. */
export function useBillingReport(programId: number, f: ReportFilter, enabled: boolean) {
  return useQuery({
    queryKey: ['billing', programId, 'report', f],
    queryFn: ({ signal }) =>
      api.call(
        c.report,
        {
          params: { start: f.start, end: f.end },
          query: { ...reportQuery(programId, f), page: String(f.page), per_page: String(f.per_page) },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: enabled && programId > 0,
  });
}

export function downloadBilling(programId: number, f: ReportFilter) {
  return api.download(c.download, {
    params: { start: f.start, end: f.end },
    query: reportQuery(programId, f),
  });
}

/** GET {P}/billing/status: how many patients hold each billing status. */
export function useBillingStatusCounts(programId: number) {
  return useQuery({
    queryKey: ['billing', programId, 'statuses'],
    queryFn: ({ signal }) => api.call(c.statuses, { params: { programId: String(programId) } }, { signal }),
    enabled: programId > 0,
  });
}

/** GET {P}/billing/codes: the codes and what earns them (the legend of the report). */
export function useBillingCodes(programId: number) {
  return useQuery({
    queryKey: ['billing', 'codes'],
    queryFn: ({ signal }) => api.call(c.codes, { params: { programId: String(programId) } }, { signal }),
    enabled: programId > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useSetBillingStatus(programId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { patientId: number; status: BillingStatus; reason: string | null }) =>
      api.call(c.setStatus, {
        params: { programId: String(programId), userId: String(input.patientId) },
        body: { status: input.status, reason: input.reason },
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['billing'] }),
  });
}

/** GET users/{id}/billing[/{start}/{end}]: the patient's entries and figures (this month by default). */
export function usePatientBilling(patientId: number, page: number, period?: { start: string; end: string }) {
  return useQuery({
    queryKey: ['billing', 'patient', patientId, period ?? 'month', page],
    queryFn: ({ signal }) => {
      const query = { page: String(page), per_page: '10', 'admin-interactions': '1' as const };
      return period
        ? api.call(c.patientPeriod, { params: { id: String(patientId), ...period }, query }, { signal })
        : api.call(c.patient, { params: { id: String(patientId) }, query }, { signal });
    },
    placeholderData: keepPreviousData,
    enabled: patientId > 0,
  });
}

export function useRecordTime() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordTimeBody) => api.call(c.record, { body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['billing'] }),
  });
}

export function useDeleteTime() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (entryId: number) => api.call(c.remove, { params: { entryId: String(entryId) } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['billing'] }),
  });
}

/**
 * The user's billing defaults (user memory, module 'billings', 02 §3): the type and activity the time form
 * starts with. Built-in defaults until loaded, or when the call fails (02 §9 resets them to empty).
 */
export type BillingPrefs = { type: BillingType; activity: string };
export const DEFAULT_BILLING_PREFS: BillingPrefs = { type: 'rpm', activity: 'data_review' };

export function useBillingPrefs(programId: number) {
  const client = useQueryClient();
  const key = ['memory', 'billings', programId];
  const memory = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.call(
        memoryContract.get,
        { query: { module_name: 'billings', program_id: String(programId) } },
        { signal },
      ),
    enabled: programId > 0,
    staleTime: 10 * 60_000,
    retry: 1,
  });
  const stored = memory.data?.data?.default_settings ?? {};
  const prefs: BillingPrefs = {
    type: stored.type === 'ccm' ? 'ccm' : DEFAULT_BILLING_PREFS.type,
    activity: typeof stored.activity === 'string' ? stored.activity : DEFAULT_BILLING_PREFS.activity,
  };
  return {
    prefs,
    save: async (next: BillingPrefs) => {
      if (next.type === prefs.type && next.activity === prefs.activity) return;
      const result = await api.call(memoryContract.save, {
        body: { module_name: 'billings', program_id: programId, default_settings: next },
      });
      client.setQueryData(key, { data: result.data });
    },
  };
}
