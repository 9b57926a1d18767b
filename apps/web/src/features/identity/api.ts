import {
  type ActiveUser,
  activeUser,
  controllerMe,
  controllerSignInResult,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  loginLogResponse,
  messageBody,
  mfaSetupResult,
  publicConfig,
  type SignInResult,
  signInResult,
  type UpdateProfileBody,
} from '@caredeck/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';
import { STORAGE_KEYS, writeJson } from '../../shared/browser-storage';

export const userQueryKey = ['user'] as const;

/** GET /api/v1/user: the signed-in staff user (01 §3 "Active user"). */
export const userQuery = queryOptions({
  queryKey: userQueryKey,
  queryFn: async ({ signal }) => {
    const user = await api.get('/api/v1/user', { schema: activeUser, signal });
    // Cached in local storage (01 §3): it is the "stored identity" of the failure rules of 01 §2.
    writeJson(STORAGE_KEYS.userInfo, user);
    return user;
  },
  staleTime: 5 * 60_000,
  retry: false,
});

export function useCurrentUser(): ActiveUser | undefined {
  return useQuery(userQuery).data;
}

export const configQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: ({ signal }) => api.get('/api/config', { schema: publicConfig, signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export function useIdleTimeoutSeconds(): number {
  return useQuery(configQuery).data?.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
}

// Sign-in steps (01 §4). Each answers the next step of the flow.
export const authApi = {
  signIn: (email: string, password: string): Promise<SignInResult> =>
    api.post('/api/auth/sign-in', { email: email.trim().toLowerCase(), password }, { schema: signInResult }),
  newPassword: (challengeToken: string, password: string, confirmation: string): Promise<SignInResult> =>
    api.post(
      '/api/auth/new-password',
      { challenge_token: challengeToken, password, password_confirmation: confirmation },
      { schema: signInResult },
    ),
  mfa: (challengeToken: string, code: string): Promise<SignInResult> =>
    api.post(
      '/api/auth/mfa',
      { challenge_token: challengeToken, code: code.trim() },
      { schema: signInResult },
    ),
  acceptHipaa: (): Promise<SignInResult> =>
    api.put('/api/v1/user/consent/hipaa', undefined, { schema: signInResult }),
  forgotPassword: (email: string) =>
    api.post('/api/auth/forgot-password', { email: email.trim().toLowerCase() }, { schema: messageBody }),
  resetPassword: (email: string, code: string, password: string, confirmation: string) =>
    api.post(
      '/api/auth/reset-password',
      { email: email.trim().toLowerCase(), code: code.trim(), password, password_confirmation: confirmation },
      { schema: messageBody },
    ),
  register: (body: {
    given_name: string;
    family_name: string;
    email: string;
    password: string;
    confirmation: string;
  }) =>
    api.post(
      '/api/auth/register',
      {
        given_name: body.given_name,
        family_name: body.family_name,
        email: body.email.trim().toLowerCase(),
        password: body.password,
        password_confirmation: body.confirmation,
      },
      { schema: messageBody },
    ),
  confirmRegistration: (email: string, code: string) =>
    api.post(
      '/api/auth/confirm-registration',
      { email: email.trim().toLowerCase(), code: code.trim() },
      { schema: messageBody },
    ),
  loginLog: () => api.put('/api/v1/user/login_log', undefined, { schema: loginLogResponse }),
  logoutLog: (id: string) => api.put<void>(`/api/v1/logout_log/${encodeURIComponent(id)}`),
  signOut: () => api.post<void>('/api/auth/sign-out', undefined, { auth: 'staff', renew: false }),
};

export const controllerApi = {
  signIn: (email: string, password: string) =>
    api.post(
      '/api/auth/controller/sign-in',
      { email: email.trim().toLowerCase(), password },
      { schema: controllerSignInResult },
    ),
  me: () => api.get('/api/controller/me', { auth: 'controller', schema: controllerMe }),
  signOut: () => api.post<void>('/api/auth/controller/sign-out', undefined, { auth: 'controller' }),
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
    mutationFn: (body: UpdateProfileBody) => api.put('/api/v1/user', body, { schema: activeUser }),
    onSuccess: (user) => queryClient.setQueryData(userQueryKey, user),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { current_password: string; password: string; password_confirmation: string }) =>
      api.put<unknown>('/api/v1/user/password', body),
  });
}

export function useMfaSetup() {
  return useMutation({
    mutationFn: () => api.post('/api/v1/user/mfa/setup', undefined, { schema: mfaSetupResult }),
  });
}

export function useMfaEnable() {
  return useUserMutation((code: string) =>
    api.post<unknown>('/api/v1/user/mfa/enable', { code: code.trim() }),
  );
}

export function useMfaDisable() {
  return useUserMutation((code: string) =>
    api.post<unknown>('/api/v1/user/mfa/disable', { code: code.trim() }),
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
  return api.post<unknown>(`/api/v1/programs/${programId}/users/${userId}/session`, body);
}
