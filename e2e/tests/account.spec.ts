import { expect, type Page, test } from './fixtures';
import { NEW_PASSWORD, nextCode, registerConfirmedUser, signIn, uniqueEmail } from './helpers';

const MISMATCH = 'Passwords do not match. Please try again.';

/** A password field by its whole label (without its required star): 'Password' alone also matches 'Confirm password'. */
function passwordField(page: Page, label: string) {
  return page.getByLabel(new RegExp(`^${label}( \\*)?$`));
}

/** Accepts the HIPAA step the first sign-in of a new account shows and waits for the console. */
async function acceptHipaa(page: Page): Promise<void> {
  await expect(page.getByTestId('login-step-hipaa')).toBeVisible();
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page).toHaveURL(/\/patients$/);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
}

test.describe('registration (01 §4, §5)', () => {
  test('a new user registers, confirms with the e-mailed code and signs in', async ({ page }) => {
    const email = uniqueEmail('register');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await expect(page.getByTestId('login-step-register')).toBeVisible();
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Register');
    // Upper case and surrounding spaces: the address is trimmed and lower-cased before sign-up (01 §5).
    await page.getByLabel('Email').fill(`  ${email.toUpperCase()}  `);
    await passwordField(page, 'Password').fill(NEW_PASSWORD);
    await passwordField(page, 'Confirm password').fill(NEW_PASSWORD);

    const code = await nextCode(email, () => page.getByRole('button', { name: 'Create account' }).click());
    await expect(page.getByTestId('login-step-confirmRegistration')).toBeVisible();
    await expect(page.getByText(`We sent a 6-digit confirmation code to ${email}.`)).toBeVisible();
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm account' }).click();

    await expect(page.getByText('Your account is confirmed. You can now sign in.')).toBeVisible();
    await expect(page.getByTestId('login-step-signedOut')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await passwordField(page, 'Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await acceptHipaa(page);

    // The new account belongs to no program: the scope control says so and the list has nothing to show.
    await expect(page.getByTestId('scope-current').first()).toHaveText('No program available');
    // Nothing to load is not a failure: the list's empty state, not its error state (DESIGN §6).
    await expect(page.getByTestId('patients-empty')).toBeVisible();
    await expect(page.getByTestId('patient-row')).toHaveCount(0);
    await expect(
      page.getByRole('alert').filter({ hasText: 'The patients could not be loaded.' }),
    ).toHaveCount(0);
  });

  test('a mismatched confirmation is refused with the spec message', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('First name').fill('Morgan');
    await page.getByLabel('Last name').fill('Mismatch');
    await page.getByLabel('Email').fill(uniqueEmail('mismatch'));
    await passwordField(page, 'Password').fill(NEW_PASSWORD);
    await passwordField(page, 'Confirm password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText(MISMATCH)).toBeVisible();
    await expect(page.getByTestId('login-step-register')).toBeVisible();
  });
});

test.describe('forgotten password (01 §4, 02 §4)', () => {
  test('forgot password → e-mailed code → new password → sign in with it', async ({ page, request }) => {
    const email = await registerConfirmedUser(request, 'forgot');
    const newPassword = 'Second-Start-2026';
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByTestId('login-step-forgotPassword')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);

    const code = await nextCode(email, () => page.getByRole('button', { name: 'Send reset code' }).click());
    await expect(page.getByTestId('login-step-forgotPasswordSubmit')).toBeVisible();
    await page.getByLabel('Reset code').fill(code);
    await passwordField(page, 'New password').fill(newPassword);
    // A mismatched confirmation is refused here too.
    await passwordField(page, 'Confirm password').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByText(MISMATCH)).toBeVisible();
    await passwordField(page, 'Confirm password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();

    await expect(
      page.getByText('Your password has been reset. Please sign in with your new password.'),
    ).toBeVisible();
    await expect(page.getByTestId('login-step-signedOut')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);

    // The old password no longer works; the new one does.
    await passwordField(page, 'Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('auth-error')).toHaveText('Incorrect email or password.');
    await passwordField(page, 'Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await acceptHipaa(page);
  });
});

test.describe('an open session (01 §5)', () => {
  test("'You are already logged in!' when a signed-in user opens /login", async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'outsider@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();

    await page.goto('/login');
    await expect(page.getByText('You are already logged in!')).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
  });
});
