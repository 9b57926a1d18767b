import { expect, test } from './fixtures';
import { signIn, signOut } from './helpers';

test.describe('sign-in to the patients list', () => {
  test('a new user signs in, consents, finds patients, searches and signs out', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?to=%2Fpatients$/);

    await page.getByLabel('Email').fill('Admin@CareDeck.demo');
    await page.getByLabel('Password').fill('CareDeck-demo-2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Demo users have not given HIPAA consent yet.
    await page.getByRole('button', { name: 'Accept' }).click();

    await expect(page).toHaveURL(/\/patients$/);
    const rows = page.getByTestId('patient-row');
    await expect(rows).toHaveCount(10);
    // The 240 demo patients (and any patient another journey enrolled on this server).
    await expect(page.getByTestId('patients-total')).toHaveText(/Total: 2[4-9]\d/);
    const allPatients = (await page.getByTestId('patients-total').textContent()) ?? '';

    // Search for the last name of the first row: the list narrows to matching patients.
    const firstRow = (await rows.first().textContent()) ?? '';
    const lastName = firstRow.split(/[\s,]+/).find((w) => w.length > 2) ?? firstRow.slice(0, 4);
    await page.getByLabel('Search patients').fill(lastName);
    await expect(page.getByTestId('patients-total')).not.toHaveText(allPatients);
    const narrowed = await rows.count();
    expect(narrowed).toBeGreaterThan(0);
    for (let i = 0; i < narrowed; i++)
      await expect(rows.nth(i)).toContainText(lastName, { ignoreCase: true });

    await signOut(page);
    await page.goto('/patients');
    await expect(page).toHaveURL(/\/login\?to=%2Fpatients$/);
  });

  test('after sign-in the user lands on the page they asked for', async ({ page }) => {
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/login\?to=%2Fsettings$/);
    await signIn(page, 'physician@caredeck.demo');
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('button', { name: 'Save profile' })).toBeVisible();
  });

  test('an unknown path lands on the patients list', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'coordinator@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
  });

  test('a wrong password is told at the form and stays on the sign-in page', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('admin@caredeck.demo');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('auth-error')).toHaveText('Incorrect email or password.');
    await expect(page).toHaveURL(/\/login/);
  });

  test('staff of another enterprise see only their own program', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'outsider@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patients-total')).toContainText('30');
  });

  test('the guest messenger without its ids is not authorised', async ({ page }) => {
    await page.goto('/guest/messenger');
    await expect(page).toHaveURL(/\/error\/not-authorized$/);
  });
});

test.describe('session end', () => {
  test('inactivity signs the user out', async ({ page }) => {
    await page.clock.install();
    await page.goto('/login');
    await signIn(page, 'enterprise@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
    await page.clock.fastForward('16:00');
    await expect(page).toHaveURL(/\/login/, { timeout: 20_000 });
  });
});
