import { expect, type Page, test } from './fixtures';
import { signIn, signOut } from './helpers';

// Where the user works (01 §4, issue 7 §1): one control, shown to those who have a choice, and the choice
// restored on the same user's next sign-in (01 §9).

async function choose(page: Page, option: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Working in' }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function signInAgain(page: Page, email: string): Promise<void> {
  await signOut(page);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/patients$/);
}

test.describe('the scope control', () => {
  test('an admin of two programs switches program; the choice is restored at the next sign-in', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, 'admin@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    const scope = page.getByRole('combobox', { name: 'Working in' });
    const total = page.getByTestId('patients-total');
    // The program with the product's default slug comes first.
    await expect(scope).toHaveValue('CareDeck Monitoring');
    // 240 demo patients, plus any the other journeys enrolled on this server.
    await expect(total).toHaveText(/^Total: 2[4-9]\d$/);

    await choose(page, 'Northwind Cardiology');
    await expect(scope).toHaveValue('Northwind Cardiology');
    await expect(total).toHaveText('Total: 45');

    await signInAgain(page, 'admin@caredeck.demo');
    await expect(scope).toHaveValue('Northwind Cardiology');
    await expect(total).toHaveText('Total: 45');
  });

  test('an enterprise admin starts on all programs of the enterprise, with a Program column, and can narrow to one', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, 'enterprise@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    const scope = page.getByRole('combobox', { name: 'Working in' });
    const total = page.getByTestId('patients-total');
    await expect(scope).toHaveValue('All programs of Northwind Health');
    await expect(page.getByRole('columnheader', { name: 'Program' })).toBeVisible();
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
    const both = Number((await total.textContent())?.replace(/\D/g, ''));

    await choose(page, 'CareDeck Monitoring');
    await expect(scope).toHaveValue('CareDeck Monitoring');
    // Both Northwind programs are Monitoring plus the 45 of Cardiology.
    await expect(total).toHaveText(`Total: ${both - 45}`);
    await expect(page.getByRole('columnheader', { name: 'Program' })).toHaveCount(0);

    await signInAgain(page, 'enterprise@caredeck.demo');
    await expect(scope).toHaveValue('CareDeck Monitoring');
  });

  test('a coordinator of one program has nothing to choose: the program is named, not offered', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, 'coordinator@caredeck.demo');
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('scope-current').first()).toHaveText('CareDeck Monitoring');
    await expect(page.getByRole('combobox', { name: 'Working in' })).toHaveCount(0);
  });
});
