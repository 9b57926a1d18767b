import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, sentMails, signIn, signOut, uniqueEmail } from './helpers';

/** The temporary password in the last invitation mailed to `email` (the e2e server writes its mail to files). */
function invitationPassword(email: string): string | null {
  for (const mail of sentMails().reverse()) {
    if (mail.to !== email) continue;
    const match = /temporary password (\S+) /.exec(mail.text);
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

test.describe('staff accounts', () => {
  test.use({ bypassCSP: true });

  test('an administrator changes a member’s roles and disables the account, which can no longer sign in', async ({
    page,
  }) => {
    const email = uniqueEmail('disable');
    await page.goto('/admins');
    await signIn(page, 'admin@caredeck.demo');
    await page.getByRole('button', { name: 'Add staff member' }).click();
    await page.getByTestId('staff-email').fill(email);
    await page.getByTestId('staff-given').fill('Dana');
    await page.getByTestId('staff-family').fill('Leaving');
    await page.getByTestId('staff-save').click();
    await expect(page.getByText('New user has successfully been created!')).toBeVisible();
    await expect.poll(() => invitationPassword(email), { timeout: 20_000 }).not.toBeNull();

    await page.getByRole('button', { name: 'Leaving, Dana' }).click();
    const drawer = page.getByTestId('staff-drawer');
    await expect(drawer.getByText(email)).toBeVisible();
    await drawer.getByRole('checkbox', { name: 'Physician' }).check();
    await drawer.getByTestId('staff-roles-save').click();
    await expect(page.getByText('Admin Updated').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the staff drawer');

    await drawer.getByTestId('staff-toggle').click();
    const confirm = page.getByRole('dialog', { name: 'Disable account' });
    await confirm.getByRole('button', { name: 'Disable account' }).click();
    await expect(drawer.getByText('Disabled')).toBeVisible();
    await page.keyboard.press('Escape');
    await page.locator('.mantine-SegmentedControl-label', { hasText: 'Disabled' }).click();
    await expect(page.getByTestId('staff-row').filter({ hasText: 'Leaving, Dana' })).toBeVisible();

    await signOut(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(invitationPassword(email)!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' })).toBeVisible();
  });
});

test.describe('programs management', () => {
  test.use({ bypassCSP: true });

  test('an enterprise administrator creates a program with a logo, edits it and reads the history', async ({
    page,
  }) => {
    const name = `Northwind Renal ${Date.now().toString(36)}`;
    await page.goto('/programs-management');
    await signIn(page, 'enterprise@caredeck.demo');
    await expect(page.getByRole('heading', { name: 'Programs' })).toBeVisible();
    await expect(page.getByText('Northwind Health').first()).toBeVisible();
    await expect(page.getByTestId('program-row').first()).toBeVisible();

    await page.getByRole('button', { name: 'New program' }).click();
    const dialog = page.getByRole('dialog', { name: 'New program' });
    await dialog.getByTestId('program-save').click();
    await expect(dialog.getByText('This field is required.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PNG_BASE64, 'base64') });
    await expect(dialog.getByRole('img', { name: 'Logo' })).toBeVisible();
    await dialog.getByTestId('program-save').click();
    await expect(page.getByText('Program Created', { exact: true })).toBeVisible();
    const row = page.getByTestId('program-row').filter({ hasText: name });
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit program' });
    await expect(edit.getByRole('img', { name: 'Logo' })).toBeVisible();
    await edit.getByRole('checkbox', { name: 'Billing' }).uncheck();
    await edit.getByTestId('program-save').click();
    await expect(page.getByText('Program Updated', { exact: true })).toBeVisible();
    await expect(page.getByText('Program created').first()).toBeVisible();
    await expect(page.getByText('Program changed').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/programs-management');
  });
});

// A 1×1 PNG.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
