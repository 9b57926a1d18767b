import { type CreateStaffBody, staffContract, tenancyContract } from '@caredeck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

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
