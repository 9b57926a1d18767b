import { z } from 'zod';
import { activeUser, language, theme } from './active-user';
import { changePasswordBody, mfaCodeBody, mfaSetupResult, signInResult } from './auth';
import { bodyId, idParam, line, text } from './common';
import { defineRoute } from './route';

export const realtimeKeys = z.object({ key: z.string(), cluster: z.string(), path: z.string() });
export const activeUserV2 = activeUser.extend({ realtime: realtimeKeys });
export type ActiveUserV2 = z.infer<typeof activeUserV2>;

const ianaZone = line().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'The time zone is not a valid IANA zone.' },
);

export const updateProfileBody = z.object({
  given_name: line().trim().min(1, 'The given name is required.').max(100),
  family_name: line().trim().min(1, 'The family name is required.').max(100),
  title: line().trim().max(100).nullable().optional(),
  about: text().trim().max(1000).nullable().optional(),
  phoneNumber: line()
    .trim()
    .regex(/^\+?[0-9 ()-]{7,20}$/, 'The phone number is not valid.')
    .nullable()
    .optional(),
  tz: ianaZone.nullable().optional(),
  language: language.optional(),
  theme: theme.optional(),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

export const loginLogResponse = z.object({ id: z.number().int() });
export const resetPasswordExpireBody = z.object({ email: line().trim().toLowerCase().email().max(254) });

export const broadcastingAuthBody = z.object({
  socket_id: line().min(1).max(100),
  channel_name: line().min(1).max(200),
});
export const broadcastingAuthResponse = z.object({ auth: z.string(), channel_data: z.string().optional() });

export const pageSessionBody = z.object({
  path: line().min(1).max(500),
  time_s: z.number().int().min(0).max(86_400),
  name: line().max(200).nullable().optional(),
  subject_id: bodyId.nullable().optional(),
});

const userTags = ['user'] as const;
const idParams = z.object({ id: idParam });

/** The signed-in staff user: profile, consent, password, MFA, logs, realtime (01 §7 "User and session"). */
export const userContract = {
  me: defineRoute({ method: 'GET', path: '/api/v1/user', tags: userTags, responses: { 200: activeUser } }),
  meV2: defineRoute({
    method: 'GET',
    path: '/api/v2/user',
    tags: userTags,
    responses: { 200: activeUserV2 },
  }),
  updateProfile: defineRoute({
    method: 'PUT',
    path: '/api/v1/user',
    tags: userTags,
    body: updateProfileBody,
    responses: { 200: activeUser },
  }),
  consentHipaa: defineRoute({
    method: 'PUT',
    path: '/api/v1/user/consent/hipaa',
    tags: userTags,
    responses: { 200: signInResult },
  }),
  changePassword: defineRoute({
    method: 'PUT',
    path: '/api/v1/user/password',
    tags: userTags,
    body: changePasswordBody,
    responses: { 204: null },
  }),
  mfaSetup: defineRoute({
    method: 'POST',
    path: '/api/v1/user/mfa/setup',
    tags: userTags,
    responses: { 200: mfaSetupResult },
  }),
  mfaEnable: defineRoute({
    method: 'POST',
    path: '/api/v1/user/mfa/enable',
    tags: userTags,
    body: mfaCodeBody,
    responses: { 204: null },
  }),
  mfaDisable: defineRoute({
    method: 'POST',
    path: '/api/v1/user/mfa/disable',
    tags: userTags,
    body: mfaCodeBody,
    responses: { 204: null },
  }),
  loginLog: defineRoute({
    method: 'PUT',
    path: '/api/v1/user/login_log',
    tags: userTags,
    responses: { 200: loginLogResponse },
  }),
  logoutLog: defineRoute({
    method: 'PUT',
    path: '/api/v1/logout_log/:id',
    tags: userTags,
    params: idParams,
    /**
     * Spec 01 §7 "Logout log: payload id": a client may repeat the log's id in the body. Accepted and ignored
     * (the path names the log); bodies are strict (ADR 070), so it is declared.
     */
    body: z.object({ id: z.union([bodyId, z.string().regex(/^\d{1,15}$/)]).optional() }).nullish(),
    responses: { 204: null },
  }),
  resetPasswordExpire: defineRoute({
    method: 'PUT',
    path: '/api/v1/user/reset-password-expire',
    tags: userTags,
    body: resetPasswordExpireBody,
    responses: { 204: null },
  }),
  broadcastingAuth: defineRoute({
    method: 'POST',
    path: '/api/v1/broadcasting/auth',
    tags: ['realtime'],
    body: broadcastingAuthBody,
    responses: { 200: broadcastingAuthResponse },
  }),
  pageSession: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/:id/session',
    tags: userTags,
    params: z.object({ programId: idParam, id: idParam }),
    body: pageSessionBody,
    responses: { 201: null },
  }),
};
