import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-client';
import { i18n } from '../../shared/i18n';
import { authFailureMessages } from './authFailure';

const t = i18n.getFixedT('en');

describe('auth failures in the words of the form', () => {
  it('says "email", not the identity provider’s "username", for a refused sign-in', () => {
    const refused = new ApiError(401, { message: 'Incorrect username or password.' });
    expect(authFailureMessages(refused, 'signIn', t)).toEqual(['Incorrect email or password.']);
    // On a step that carries a challenge, a 401 means the challenge ran out.
    expect(authFailureMessages(refused, 'challenge', t)).toEqual([
      'This sign-in has expired. Go back to the sign-in form and start again.',
    ]);
  });

  it('explains an unconfirmed account, a wrong code, and passes other field messages through', () => {
    expect(
      authFailureMessages(new ApiError(403, { message: 'User is not confirmed.' }), 'signIn', t),
    ).toEqual([
      'Your email address is not confirmed yet. Reset your password to confirm it with an emailed code.',
    ]);
    const invalid = new ApiError(422, {
      message: 'Invalid',
      errors: {
        code: ['Invalid verification code provided, please try again.'],
        password: ['Too short.', 'x'],
      },
    });
    expect(authFailureMessages(invalid, 'emailed', t)).toEqual([
      'That code is not valid. Check it and try again.',
      'Too short.',
    ]);
  });

  it('uses the shared texts for no answer, rate limits and server errors', () => {
    expect(authFailureMessages(new ApiError(0, null), 'signIn', t)).toEqual([
      'The server could not be reached. Check your connection and try again.',
    ]);
    expect(authFailureMessages(new ApiError(429, { message: 'Too Many Requests' }), 'emailed', t)).toEqual([
      'Too many attempts. Please wait a moment and try again.',
    ]);
    expect(authFailureMessages(new Error('boom'), 'signIn', t)).toEqual([
      'Something unexpected happened. Please try again.',
    ]);
  });
});
