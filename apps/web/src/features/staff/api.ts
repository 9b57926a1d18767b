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
  });
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
