import { expect, type Page, test } from '@playwright/test';
import { generateSync } from 'otplib';
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
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Deutsch' }).click();

    const navDe = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await expect(navDe.getByRole('link', { name: 'Patienten' })).toBeVisible();
    await expect(navDe.getByRole('link', { name: 'Einstellungen' })).toBeVisible();
    await expect(html).toHaveAttribute('lang', 'de');

    await page.reload();
    await expect(navDe.getByRole('link', { name: 'Patienten' })).toBeVisible();
    await expect(navDe.getByRole('link', { name: 'Einstellungen' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Sprache' })).toHaveValue('Deutsch');
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

  test('two-factor authentication: enrol, sign out, sign in with a code', async ({ page }) => {
    await openSettings(page, 'pharmacy@caredeck.demo');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await page.getByTestId('mfa-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await expect(page.getByTestId('mfa-otpauth-url')).toContainText(`secret=${secret}`);

    const mfa = page.getByRole('region', { name: 'Two-factor authentication' });
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
    await expect(page.getByText('Invalid code received for user.')).toBeVisible();
    await expect(page.getByTestId('login-step-mfa')).toBeVisible();
    await page.getByLabel('Authentication code').fill(generateSync({ secret }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
  });
});
