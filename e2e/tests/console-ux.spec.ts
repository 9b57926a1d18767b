import { expect, test } from './fixtures';
import { DEMO_PASSWORD, signIn } from './helpers';

// Issue 5 §7: what a new user tripped over in the console.
test.describe('console basics a new user meets', () => {
  test('a refused sign-in is told at the form, in its words, and gone on the next step', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Sign in · CareDeck');
    await page.getByLabel('Email').fill('coordinator@caredeck.demo');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();

    const form = page.locator('form').filter({ has: page.getByLabel('Email') });
    await expect(form.getByRole('alert')).toHaveText('Incorrect email or password.');
    // Not the identity provider's 'username', and no toast in the corner.
    await expect(page.getByText('Incorrect username or password.')).toHaveCount(0);
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);

    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByTestId('login-step-forgotPassword')).toBeVisible();
    await expect(page).toHaveTitle('Reset your password · CareDeck');
    await expect(page.getByTestId('auth-error')).toHaveCount(0);
  });

  test('each screen has its own tab title', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'coordinator@caredeck.demo', DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page).toHaveTitle('Patients · CareDeck');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await expect(page).toHaveTitle('Settings · CareDeck');
    await page.goto('/terms');
    await expect(page).toHaveTitle('Terms of use · CareDeck');
  });

  test('an unknown URL still goes to the root, and a toast says the page did not exist', async ({ page }) => {
    await page.goto('/no-such-page');
    // Signed out: the root's /patients sends on to sign-in.
    await expect(page).toHaveURL(/\/login\?to=%2Fpatients$/);
    const toast = page.locator('.mantine-Notification-root');
    await expect(toast).toContainText('Page not found');
    await expect(toast).toContainText('There is no page at /no-such-page.');
  });
});
