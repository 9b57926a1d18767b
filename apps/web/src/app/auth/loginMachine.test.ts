import { describe, expect, it } from 'vitest';
import { INITIAL_LOGIN_STEP, type LoginStep, loginTransition } from './loginMachine';

const signedOut: LoginStep = INITIAL_LOGIN_STEP;

describe('the sign-in steps (01 §4)', () => {
  it('follows each answer of sign-in', () => {
    expect(
      loginTransition(signedOut, {
        type: 'signInResult',
        result: { status: 'signedIn', access_token: 'a', expires_in: 1 },
      }),
    ).toEqual({ name: 'signedIn' });
    expect(
      loginTransition(signedOut, {
        type: 'signInResult',
        result: { status: 'hipaa', access_token: 'a', expires_in: 1 },
      }),
    ).toEqual({ name: 'hipaa' });
    expect(
      loginTransition(signedOut, {
        type: 'signInResult',
        result: { status: 'newPassword', challenge_token: 'c' },
      }),
    ).toEqual({ name: 'newPassword', challengeToken: 'c' });
    expect(
      loginTransition(signedOut, { type: 'signInResult', result: { status: 'mfa', challenge_token: 'm' } }),
    ).toEqual({ name: 'mfa', challengeToken: 'm' });
  });

  it('accepting HIPAA consent returns to signedIn', () => {
    expect(
      loginTransition(
        { name: 'hipaa' },
        { type: 'signInResult', result: { status: 'signedIn', access_token: 'a', expires_in: 1 } },
      ),
    ).toEqual({ name: 'signedIn' });
  });

  it('an expired password leads to forgotPassword, which leads to forgotPasswordSubmit, then signedOut', () => {
    const forgot = loginTransition(signedOut, { type: 'passwordExpired', email: 'a@b.co' });
    expect(forgot).toEqual({ name: 'forgotPassword', email: 'a@b.co' });
    const submit = loginTransition(forgot, { type: 'resetCodeSent', email: 'a@b.co' });
    expect(submit).toEqual({ name: 'forgotPasswordSubmit', email: 'a@b.co' });
    expect(loginTransition(submit, { type: 'passwordReset', email: 'a@b.co' })).toEqual({
      name: 'signedOut',
      email: 'a@b.co',
    });
  });

  it('registration leads to confirmRegistration, then signedOut', () => {
    const register = loginTransition(signedOut, { type: 'register' });
    expect(register).toEqual({ name: 'register' });
    const confirm = loginTransition(register, { type: 'registered', email: 'n@b.co' });
    expect(confirm).toEqual({ name: 'confirmRegistration', email: 'n@b.co' });
    expect(loginTransition(confirm, { type: 'registrationConfirmed', email: 'n@b.co' })).toEqual({
      name: 'signedOut',
      email: 'n@b.co',
    });
  });

  it('ignores events that do not belong to the current step', () => {
    const mfa: LoginStep = { name: 'mfa', challengeToken: 'm' };
    expect(loginTransition(mfa, { type: 'resetCodeSent', email: 'x@y.z' })).toBe(mfa);
    expect(loginTransition(signedOut, { type: 'registrationConfirmed', email: 'x@y.z' })).toBe(signedOut);
    const done: LoginStep = { name: 'signedIn' };
    expect(loginTransition(done, { type: 'backToSignIn' })).toBe(done);
    expect(loginTransition(mfa, { type: 'backToSignIn' })).toEqual(signedOut);
  });
});
