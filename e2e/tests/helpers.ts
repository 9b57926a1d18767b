import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'CareDeck-demo-2026';

/** Fills the sign-in form and, when the server asks for it, accepts the HIPAA consent. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const accept = page.getByRole('button', { name: 'Accept' });
  const table = page.getByRole('table');
  await expect(accept.or(table).or(page.getByTestId('login-step-signedIn'))).toBeVisible();
  if (await accept.isVisible()) await accept.click();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}
