import { authContract, patientsContract, platformContract, userContract } from '@caredeck/contracts';
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n';
import { type MockHandler, type MockReply, mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser, pageOf } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const signedIn = { status: 'signedIn', access_token: 'access', expires_in: 900 };

function server(extra: Record<string, MockHandler | MockReply>) {
  return mockFetch({
    [on(authContract.refresh)]: { status: 401, body: { message: 'Unauthenticated.' } },
    [on(userContract.loginLog)]: { body: { id: 41 } },
    [on(userContract.me)]: { body: makeUser() },
    [on(platformContract.config)]: { body: CONFIG },
    [on(patientsContract.list, { programId: 1 })]: { body: pageOf([]) },
    ...extra,
  });
}

function location(router: ReturnType<typeof renderRoutes>['router']) {
  return `${router.state.location.pathname}${router.state.location.search}`;
}

async function signIn(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('the sign-in page', () => {
  it('signs in with the email lower-cased, records the login log and goes to the wanted page', async () => {
    const api = server({ [on(authContract.signIn)]: { body: signedIn } });
    const { router } = renderRoutes('/login?to=%2Fsettings');
    await signIn('  Ada@CareDeck.DEMO ', 'CareDeck-demo-2026');
    await waitFor(() => expect(location(router)).toBe('/settings'));
    expect(api.callsTo(on(authContract.signIn))[0]?.body).toEqual({
      email: 'ada@caredeck.demo',
      password: 'CareDeck-demo-2026',
    });
    expect(api.callsTo(on(userContract.loginLog))[0]?.headers.get('Authorization')).toBe('Bearer access');
    expect(localStorage.getItem('caredeck.loginLogId')).toBe('41');
  });

  it('validates before calling the server', async () => {
    const api = server({});
    renderRoutes('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter a valid email address.')).toBeInTheDocument();
    expect(api.callsTo(on(authContract.signIn))).toHaveLength(0);
  });

  it('shows a refused sign-in at the form, in the form’s words, and not as a toast', async () => {
    server({
      [on(authContract.signIn)]: { status: 401, body: { message: 'Incorrect username or password.' } },
    });
    const show = vi.spyOn(notifications, 'show');
    renderRoutes('/login');
    await signIn('ada@caredeck.demo', 'wrong');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Incorrect email or password.');
    // Inside the sign-in form, next to the fields it is about.
    expect(alert.closest('form')).toBe(screen.getByLabelText(/^Email/).closest('form'));
    expect(screen.queryByText('Incorrect username or password.')).toBeNull();
    expect(show).not.toHaveBeenCalled();
    expect(screen.getByTestId('login-step-signedOut')).toBeInTheDocument();
  });

  it('words the form’s error in the language chosen after it appeared', async () => {
    server({
      [on(authContract.signIn)]: { status: 401, body: { message: 'Incorrect username or password.' } },
    });
    renderRoutes('/login');
    await signIn('ada@caredeck.demo', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password.');
    await act(() => i18n.changeLanguage('de'));
    expect(screen.getByRole('alert')).toHaveTextContent('E-Mail-Adresse oder Passwort ist falsch.');
  });

  it('clears the error when the step changes, and on the next attempt', async () => {
    let refuse = true;
    server({
      [on(authContract.signIn)]: () =>
        refuse
          ? { status: 401, body: { message: 'Incorrect username or password.' } }
          : { body: { status: 'mfa', challenge_token: 'mfa-challenge' } },
      [on(authContract.mfa)]: {
        status: 422,
        body: { message: 'Invalid', errors: { code: ['Invalid code received for user.'] } },
      },
    });
    renderRoutes('/login');
    const user = await signIn('ada@caredeck.demo', 'wrong');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    // To the forgot-password step and back: the error stays with the attempt it was about.
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(await screen.findByTestId('login-step-forgotPassword')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Back to the sign-in form' }));
    expect(screen.queryByRole('alert')).toBeNull();

    refuse = false;
    await signIn('ada@caredeck.demo', 'right');
    expect(await screen.findByTestId('login-step-mfa')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(screen.getByLabelText(/^Authentication code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That code is not valid. Check it and try again.',
    );
    await user.click(screen.getByRole('button', { name: 'Back to the sign-in form' }));
    expect(await screen.findByTestId('login-step-signedOut')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so at the form when the two-factor step has expired', async () => {
    server({
      [on(authContract.signIn)]: { body: { status: 'mfa', challenge_token: 'old' } },
      [on(authContract.mfa)]: {
        status: 401,
        body: { message: 'Your sign-in session has expired. Please sign in again.' },
      },
    });
    renderRoutes('/login');
    const user = await signIn('ada@caredeck.demo', 'CareDeck-demo-2026');
    await user.type(await screen.findByLabelText(/^Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sign-in has expired. Go back to the sign-in form and start again.',
    );
  });

  it('shows a refused registration at the form, each field’s first message', async () => {
    server({
      [on(authContract.register)]: {
        status: 422,
        body: {
          message: 'Invalid',
          errors: { email: ['The email must be a valid email address.', 'Second.'] },
        },
      },
    });
    renderRoutes('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create an account' }));
    await user.type(await screen.findByLabelText(/^First name/), 'Grace');
    await user.type(screen.getByLabelText(/^Last name/), 'Hopper');
    await user.type(screen.getByLabelText(/^Email/), 'grace@example.org');
    await user.type(screen.getByLabelText(/^Password/), 'Compiler-1952');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Compiler-1952');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The email must be a valid email address.');
    expect(alert).not.toHaveTextContent('Second.');
    expect(screen.getByTestId('login-step-register')).toBeInTheDocument();
  });

  it('titles the tab after the step', async () => {
    server({});
    renderRoutes('/login');
    await waitFor(() => expect(document.title).toBe('Sign in · CareDeck'));
    await userEvent.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
    await waitFor(() => expect(document.title).toBe('Reset your password · CareDeck'));
  });

  it('shows a refused controller sign-in at the form', async () => {
    const show = vi.spyOn(notifications, 'show');
    mockFetch({
      [on(authContract.controllerSignIn)]: {
        status: 401,
        body: { message: 'Incorrect username or password.' },
      },
    });
    renderRoutes('/controller/login');
    await signIn('root@caredeck.demo', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password.');
    expect(show).not.toHaveBeenCalled();
    await waitFor(() => expect(document.title).toBe('Controller sign in · CareDeck'));
  });

  it('asks for HIPAA consent, and Accept completes the sign-in', async () => {
    const api = server({
      [on(authContract.signIn)]: { body: { status: 'hipaa', access_token: 'consent-only', expires_in: 900 } },
      [on(userContract.consentHipaa)]: { body: signedIn },
    });
    const { router } = renderRoutes('/login?to=%2Fpatients');
    const user = await signIn('ada@caredeck.demo', 'CareDeck-demo-2026');
    expect(await screen.findByRole('heading', { name: 'HIPAA consent' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(location(router)).toBe('/patients'));
    expect(api.callsTo(on(userContract.consentHipaa))[0]?.headers.get('Authorization')).toBe(
      'Bearer consent-only',
    );
    expect(api.callsTo(on(userContract.loginLog))[0]?.headers.get('Authorization')).toBe('Bearer access');
  });

  it('requires a new password whose confirmation matches', async () => {
    const api = server({
      [on(authContract.signIn)]: { body: { status: 'newPassword', challenge_token: 'challenge' } },
      [on(authContract.newPassword)]: { body: signedIn },
    });
    const { router } = renderRoutes('/login');
    const user = await signIn('ada@caredeck.demo', 'Temporary-1');
    await user.type(await screen.findByLabelText(/^New password/), 'Brand-new-pass-1');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Brand-new-pass-2');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Passwords do not match. Please try again.')).toBeInTheDocument();
    expect(api.callsTo(on(authContract.newPassword))).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Confirm password/));
    await user.type(screen.getByLabelText(/^Confirm password/), 'Brand-new-pass-1');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(location(router)).toBe('/patients'));
    expect(api.callsTo(on(authContract.newPassword))[0]?.body).toEqual({
      challenge_token: 'challenge',
      password: 'Brand-new-pass-1',
      password_confirmation: 'Brand-new-pass-1',
    });
  });

  it('asks for the 6-digit code of users with MFA', async () => {
    const api = server({
      [on(authContract.signIn)]: { body: { status: 'mfa', challenge_token: 'mfa-challenge' } },
      [on(authContract.mfa)]: { body: signedIn },
    });
    const { router } = renderRoutes('/login');
    const user = await signIn('ada@caredeck.demo', 'CareDeck-demo-2026');
    const code = await screen.findByLabelText(/^Authentication code/);
    await user.type(code, '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('The code must be 6 digits.')).toBeInTheDocument();
    await user.type(code, '6');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(location(router)).toBe('/patients'));
    expect(api.callsTo(on(authContract.mfa))[0]?.body).toEqual({
      challenge_token: 'mfa-challenge',
      code: '123456',
    });
  });

  it('turns an expired password into the reset flow with the 10-second toast', async () => {
    const api = server({
      [on(authContract.signIn)]: { status: 403, body: { message: 'password_expired' } },
      [on(authContract.forgotPassword)]: { body: { message: 'sent' } },
      [on(authContract.resetPassword)]: { body: { message: 'reset' } },
    });
    const show = vi.spyOn(notifications, 'show');
    renderRoutes('/login');
    const user = await signIn('Ada@caredeck.demo', 'Old-password-1');
    expect(await screen.findByText('Password Expired')).toBeInTheDocument();
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Password Expired', autoClose: 10_000 }),
    );
    expect(
      screen.getByText(
        'Your password automatically expires after 3 months, please reset your password to login',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('login-step-forgotPassword')).toBeInTheDocument();
    expect(await screen.findByLabelText(/^Email/)).toHaveValue('ada@caredeck.demo');

    await user.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect(await screen.findByTestId('login-step-forgotPasswordSubmit')).toBeInTheDocument();
    await screen.findByLabelText(/^Reset code/);
    await user.type(screen.getByLabelText(/^Reset code/), '654321');
    await user.type(screen.getByLabelText(/^New password/), 'Fresh-password-1');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Fresh-password-1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByTestId('login-step-signedOut')).toBeInTheDocument();
    expect(
      screen.getByText('Your password has been reset. Please sign in with your new password.'),
    ).toBeInTheDocument();
    expect(api.callsTo(on(authContract.resetPassword))[0]?.body).toEqual({
      email: 'ada@caredeck.demo',
      code: '654321',
      password: 'Fresh-password-1',
      password_confirmation: 'Fresh-password-1',
    });
  });

  it('registers, then confirms the registration with the emailed code', async () => {
    const api = server({
      [on(authContract.register)]: { body: { message: 'ok' } },
      [on(authContract.confirmRegistration)]: { body: { message: 'ok' } },
    });
    renderRoutes('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create an account' }));
    await user.type(await screen.findByLabelText(/^First name/), 'Grace');
    await user.type(screen.getByLabelText(/^Last name/), 'Hopper');
    await user.type(screen.getByLabelText(/^Email/), 'Grace@Example.org');
    await user.type(screen.getByLabelText(/^Password/), 'Compiler-1952');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Compiler-1953');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords do not match. Please try again.')).toBeInTheDocument();
    expect(api.callsTo(on(authContract.register))).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Confirm password/));
    await user.type(screen.getByLabelText(/^Confirm password/), 'Compiler-1952');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByTestId('login-step-confirmRegistration')).toBeInTheDocument();
    expect(api.callsTo(on(authContract.register))[0]?.body).toMatchObject({
      given_name: 'Grace',
      family_name: 'Hopper',
      email: 'grace@example.org',
    });
    await user.type(screen.getByLabelText(/^Confirmation code/), '111222');
    await user.click(screen.getByRole('button', { name: 'Confirm account' }));
    expect(await screen.findByTestId('login-step-signedOut')).toBeInTheDocument();
    expect(api.callsTo(on(authContract.confirmRegistration))[0]?.body).toEqual({
      email: 'grace@example.org',
      code: '111222',
    });
  });

  it('refuses to show the form to a signed-in user: "You are already logged in!" and away', async () => {
    server({});
    signInForTest();
    const { router } = renderRoutes('/login?to=%2Fsettings');
    await waitFor(() => expect(location(router)).toBe('/settings'));
    expect(await screen.findByText('You are already logged in!')).toBeInTheDocument();
  });

  it('links to the terms and privacy pages', async () => {
    server({});
    renderRoutes('/login');
    expect(await screen.findByRole('link', { name: 'Terms of use' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy');
  });
});
