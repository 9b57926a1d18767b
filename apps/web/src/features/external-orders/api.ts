import {
  externalOrdersContract as c,
  patientRecordContract,
  type VerifyRegimensBody,
} from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

/** The list's filters as the URL keeps them (02 §3: date, statuses, automation, verified only, search, drug, patient). */
export type OrderFilters = {
  date: string;
  statuses: string[];
  automation: boolean;
  verified: boolean;
  search: string;
  drug: string;
  patient: string;
  page: number;
};

export const PER_PAGE = 25;
const KEY = 'external-orders';

export function useExternalOrders(programId: number, f: OrderFilters) {
  return useQuery({
    queryKey: [KEY, programId, 'list', f],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          query: {
            program_id: String(programId),
            page: String(f.page),
            per_page: String(PER_PAGE),
            ...(f.date ? { date: f.date } : {}),
            ...(f.statuses.length ? { statuses: f.statuses.join(',') } : {}),
            ...(f.automation ? { only_automation: '1' as const } : {}),
            ...(f.verified ? { verified_only: '1' as const } : {}),
            ...(f.search ? { search: f.search } : {}),
            ...(f.drug ? { searchDrug: f.drug } : {}),
            ...(f.patient ? { user_id: f.patient } : {}),
          },
        },
        { signal },
      ),
    enabled: programId > 0,
    placeholderData: keepPreviousData,
  });
}

export function useOrderStatuses(programId: number) {
  return useQuery({
    queryKey: [KEY, programId, 'statuses'],
    queryFn: ({ signal }) => api.call(c.statuses, { query: { program_id: String(programId) } }, { signal }),
    enabled: programId > 0,
  });
}

/** Every patient of the program (the patient filter). */
export function useProgramPatients(programId: number) {
  return useQuery({
    queryKey: [KEY, programId, 'patients'],
    queryFn: ({ signal }) =>
      api.call(patientRecordContract.allPatients, { params: { programId: String(programId) } }, { signal }),
    enabled: programId > 0,
    staleTime: 60_000,
  });
}

export function useOrderHistory(orderId: number | null) {
  return useQuery({
    queryKey: [KEY, 'history', orderId],
    queryFn: ({ signal }) => api.call(c.history, { params: { orderId: String(orderId) } }, { signal }),
    enabled: orderId !== null,
  });
}

export function useOrderTracking(orderId: number | null) {
  return useQuery({
    queryKey: [KEY, 'tracking', orderId],
    queryFn: ({ signal }) => api.call(c.tracking, { params: { id: String(orderId) } }, { signal }),
    enabled: orderId !== null,
  });
}

export type ReviewTarget = { userId: number; date: string; name: string };

const reviewParams = (t: ReviewTarget) => ({ userId: String(t.userId), needByDate: t.date });

export function useFillFiles(target: ReviewTarget | null) {
  return useQuery({
    queryKey: [KEY, 'fill', target?.userId, target?.date],
    queryFn: ({ signal }) => api.call(c.fillFiles, { params: reviewParams(target!) }, { signal }),
    enabled: target !== null,
  });
}

export function useScheduleReview(target: ReviewTarget | null) {
  return useQuery({
    queryKey: [KEY, 'regimens', target?.userId, target?.date],
    queryFn: ({ signal }) => api.call(c.regimens, { params: reviewParams(target!) }, { signal }),
    enabled: target !== null,
  });
}

export function useMatches(externalPatientId: number | null) {
  return useQuery({
    queryKey: [KEY, 'matches', externalPatientId],
    queryFn: ({ signal }) => api.call(c.matches, { params: { id: String(externalPatientId) } }, { signal }),
    enabled: externalPatientId !== null,
  });
}

export function useExternalOrderMutations() {
  const client = useQueryClient();
  const done = () => void client.invalidateQueries({ queryKey: [KEY] });
  return {
    importCsv: useMutation({
      mutationFn: (input: { programId: number; file: File }) => {
        const form = new FormData();
        form.append('program_id', String(input.programId));
        form.append('file', input.file, input.file.name);
        return api.upload(c.import, {}, form);
      },
      onSuccess: done,
    }),
    merge: useMutation({
      mutationFn: (input: { externalId: number; patientId: number }) =>
        api.call(c.merge, { params: { id: String(input.externalId), patientId: String(input.patientId) } }),
      onSuccess: done,
    }),
    verifyFill: useMutation({
      mutationFn: (target: ReviewTarget) => api.call(c.verifyFillFiles, { params: reviewParams(target) }),
      onSuccess: done,
    }),
    verifySchedule: useMutation({
      mutationFn: (input: { target: ReviewTarget; body: VerifyRegimensBody }) =>
        api.call(c.verifyRegimens, { params: reviewParams(input.target), body: input.body }),
      onSuccess: done,
    }),
    finalize: useMutation({
      mutationFn: (input: { programId: number; ids: number[] }) =>
        api.call(c.finalize, { body: { program_id: input.programId, external_order_ids: input.ids } }),
      onSuccess: done,
    }),
  };
}
