import { z } from 'zod';
import { activeUser } from './active-user';
import { line, messageBody } from './common';
import { AUTH_REFRESH_ROUTE, PASSWORD_MIN_LENGTH } from './constants';
import { defineRoute } from './route';

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match. Please try again.';
export const INVALID_CREDENTIALS = 'Incorrect username or password.';

/** A staff e-mail address, lower-cased (01 §5). */
export const emailAddress = line()
  .trim()
  .toLowerCase()
  .email('The email must be a valid email address.')
  .max(254);
const email = emailAddress;

/** Password strength: length plus three of four character classes; no upper bound beyond 256. */
export const newPassword = line()
  .min(PASSWORD_MIN_LENGTH, `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(256, 'The password may not be greater than 256 characters.')
  .refine(
    (p) => [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(p)).length >= 3,
    'The password must mix at least three of: lower case, upper case, digits, symbols.',
  );

const passwordPair = { password: newPassword, password_confirmation: line().max(256) };
const passwordsMatch = (b: { password: string; password_confirmation: string }) =>
  b.password === b.password_confirmation;
const mismatch = { message: PASSWORDS_DO_NOT_MATCH, path: ['password_confirmation'] };

export const signInBody = z.object({
  email,
  password: line().min(1, 'The password is required.').max(256),
});
export type SignInBody = z.infer<typeof signInBody>;

/** Every step of sign-in answers with one of these. `access_token` is short-lived; the refresh token is a cookie. */
export const signInResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signedIn'), access_token: z.string(), expires_in: z.number().int() }),
  z.object({ status: z.literal('hipaa'), access_token: z.string(), expires_in: z.number().int() }),
  z.object({ status: z.literal('newPassword'), challenge_token: z.string() }),
  z.object({ status: z.literal('mfa'), challenge_token: z.string() }),
]);
export type SignInResult = z.infer<typeof signInResult>;

export const newPasswordBody = z
  .object({ challenge_token: line().min(1).max(2000), ...passwordPair })
  .refine(passwordsMatch, mismatch);
export const mfaBody = z.object({
  challenge_token: line().min(1).max(2000),
  code: line()
    .trim()
    .regex(/^[0-9]{6}$/, 'The code must be 6 digits.'),
});
export const forgotPasswordBody = z.object({ email });
export const resetPasswordBody = z
  .object({
    email,
    code: z
      .string()
      .trim()
      .regex(/^[0-9]{6}$/, 'The code must be 6 digits.'),
    ...passwordPair,
  })
  .refine(passwordsMatch, mismatch);
export const registerBody = z
  .object({
    given_name: line().trim().min(1, 'The first name is required.').max(100),
    family_name: line().trim().min(1, 'The last name is required.').max(100),
    email,
    ...passwordPair,
  })
  .refine(passwordsMatch, mismatch);
export const confirmRegistrationBody = z.object({
  email,
  code: line()
    .trim()
    .regex(/^[0-9]{6}$/, 'The code must be 6 digits.'),
});
export const refreshResult = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  /** With `?include=user`: the signed-in user as GET /api/v1/user answers, saving the console a round trip. */
  user: activeUser.optional(),
});
export const refreshQuery = z.object({ include: z.enum(['user']).optional() });

export const changePasswordBody = z
  .object({ current_password: line().min(1).max(256), ...passwordPair })
  .refine(passwordsMatch, mismatch);
export const mfaSetupResult = z.object({ secret: z.string(), otpauth_url: z.string() });
export const mfaCodeBody = z.object({
  code: line()
    .trim()
    .regex(/^[0-9]{6}$/, 'The code must be 6 digits.'),
});

export const controllerSignInResult = z.object({
  status: z.literal('signedIn'),
  access_token: z.string(),
  expires_in: z.number().int(),
});
export const controllerMe = z.object({ id: z.number().int(), email: z.string(), name: z.string() });

const authTags = ['auth'] as const;

/** Sign-in and account flows of the staff realm, and the controller realm's sign-in (01 §4). */
export const authContract = {
  signIn: defineRoute({
    method: 'POST',
    path: '/api/auth/sign-in',
    tags: authTags,
    body: signInBody,
    responses: { 200: signInResult },
  }),
  newPassword: defineRoute({
    method: 'POST',
    path: '/api/auth/new-password',
    tags: authTags,
    body: newPasswordBody,
    responses: { 200: signInResult },
  }),
  mfa: defineRoute({
    method: 'POST',
    path: '/api/auth/mfa',
    tags: authTags,
    body: mfaBody,
    responses: { 200: signInResult },
  }),
  forgotPassword: defineRoute({
    method: 'POST',
    path: '/api/auth/forgot-password',
    tags: authTags,
    body: forgotPasswordBody,
    responses: { 200: messageBody },
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/api/auth/reset-password',
    tags: authTags,
    body: resetPasswordBody,
    responses: { 200: messageBody },
  }),
  register: defineRoute({
    method: 'POST',
    path: '/api/auth/register',
    tags: authTags,
    body: registerBody,
    responses: { 200: messageBody },
  }),
  confirmRegistration: defineRoute({
    method: 'POST',
    path: '/api/auth/confirm-registration',
    tags: authTags,
    body: confirmRegistrationBody,
    responses: { 200: messageBody },
  }),
  refresh: defineRoute({
    ...AUTH_REFRESH_ROUTE,
    tags: authTags,
    query: refreshQuery,
    /** 204: no refresh cookie was sent (nobody signed in on this browser); 401: the cookie is not valid. */
    responses: { 200: refreshResult, 204: null },
  }),
  signOut: defineRoute({
    method: 'POST',
    path: '/api/auth/sign-out',
    tags: authTags,
    responses: { 204: null },
  }),
  controllerSignIn: defineRoute({
    method: 'POST',
    path: '/api/auth/controller/sign-in',
    tags: authTags,
    body: signInBody,
    responses: { 200: controllerSignInResult },
  }),
  controllerSignOut: defineRoute({
    method: 'POST',
    path: '/api/auth/controller/sign-out',
    tags: authTags,
    responses: { 204: null },
  }),
  controllerMe: defineRoute({
    method: 'GET',
    path: '/api/controller/me',
    tags: ['controller'],
    responses: { 200: controllerMe },
  }),
};
