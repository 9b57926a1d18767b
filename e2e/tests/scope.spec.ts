import { expect, type Page, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

// The active program and enterprise (01 §4) and their restoration on the same user's next sign-in (01 §9).

async function choose(page: Page, select: 'Program' | 'Enterprise', option: string): Promise<void> {
  await page.getByRole('combobox', { name: select }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function signInAgain(page: Page, email: string): Promise<void> {
  await signOut(page);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/patients$/);
}

test.describe('program and enterprise switcher', () => {
  test('an admin of two programs switches program; the choice is restored at the next sign-in', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, 'admin@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    const program = page.getByRole('combobox', { name: 'Program' });
    const total = page.getByTestId('patients-total');
    // The program with the product's default slug comes first.
    await expect(program).toHaveValue('CareDeck Monitoring');
    // 240 demo patients, plus any the other journeys enrolled on this server.
    await expect(total).toHaveText(/^Total: 2[4-9]\d$/);

    await choose(page, 'Program', 'Northwind Cardiology');
    await expect(program).toHaveValue('Northwind Cardiology');
    await expect(total).toHaveText('Total: 45');

    await signInAgain(page, 'admin@caredeck.demo');
    await expect(program).toHaveValue('Northwind Cardiology');
    await expect(total).toHaveText('Total: 45');
  });

  test('an enterprise admin switches to enterprise scope; it is restored at the next sign-in', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, 'enterprise@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    const enterprise = page.getByRole('combobox', { name: 'Enterprise' });
    const total = page.getByTestId('patients-total');
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
    // The program scope first (CareDeck Monitoring: 240 demo patients plus any the journeys enrolled).
    await expect(total).toHaveText(/^Total: \d+$/);
    const monitoring = Number((await total.textContent())?.replace(/\D/g, ''));

    await choose(page, 'Enterprise', 'Northwind Health');
    await expect(enterprise).toHaveValue('Northwind Health');
    // Both Northwind programs: Monitoring + the 45 of Cardiology.
    const both = `Total: ${monitoring + 45}`;
    await expect(total).toHaveText(both);
    await expect(page.getByRole('combobox', { name: 'Program' })).toHaveAttribute(
      'placeholder',
      'Enterprise scope: all programs of Northwind Health',
    );

    await signInAgain(page, 'enterprise@caredeck.demo');
    await expect(enterprise).toHaveValue('Northwind Health');
    await expect(total).toHaveText(both);
  });
});
