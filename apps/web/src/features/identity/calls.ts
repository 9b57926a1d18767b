import type { ActiveUser, SignInResult } from '@caredeck/contracts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { loadIdentityContracts } from '../../app/auth/session';
import { api } from '../../shared/api-client';
import { STORAGE_KEYS, writeJson } from '../../shared/browser-storage';

// The identity calls without React hooks (those are in api.ts): what the route guards and the sign-in page use,
// so these load without TanStack Query's hooks. Their contracts load with the first call (the sign-in page shows
// without zod, ADR 048).
const authContract = async () => (await loadIdentityContracts()).authContract;
const userContract = async () => (await loadIdentityContracts()).userContract;
const platformContract = async () => (await loadIdentityContracts()).platformContract;

export const userQueryKey = ['user'] as const;

/** GET /api/v1/user: the signed-in staff user (01 §3 "Active user"). */
export const userQuery = queryOptions({
  queryKey: userQueryKey,
  queryFn: async ({ signal }) => {
    const me = await api.call((await userContract()).me, {}, { signal });
    // Cached in local storage (01 §3): it is the "stored identity" of the failure rules of 01 §2.
    writeJson(STORAGE_KEYS.userInfo, me);
    return me;
  },
  staleTime: 5 * 60_000,
  retry: false,
});

/** The user the start-up refresh brought along (`?include=user`): cached as GET /api/v1/user would have. */
export function rememberUser(client: QueryClient, user: ActiveUser): void {
  writeJson(STORAGE_KEYS.userInfo, user);
  client.setQueryData(userQueryKey, user);
}

export const configQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: async ({ signal }) => api.call((await platformContract()).config, {}, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

// Sign-in steps (01 §4). Each answers the next step of the flow.
export const authApi = {
  signIn: async (email: string, password: string): Promise<SignInResult> =>
    api.call((await authContract()).signIn, { body: { email: email.trim().toLowerCase(), password } }),
  newPassword: async (
    challengeToken: string,
    password: string,
    confirmation: string,
  ): Promise<SignInResult> =>
    api.call((await authContract()).newPassword, {
      body: { challenge_token: challengeToken, password, password_confirmation: confirmation },
    }),
  mfa: async (challengeToken: string, code: string): Promise<SignInResult> =>
    api.call((await authContract()).mfa, { body: { challenge_token: challengeToken, code: code.trim() } }),
  acceptHipaa: async (): Promise<SignInResult> => api.call((await userContract()).consentHipaa),
  forgotPassword: async (email: string) =>
    api.call((await authContract()).forgotPassword, { body: { email: email.trim().toLowerCase() } }),
  resetPassword: async (email: string, code: string, password: string, confirmation: string) =>
    api.call((await authContract()).resetPassword, {
      body: {
        email: email.trim().toLowerCase(),
        code: code.trim(),
        password,
        password_confirmation: confirmation,
      },
    }),
  register: async (body: {
    given_name: string;
    family_name: string;
    email: string;
    password: string;
    confirmation: string;
  }) =>
    api.call((await authContract()).register, {
      body: {
        given_name: body.given_name,
        family_name: body.family_name,
        email: body.email.trim().toLowerCase(),
        password: body.password,
        password_confirmation: body.confirmation,
      },
    }),
  confirmRegistration: async (email: string, code: string) =>
    api.call((await authContract()).confirmRegistration, {
      body: { email: email.trim().toLowerCase(), code: code.trim() },
    }),
  loginLog: async () => api.call((await userContract()).loginLog),
  logoutLog: async (id: string) => api.call((await userContract()).logoutLog, { params: { id } }),
  signOut: async () => api.call((await authContract()).signOut, {}, { auth: 'staff', renew: false }),
};

export const controllerApi = {
  signIn: async (email: string, password: string) =>
    api.call((await authContract()).controllerSignIn, {
      body: { email: email.trim().toLowerCase(), password },
    }),
  me: async () => api.call((await authContract()).controllerMe, {}, { auth: 'controller' }),
  signOut: async () => api.call((await authContract()).controllerSignOut, {}, { auth: 'controller' }),
};

export interface PageTimeBody {
  path: string;
  time_s: number;
  name: string | null;
  subject_id: number | null;
}

/** POST {p}/users/{me}/session: time spent on a page (02 "session log"). */
export async function recordPageTime(
  programId: number,
  userId: number,
  body: PageTimeBody,
): Promise<unknown> {
  return api.call((await userContract()).pageSession, {
    params: { programId: String(programId), id: String(userId) },
    body,
  });
}
