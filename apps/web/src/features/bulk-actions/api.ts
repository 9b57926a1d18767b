import {
  type BulkActionState,
  type CreateBulkActionBody,
  bulkActionsContract as c,
  patientRecordContract,
} from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

export function useBulkActions(programId: number, state: BulkActionState | '', page: number) {
  return useQuery({
    queryKey: ['bulk-actions', programId, state, page],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          query: {
            program_id: String(programId),
            page: String(page),
            per_page: '25',
            ...(state ? { state } : {}),
          },
        },
        { signal },
      ),
    enabled: programId > 0,
    placeholderData: keepPreviousData,
  });
}

/** One job with each patient's outcome. */
export function useBulkAction(programId: number, jobId: string | null) {
  return useQuery({
    queryKey: ['bulk-actions', programId, 'job', jobId],
    queryFn: ({ signal }) =>
      api.call(c.list, { query: { program_id: String(programId), job_id: jobId! } }, { signal }),
    enabled: programId > 0 && jobId !== null,
  });
}

/** Every patient of the program (for choosing whom an action applies to). */
export function useProgramPatients(programId: number) {
  return useQuery({
    queryKey: ['bulk-actions', programId, 'patients'],
    queryFn: ({ signal }) =>
      api.call(patientRecordContract.allPatients, { params: { programId: String(programId) } }, { signal }),
    enabled: programId > 0,
    staleTime: 60_000,
  });
}

export function useBulkActionMutations() {
  const client = useQueryClient();
  const done = () => void client.invalidateQueries({ queryKey: ['bulk-actions'] });
  return {
    create: useMutation({
      mutationFn: (body: CreateBulkActionBody) => api.call(c.create, { body }),
      onSuccess: done,
    }),
    approve: useMutation({
      mutationFn: (jobId: string) => api.call(c.approve, { body: { job_id: jobId } }),
      onSuccess: done,
    }),
    cancel: useMutation({
      mutationFn: (jobId: string) => api.call(c.cancel, { body: { job_id: jobId } }),
      onSuccess: done,
    }),
    rerun: useMutation({
      mutationFn: (input: { jobId: string; only: 'failed' | 'all' }) =>
        api.call(input.only === 'failed' ? c.rerunFailed : c.rerunAll, { params: { jobId: input.jobId } }),
      onSuccess: done,
    }),
  };
}
