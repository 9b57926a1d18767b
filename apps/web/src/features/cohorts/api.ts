import { groupsContract as c } from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

const str = (n: number) => String(n);

export function useCohorts(programId: number, params: { page: number; keyword: string }, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['cohorts', programId, params],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          params: { programId: str(programId) },
          query: { page: str(params.page), per_page: '25', keyword: params.keyword || undefined },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useCohort(id: number, enabled = true) {
  return useQuery({
    queryKey: ['cohort', id],
    queryFn: ({ signal }) => api.call(c.get, { params: { id: str(id) } }, { signal }),
    retry: false,
    enabled,
  });
}

function useCohortChanged() {
  const client = useQueryClient();
  return (id?: number) => {
    void client.invalidateQueries({ queryKey: ['cohorts'] });
    if (id) void client.invalidateQueries({ queryKey: ['cohort', id] });
  };
}

export function useCreateCohort(programId: number) {
  const changed = useCohortChanged();
  return useMutation({
    mutationFn: (body: { name: string; description?: string }) =>
      api.call(c.create, { params: { programId: str(programId) }, body }),
    onSuccess: () => changed(),
  });
}

export function useUpdateCohort(programId: number, id: number) {
  const changed = useCohortChanged();
  return useMutation({
    mutationFn: (body: { name?: string; description?: string }) =>
      api.call(c.update, { params: { programId: str(programId), id: str(id) }, body }),
    onSuccess: () => changed(id),
  });
}

export function useDeleteCohort(id: number) {
  const changed = useCohortChanged();
  return useMutation({
    mutationFn: () => api.call(c.delete, { params: { id: str(id) } }),
    // The list only: the deleted cohort's page is still shown until the console leaves it, and refreshing its
    // query would ask for a cohort that no longer exists (404; issue 32 item 8).
    onSuccess: () => changed(),
  });
}

export function useCohortMember(programId: number, id: number) {
  const changed = useCohortChanged();
  return useMutation({
    mutationFn: ({ patientId, member }: { patientId: number; member: boolean }) =>
      api.call(member ? c.addUser : c.removeUser, {
        params: { programId: str(programId), groupId: str(id), userId: str(patientId) },
      }),
    onSuccess: () => changed(id),
  });
}
