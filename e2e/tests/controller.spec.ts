import { expect, type Page, test } from './fixtures';
import { DEMO_PASSWORD, signIn } from './helpers';

// The controller area has its own sign-in realm (01 §4): a staff session does not open it.

const CONTROLLER_LOGIN = /\/controller\/login\?to=%2Fcontroller$/;

async function controllerSignIn(page: Page, email: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Controller sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('controller area', () => {
  test('unauthenticated, /controller asks for the controller sign-in, which opens the area', async ({
    page,
  }) => {
    await page.goto('/controller');
    await expect(page).toHaveURL(CONTROLLER_LOGIN);
    await controllerSignIn(page, 'controller@caredeck.demo');
    await expect(page).toHaveURL(/\/controller$/);
    await expect(page.getByTestId('controller-name')).toHaveText('Signed in as Demo Controller');

    // Signed in, the controller sign-in page sends the controller back to the area.
    await page.goto('/controller/login');
    await expect(page).toHaveURL(/\/controller$/);
    await expect(page.getByTestId('controller-name')).toBeVisible();

    // A controller session is not a staff session.
    await page.goto('/patients');
    await expect(page).toHaveURL(/\/login\?to=%2Fpatients$/);
  });

  test('a staff session does not open /controller, and staff credentials do not sign in there', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, 'outsider@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();

    await page.goto('/controller');
    await expect(page).toHaveURL(CONTROLLER_LOGIN);
    await controllerSignIn(page, 'outsider@caredeck.demo');
    await expect(page.getByTestId('auth-error')).toHaveText('Incorrect email or password.');
    await expect(page).toHaveURL(CONTROLLER_LOGIN);
    await expect(page.getByTestId('controller-name')).toHaveCount(0);
  });
});
