import { type ActiveUser, DEFAULT_IDLE_TIMEOUT_SECONDS, type UpdateProfileBody } from '@caredeck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadIdentityContracts } from '../../app/auth/session';
import { api } from '../../shared/api-client';
import { configQuery, userQuery, userQueryKey } from './calls';

/** The identity hooks of the signed-in screens; the calls without hooks are in calls.ts. */
const userContract = async () => (await loadIdentityContracts()).userContract;

export function useCurrentUser(): ActiveUser | undefined {
  return useQuery(userQuery).data;
}

export function useIdleTimeoutSeconds(): number {
  return useQuery(configQuery).data?.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
}

function useUserMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryKey }),
  });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateProfileBody) => api.call((await userContract()).updateProfile, { body }),
    onSuccess: (user) => queryClient.setQueryData(userQueryKey, user),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: async (body: { current_password: string; password: string; password_confirmation: string }) =>
      api.call((await userContract()).changePassword, { body }),
  });
}

export function useMfaSetup() {
  return useMutation({
    mutationFn: async () => api.call((await userContract()).mfaSetup),
  });
}

export function useMfaEnable() {
  return useUserMutation(async (code: string) =>
    api.call((await userContract()).mfaEnable, { body: { code: code.trim() } }),
  );
}

export function useMfaDisable() {
  return useUserMutation(async (code: string) =>
    api.call((await userContract()).mfaDisable, { body: { code: code.trim() } }),
  );
}
