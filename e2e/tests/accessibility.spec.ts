import { expect, test } from '@playwright/test';
import {
  DEMO_PASSWORD,
  expectNoSeriousA11yViolations,
  NEW_PASSWORD,
  registerConfirmedUser,
  signIn,
} from './helpers';

// DESIGN §6: every input labelled, keyboard reachable, axe checks in the e2e suite. WCAG 2 A and AA rules;
// a serious or critical violation fails the test with its selectors.
test.describe('accessibility (axe, WCAG 2 A/AA)', () => {
  // The console's Content-Security-Policy (script-src 'self') would refuse the injected axe script.
  test.use({ bypassCSP: true });

  test('the sign-in page', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByTestId('login-step-signedOut')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expectNoSeriousA11yViolations(page, '/login');
  });

  test('the HIPAA consent step', async ({ page, request }) => {
    // A fresh account: it has certainly not consented yet, whatever ran before.
    const email = await registerConfirmedUser(request, 'a11y-hipaa');
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('login-step-hipaa')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accept' })).toBeEnabled();
    await expectNoSeriousA11yViolations(page, 'the HIPAA consent step of /login');
  });

  test('the patients list and the settings page', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'physician@caredeck.demo', DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row')).toHaveCount(10);
    await expectNoSeriousA11yViolations(page, '/patients');

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('button', { name: 'Save profile' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/settings');
  });

  test('the terms page', async ({ page }) => {
    await page.goto('/terms');
    await expect(page.getByRole('heading', { name: 'Terms of use' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/terms');
  });
});
