import {
  type AssignAdminsBody,
  administrationContract,
  type CreateProgramBody,
  type CreateStaffBody,
  type ProgramDetail,
  staffContract,
  tenancyContract,
  type UpdateAdminBody,
  type UpdateEnterpriseBody,
  type UpdateProgramBody,
} from '@caredeck/contracts';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, isApiError } from '../../shared/api-client';

/** Staff of the program with their roles there (GET programs/{p}/admins). */
export function useProgramStaffList(programId: number) {
  return useQuery({
    queryKey: ['staff', programId],
    queryFn: ({ signal }) =>
      api.call(
        tenancyContract.programAdmins,
        { params: { programId: String(programId) }, query: {} },
        { signal },
      ),
    enabled: programId > 0,
  });
}

/** The program's staff as choices (value: admin id, label: name), for assignee pickers. */
export function useStaffOptions(programId: number): { value: string; label: string }[] {
  const staff = useProgramStaffList(programId);
  return (staff.data?.data ?? []).map((s) => ({
    value: String(s.id),
    label: `${s.given_name} ${s.family_name}`,
  }));
}

/** POST programs/{p}/users/admin: the account, its role, and the e-mailed temporary password. */
export function useCreateStaff(programId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateStaffBody) =>
      api.call(staffContract.create, { params: { programId: String(programId) }, body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['staff', programId] }),
  });
}

type AdminListFilter = { status: 'active' | 'disabled' | 'all'; search: string };

/** GET all-admins for one program: its staff and its enterprise's administrators, active or not. */
export function useAdminList(programId: number, filter: AdminListFilter) {
  return useQuery({
    queryKey: ['staff', programId, 'list', filter],
    queryFn: ({ signal }) =>
      api.call(
        administrationContract.allAdmins,
        { query: { program_id: String(programId), per_page: '100', ...filter } },
        { signal },
      ),
    enabled: programId > 0,
    placeholderData: keepPreviousData,
  });
}

/** GET admins/{id}: a colleague with the programs both share, and whether the caller may manage them. */
export function useAdminDetail(id: number | null) {
  return useQuery({
    queryKey: ['staff', 'detail', id],
    queryFn: ({ signal }) =>
      api.call(administrationContract.admin, { params: { id: String(id) } }, { signal }),
    enabled: id !== null,
  });
}

/** PUT admins/{id}: roles in a program, or the account (disabled). */
export function useUpdateAdmin(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAdminBody) =>
      api.call(administrationContract.updateAdmin, { params: { id: String(id) }, body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['staff'] }),
  });
}

/** Staff of the enterprise (for adding existing people to a program). */
export function useEnterpriseStaff(enterpriseId: number | null) {
  return useQuery({
    queryKey: ['staff', 'enterprise', enterpriseId],
    queryFn: ({ signal }) =>
      api.call(
        administrationContract.enterpriseAdmins,
        { params: { enterpriseId: String(enterpriseId) }, query: { per_page: '100' } },
        { signal },
      ),
    enabled: enterpriseId !== null,
  });
}

/** POST assign-admins: people of the enterprise join the program with its type's roles. */
export function useAssignAdmins() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AssignAdminsBody) => api.call(administrationContract.assignAdmins, { body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['staff'] }),
  });
}

/** The enterprise with its programs (GET enterprises/{e}?withRelations=true). */
export function useEnterpriseDetail(enterpriseId: number | null) {
  return useQuery({
    queryKey: ['administration', 'enterprise', enterpriseId],
    queryFn: ({ signal }) =>
      api.call(
        administrationContract.enterprise,
        { params: { enterpriseId: String(enterpriseId) }, query: { withRelations: 'true' } },
        { signal },
      ),
    enabled: enterpriseId !== null,
  });
}

/** GET programs/show/{id}. */
export function useProgramDetail(programId: number | null) {
  return useQuery({
    queryKey: ['administration', 'program', programId],
    queryFn: ({ signal }) =>
      api.call(administrationContract.showProgram, { params: { programId: String(programId) } }, { signal }),
    enabled: programId !== null,
  });
}

/** Creates a program (POST programs) or updates one (POST programs/{id}/update). */
export function useSaveProgram(programId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      body: CreateProgramBody & UpdateProgramBody,
    ): Promise<{ message: string; data: ProgramDetail }> =>
      programId === null
        ? api.call(administrationContract.createProgram, { body: body as CreateProgramBody })
        : api.call(administrationContract.updateProgram, { params: { programId: String(programId) }, body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['administration'] });
      void client.invalidateQueries({ queryKey: ['logo'] });
      void client.invalidateQueries({ queryKey: ['session'] });
    },
  });
}

export function useUpdateEnterprise(enterpriseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateEnterpriseBody) =>
      api.call(administrationContract.updateEnterprise, {
        params: { enterpriseId: String(enterpriseId) },
        body,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['administration'] });
      void client.invalidateQueries({ queryKey: ['logo'] });
    },
  });
}

/** GET enterprises/{e}/history, newest first, pages appended. */
export function useEnterpriseHistory(enterpriseId: number | null) {
  return useInfiniteQuery({
    queryKey: ['administration', 'history', enterpriseId],
    queryFn: ({ signal, pageParam }) =>
      api.call(
        administrationContract.enterpriseHistory,
        {
          params: { enterpriseId: String(enterpriseId) },
          query: { page: String(pageParam), per_page: '20' },
        },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
    enabled: enterpriseId !== null,
  });
}

/** A program's or enterprise's logo as an object URL (null when there is none). */
export function useLogo(kind: 'program' | 'enterprise', id: number | null, version: string) {
  const query = useQuery({
    queryKey: ['logo', kind, id, version],
    queryFn: async ({ signal }) => {
      try {
        const blob =
          kind === 'program'
            ? await api.blob(
                administrationContract.programImage,
                { params: { programId: String(id) } },
                { signal },
              )
            : await api.blob(
                administrationContract.enterpriseImage,
                { params: { enterpriseId: String(id) } },
                { signal },
              );
        return URL.createObjectURL(blob);
      } catch (error) {
        if (isApiError(error, 404)) return null;
        throw error;
      }
    },
    enabled: id !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    const url = query.data;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [query.data]);
  return query.data ?? null;
}
