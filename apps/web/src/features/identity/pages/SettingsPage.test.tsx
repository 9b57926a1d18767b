import { platformContract, userContract } from '@caredeck/contracts';
import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { themePreference } from '../../../shared/ui/themePreference';
import { type MockHandler, type MockReply, mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';
import { qrPath } from '../components/settings/MfaQrCode';

function settingsServer(extra: Record<string, MockHandler | MockReply> = {}, user = makeUser()) {
  return mockFetch({
    [on(userContract.me)]: { body: user },
    [on(platformContract.config)]: { body: CONFIG },
    [on(userContract.updateProfile)]: (request) => ({ body: { ...user, ...(request.body as object) } }),
    ...extra,
  });
}

async function openSettings(
  extra?: Record<string, MockHandler | MockReply>,
  user?: ReturnType<typeof makeUser>,
) {
  const api = settingsServer(extra, user);
  signInForTest();
  renderRoutes('/settings');
  await screen.findByRole('heading', { name: 'Settings', level: 1 });
  return api;
}

describe('the settings page', () => {
  it('validates the profile before saving it', async () => {
    const api = await openSettings();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Given name/));
    await user.type(screen.getByLabelText(/^Phone number/), 'call me');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid phone number.')).toBeInTheDocument();
    expect(api.callsTo(on(userContract.updateProfile))).toHaveLength(0);
  });

  it('saves the trimmed profile', async () => {
    const api = await openSettings();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Given name/));
    await user.type(screen.getByLabelText(/^Given name/), '  Augusta ');
    await user.type(screen.getByLabelText(/^Title/), 'Analyst');
    await user.type(screen.getByLabelText(/^Phone number/), '+1 (555) 010-2030');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Your profile has been saved.')).toBeInTheDocument();
    expect(api.callsTo(on(userContract.updateProfile))[0]?.body).toEqual({
      given_name: 'Augusta',
      family_name: 'Admin',
      title: 'Analyst',
      about: null,
      phoneNumber: '+1 (555) 010-2030',
      tz: 'America/New_York',
    });
  });

  it('shows the server’s first message of each field when it refuses', async () => {
    await openSettings({
      [on(userContract.updateProfile)]: {
        status: 422,
        body: { message: 'Invalid', errors: { tz: ['The time zone is not a valid IANA zone.'] } },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    // Under the field, and as a toast.
    await waitFor(() =>
      expect(screen.getAllByText('The time zone is not a valid IANA zone.')).toHaveLength(2),
    );
    expect(screen.getByLabelText('Time zone', { selector: 'input' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a refused password change under the field the server names', async () => {
    const show = vi.spyOn(notifications, 'show');
    await openSettings({
      [on(userContract.changePassword)]: {
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: { current_password: ['The current password is incorrect.', 'Second message.'] },
        },
      },
    });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Current password/), 'Wrong-pass-2026');
    await user.type(screen.getByLabelText(/^New password/), 'Better-pass-2026');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Better-pass-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'true'));
    const describedBy = current.getAttribute('aria-describedby') ?? '';
    expect(describedBy).not.toBe('');
    expect(
      document.getElementById(describedBy.split(' ').find((id) => id.includes('error')) ?? ''),
    ).toHaveTextContent('The current password is incorrect.');
    expect(screen.getByLabelText(/^New password/)).not.toHaveAttribute('aria-invalid', 'true');
    expect(show).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ message: 'The current password is incorrect.', autoClose: 2_500 }),
    );
    expect(screen.queryByText('Second message.')).toBeNull();
  });

  it('applies and saves the theme at once', async () => {
    const api = await openSettings();
    await userEvent.click(screen.getByRole('radio', { name: 'Semi-dark' }));
    expect(themePreference.get()).toBe('semi-dark');
    await waitFor(() => expect(api.callsTo(on(userContract.updateProfile))).toHaveLength(1));
    expect(api.callsTo(on(userContract.updateProfile))[0]?.body).toEqual({
      given_name: 'Ada',
      family_name: 'Admin',
      theme: 'semi-dark',
    });
  });

  it('checks the new password and its confirmation before changing it', async () => {
    const api = await openSettings({ [on(userContract.changePassword)]: { body: { message: 'ok' } } });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Current password/), 'CareDeck-demo-2026');
    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText(/Use at least 10 characters/)).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match. Please try again.')).toBeInTheDocument();
    expect(api.callsTo(on(userContract.changePassword))).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'Better-pass-2026');
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Better-pass-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(api.callsTo(on(userContract.changePassword))[0]?.body).toEqual({
      current_password: 'CareDeck-demo-2026',
      password: 'Better-pass-2026',
      password_confirmation: 'Better-pass-2026',
    });
  });

  it('enrols in two-factor authentication: QR code, grouped key with a copy button, link, then the code', async () => {
    const otpauthUrl = 'otpauth://totp/CareDeck:ada?secret=JBSWY3DPEHPK3PXP&issuer=CareDeck';
    const api = await openSettings({
      [on(userContract.mfaSetup)]: { body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: otpauthUrl } },
      [on(userContract.mfaEnable)]: { body: { message: 'ok' } },
    });
    // user-event puts a clipboard of its own in place of the browser's.
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    // Drawn locally, once its code has loaded: an SVG of the link, no image from anywhere.
    const qr = await screen.findByRole('img', { name: 'QR code for setting up your authenticator app' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(qrPath(otpauthUrl).path);
    expect(screen.getByTestId('mfa-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe('JBSWY3DPEHPK3PXP');
    expect(await screen.findByRole('button', { name: 'Key copied' })).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Open the setup link in an authenticator app on this device' }),
    ).toHaveAttribute('href', otpauthUrl);

    await user.type(screen.getByLabelText(/^Authentication code/), '12');
    await user.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));
    expect(screen.getByText('The code must be 6 digits.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Authentication code/), '3456');
    await user.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));
    expect(await screen.findByText('Two-factor authentication is now on.')).toBeInTheDocument();
    expect(api.callsTo(on(userContract.mfaEnable))[0]?.body).toEqual({ code: '123456' });
  });

  it('abandons two-factor enrolment on cancel', async () => {
    const api = await openSettings({
      [on(userContract.mfaSetup)]: {
        body: {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauth_url: 'otpauth://totp/CareDeck:ada?secret=JBSWY3DPEHPK3PXP',
        },
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    await user.type(await screen.findByLabelText(/^Authentication code/), '123');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Set up two-factor authentication' })).toBeInTheDocument();
    expect(screen.queryByTestId('mfa-secret')).toBeNull();
    expect(screen.queryByLabelText(/^Authentication code/)).toBeNull();
    expect(api.callsTo(on(userContract.mfaEnable))).toHaveLength(0);
  });

  it('confirms a language change in the new language', async () => {
    await openSettings();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Deutsch');
    expect(await screen.findByText('Ihre Einstellungen wurden gespeichert.')).toBeInTheDocument();
    expect(screen.queryByText('Your preferences have been saved.')).toBeNull();
  });

  it('turns two-factor authentication off with a code', async () => {
    const api = await openSettings(
      { [on(userContract.mfaDisable)]: { body: { message: 'ok' } } },
      makeUser({ mfa_enabled: true }),
    );
    const user = userEvent.setup();
    expect(screen.getByText('Two-factor authentication is on for your account.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Authentication code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor authentication' }));
    await waitFor(() =>
      expect(api.callsTo(on(userContract.mfaDisable))[0]?.body).toEqual({ code: '654321' }),
    );
  });
});
