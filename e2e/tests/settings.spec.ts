import { execFileSync } from 'node:child_process';
import { generateSync } from 'otplib';
import { expect, type Page, test } from './fixtures';
import { DEMO_PASSWORD, signIn, signOut } from './helpers';

// Each test has its own demo user: the language and the two-factor setting are saved to the account.

async function openSettings(page: Page, email: string): Promise<void> {
  await page.goto('/settings');
  await signIn(page, email);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('button', { name: 'Save profile' })).toBeVisible();
}

test.describe('settings (issue 2 §6)', () => {
  test('the theme switches to dark; the language to Deutsch, which survives a reload', async ({
    page,
    browser,
  }) => {
    await openSettings(page, 'pharma@caredeck.demo');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.getByRole('radio', { name: 'Dark', exact: true }).check();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(page.getByText('Your preferences have been saved.')).toBeVisible();

    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Patients' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Deutsch' });
    // The confirmation speaks the language just chosen.
    await expect(page.getByText('Ihre Einstellungen wurden gespeichert.')).toBeVisible();

    const navDe = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await expect(navDe.getByRole('link', { name: 'Patienten' })).toBeVisible();
    await expect(navDe.getByRole('link', { name: 'Einstellungen' })).toBeVisible();
    await expect(html).toHaveAttribute('lang', 'de');

    await page.reload();
    await expect(navDe.getByRole('link', { name: 'Patienten' })).toBeVisible();
    await expect(navDe.getByRole('link', { name: 'Einstellungen' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

    // Both are saved to the profile: a sign-in on another device (a fresh browser context) applies them.
    const other = await browser.newContext();
    try {
      const page2 = await other.newPage();
      await page2.goto('/login');
      await signIn(page2, 'pharma@caredeck.demo');
      const nav2 = page2.getByRole('navigation', { name: 'Hauptnavigation' });
      await expect(nav2.getByRole('link', { name: 'Patienten' })).toBeVisible();
      await expect(page2.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    } finally {
      await other.close();
    }
  });

  test('two-factor authentication: enrol by QR code, sign out, sign in with a code', async ({
    page,
    context,
  }, testInfo) => {
    await openSettings(page, 'pharmacy@caredeck.demo');
    const mfa = page.getByRole('region', { name: 'Two-factor authentication' });
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    // The key in groups of four, as apps show keys and people read them out.
    const grouped = (await page.getByTestId('mfa-secret').textContent())?.trim() ?? '';
    expect(grouped).toMatch(/^[A-Z2-7=]{1,4}( [A-Z2-7=]{1,4})*$/);
    const secret = grouped.replaceAll(' ', '');
    const link = page.getByTestId('mfa-otpauth-url');
    const otpauthUrl = (await link.getAttribute('href')) ?? '';
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(otpauthUrl).searchParams.get('secret')).toBe(secret);

    // The QR code is drawn in the page (no request leaves for it) and carries the otpauth link.
    const qr = mfa.getByRole('img', { name: 'QR code for setting up your authenticator app' });
    await expect(qr).toBeVisible();
    const png = testInfo.outputPath('mfa-qr.png');
    await qr.screenshot({ path: png });
    expect(execFileSync('/usr/bin/zbarimg', ['--raw', '-q', png], { encoding: 'utf8' }).trim()).toBe(
      otpauthUrl,
    );

    // The copy button puts the key, without its spaces, on the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await mfa.getByRole('button', { name: 'Copy key' }).click();
    await expect(mfa.getByRole('button', { name: 'Key copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // Enrol with the previous step's code (accepted within the tolerance): each code is good once, so the
    // current one stays unspent for the sign-in below.
    await mfa
      .getByLabel('Authentication code')
      .fill(generateSync({ secret, epoch: Math.floor(Date.now() / 1000) - 30 }));
    await mfa.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await expect(page.getByText('Two-factor authentication is now on.')).toBeVisible();
    await expect(page.getByText('Two-factor authentication is on for your account.')).toBeVisible();

    await signOut(page);
    await page.getByLabel('Email').fill('pharmacy@caredeck.demo');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('login-step-mfa')).toBeVisible();
    // A wrong code is refused: the current code shifted by half the code space.
    const valid = generateSync({ secret });
    const wrong = String((Number(valid) + 500_000) % 1_000_000).padStart(6, '0');
    await page.getByLabel('Authentication code').fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('auth-error')).toHaveText(
      'That code is not valid. Check it and try again.',
    );
    await expect(page.getByTestId('login-step-mfa')).toBeVisible();
    await page.getByLabel('Authentication code').fill(generateSync({ secret }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
  });
});
