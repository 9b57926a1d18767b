import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signIn, signOut, uniqueEmail } from './helpers';

const SERVER_LOG = fileURLToPath(new URL('../test-results/server.log', import.meta.url));

/** The temporary password in the invitation mailed to `email` (the e2e server logs its mail). */
function invitationPassword(email: string): string | null {
  for (const line of readFileSync(SERVER_LOG, 'utf8').split('\n').reverse()) {
    if (!line.includes(email) || !line.includes('temporary password')) continue;
    const match = /temporary password (\S+) /.exec((JSON.parse(line) as { msg: string }).msg);
    if (match) return match[1]!;
  }
  return null;
}

test('an administrator adds a staff member, who signs in with the mailed temporary password and chooses their own', async ({
  page,
}) => {
  const email = uniqueEmail('staff');
  await page.goto('/admins');
  await signIn(page, 'admin@caredeck.demo');
  await expect(page).toHaveURL(/\/admins$/);
  await expect(page.getByTestId('staff-row').first()).toBeVisible();
  await page.getByRole('button', { name: 'Add staff member' }).click();
  await page.getByTestId('staff-email').fill(email);
  await page.getByTestId('staff-given').fill('Nora');
  await page.getByTestId('staff-family').fill('Newcomer');
  await page.getByTestId('staff-save').click();
  await expect(page.getByText('New user has successfully been created!')).toBeVisible();
  await expect(page.getByTestId('staff-row').filter({ hasText: 'Newcomer, Nora' })).toBeVisible();

  await expect.poll(() => invitationPassword(email), { timeout: 20_000 }).not.toBeNull();
  const temporary = invitationPassword(email)!;
  await signOut(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(temporary);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Confirm password')).toBeVisible();
});

test('a coordinator sets a patient-app password, the policy checked on the way', async ({ page }) => {
  await page.goto('/patients');
  await signIn(page, 'coordinator@caredeck.demo');
  await page.getByTestId('patient-row').first().getByRole('link').click();
  await expect(page).toHaveURL(/\/patient\/\d+$/);
  const id = /\/patient\/(\d+)/.exec(page.url())![1];
  await page.goto(`/patient/${id}/settings`);
  await page.getByTestId('app-password').fill('short');
  await page.getByTestId('app-password-confirm').fill('short');
  await page.getByTestId('app-password-save').click();
  await expect(page.getByText(/at least/).first()).toBeVisible();
  await page.getByTestId('app-password').fill('Patient-app-2026');
  await page.getByTestId('app-password-confirm').fill('Patient-app-2026');
  await page.getByTestId('app-password-save').click();
  await expect(page.getByText('Password updated')).toBeVisible();
});
