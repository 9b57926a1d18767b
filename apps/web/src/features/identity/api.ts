import {
  type ActiveUser,
  authContract,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  platformContract,
  type SignInResult,
  type UpdateProfileBody,
  userContract,
} from '@caredeck/contracts';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';
import { STORAGE_KEYS, writeJson } from '../../shared/browser-storage';

export const userQueryKey = ['user'] as const;

/** GET /api/v1/user: the signed-in staff user (01 §3 "Active user"). */
export const userQuery = queryOptions({
  queryKey: userQueryKey,
  queryFn: async ({ signal }) => {
    const user = await api.call(userContract.me, {}, { signal });
    // Cached in local storage (01 §3): it is the "stored identity" of the failure rules of 01 §2.
    writeJson(STORAGE_KEYS.userInfo, user);
    return user;
  },
  staleTime: 5 * 60_000,
  retry: false,
});

/** The user the start-up refresh brought along (`?include=user`): cached as GET /api/v1/user would have. */
export function rememberUser(client: QueryClient, user: ActiveUser): void {
  writeJson(STORAGE_KEYS.userInfo, user);
  client.setQueryData(userQueryKey, user);
}

export function useCurrentUser(): ActiveUser | undefined {
  return useQuery(userQuery).data;
}

export const configQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: ({ signal }) => api.call(platformContract.config, {}, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export function useIdleTimeoutSeconds(): number {
  return useQuery(configQuery).data?.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
}

// Sign-in steps (01 §4). Each answers the next step of the flow.
export const authApi = {
  signIn: (email: string, password: string): Promise<SignInResult> =>
    api.call(authContract.signIn, { body: { email: email.trim().toLowerCase(), password } }),
  newPassword: (challengeToken: string, password: string, confirmation: string): Promise<SignInResult> =>
    api.call(authContract.newPassword, {
      body: { challenge_token: challengeToken, password, password_confirmation: confirmation },
    }),
  mfa: (challengeToken: string, code: string): Promise<SignInResult> =>
    api.call(authContract.mfa, { body: { challenge_token: challengeToken, code: code.trim() } }),
  acceptHipaa: (): Promise<SignInResult> => api.call(userContract.consentHipaa),
  forgotPassword: (email: string) =>
    api.call(authContract.forgotPassword, { body: { email: email.trim().toLowerCase() } }),
  resetPassword: (email: string, code: string, password: string, confirmation: string) =>
    api.call(authContract.resetPassword, {
      body: {
        email: email.trim().toLowerCase(),
        code: code.trim(),
        password,
        password_confirmation: confirmation,
      },
    }),
  register: (body: {
    given_name: string;
    family_name: string;
    email: string;
    password: string;
    confirmation: string;
  }) =>
    api.call(authContract.register, {
      body: {
        given_name: body.given_name,
        family_name: body.family_name,
        email: body.email.trim().toLowerCase(),
        password: body.password,
        password_confirmation: body.confirmation,
      },
    }),
  confirmRegistration: (email: string, code: string) =>
    api.call(authContract.confirmRegistration, {
      body: { email: email.trim().toLowerCase(), code: code.trim() },
    }),
  loginLog: () => api.call(userContract.loginLog),
  logoutLog: (id: string) => api.call(userContract.logoutLog, { params: { id } }),
  signOut: () => api.call(authContract.signOut, {}, { auth: 'staff', renew: false }),
};

export const controllerApi = {
  signIn: (email: string, password: string) =>
    api.call(authContract.controllerSignIn, { body: { email: email.trim().toLowerCase(), password } }),
  me: () => api.call(authContract.controllerMe, {}, { auth: 'controller' }),
  signOut: () => api.call(authContract.controllerSignOut, {}, { auth: 'controller' }),
};

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
    mutationFn: (body: UpdateProfileBody) => api.call(userContract.updateProfile, { body }),
    onSuccess: (user) => queryClient.setQueryData(userQueryKey, user),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { current_password: string; password: string; password_confirmation: string }) =>
      api.call(userContract.changePassword, { body }),
  });
}

export function useMfaSetup() {
  return useMutation({
    mutationFn: () => api.call(userContract.mfaSetup),
  });
}

export function useMfaEnable() {
  return useUserMutation((code: string) => api.call(userContract.mfaEnable, { body: { code: code.trim() } }));
}

export function useMfaDisable() {
  return useUserMutation((code: string) =>
    api.call(userContract.mfaDisable, { body: { code: code.trim() } }),
  );
}

export interface PageTimeBody {
  path: string;
  time_s: number;
  name: string | null;
  subject_id: number | null;
}

/** POST {p}/users/{me}/session: time spent on a page (02 "session log"). */
export function recordPageTime(programId: number, userId: number, body: PageTimeBody): Promise<unknown> {
  return api.call(userContract.pageSession, {
    params: { programId: String(programId), id: String(userId) },
    body,
  });
}
