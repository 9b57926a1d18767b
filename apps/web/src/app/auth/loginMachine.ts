import type { SignInResult } from '@caredeck/contracts';

/**
 * The steps of the sign-in page: the authentication states of 01 §4 (signedOut, newPassword, hipaa,
 * forgotPassword, forgotPasswordSubmit, confirmRegistration, signedIn) plus mfa and the sign-up form.
 */
export type LoginStep =
  | { name: 'signedOut'; email: string }
  | { name: 'newPassword'; challengeToken: string }
  | { name: 'mfa'; challengeToken: string }
  | { name: 'hipaa' }
  | { name: 'forgotPassword'; email: string }
  | { name: 'forgotPasswordSubmit'; email: string }
  | { name: 'register' }
  | { name: 'confirmRegistration'; email: string }
  | { name: 'signedIn' };

export type LoginStepName = LoginStep['name'];

export type LoginEvent =
  /** An answer of sign-in, new-password, mfa or consent. */
  | { type: 'signInResult'; result: SignInResult }
  /** Sign-in refused with 403 password_expired: reset the password (01 §8). */
  | { type: 'passwordExpired'; email: string }
  | { type: 'forgotPassword'; email: string }
  | { type: 'resetCodeSent'; email: string }
  | { type: 'passwordReset'; email: string }
  | { type: 'register' }
  | { type: 'registered'; email: string }
  | { type: 'registrationConfirmed'; email: string }
  | { type: 'backToSignIn' };

export const INITIAL_LOGIN_STEP: LoginStep = { name: 'signedOut', email: '' };

function fromResult(result: SignInResult): LoginStep {
  switch (result.status) {
    case 'signedIn':
      return { name: 'signedIn' };
    case 'hipaa':
      return { name: 'hipaa' };
    case 'newPassword':
      return { name: 'newPassword', challengeToken: result.challenge_token };
    case 'mfa':
      return { name: 'mfa', challengeToken: result.challenge_token };
  }
}

/** The transitions of 01 §4. Events that do not apply to the current step leave it unchanged. */
export function loginTransition(step: LoginStep, event: LoginEvent): LoginStep {
  switch (event.type) {
    case 'signInResult':
      return step.name === 'signedIn' ? step : fromResult(event.result);
    case 'passwordExpired':
      return step.name === 'signedOut' ? { name: 'forgotPassword', email: event.email } : step;
    case 'forgotPassword':
      return step.name === 'signedOut' ? { name: 'forgotPassword', email: event.email } : step;
    case 'resetCodeSent':
      return step.name === 'forgotPassword' ? { name: 'forgotPasswordSubmit', email: event.email } : step;
    case 'passwordReset':
      return step.name === 'forgotPasswordSubmit' ? { name: 'signedOut', email: event.email } : step;
    case 'register':
      return step.name === 'signedOut' ? { name: 'register' } : step;
    case 'registered':
      return step.name === 'register' ? { name: 'confirmRegistration', email: event.email } : step;
    case 'registrationConfirmed':
      return step.name === 'confirmRegistration' ? { name: 'signedOut', email: event.email } : step;
    case 'backToSignIn':
      return step.name === 'signedIn' ? step : INITIAL_LOGIN_STEP;
  }
}
