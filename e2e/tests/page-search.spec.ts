import { expect, type Page, test } from './fixtures';
import { openAs } from './helpers';

// The page search of 01 §2 as a command palette (Ctrl/⌘ + K) with starred pages (issue 2 §6).

function searchBox(page: Page) {
  return page.getByRole('textbox', { name: 'Search pages' });
}

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await expect(searchBox(page)).toBeVisible();
  await expect(searchBox(page)).toBeFocused();
}

test.describe('page search', () => {
  test.beforeEach(async ({ page }) => {
    await openAs(page, 'physician@caredeck.demo', '/');
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
  });

  test('Ctrl+K opens the palette; typing a page name and Enter opens that page', async ({ page }) => {
    await openPalette(page);
    await searchBox(page).fill('Settings');
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('button', { name: 'Save profile' })).toBeVisible();
    await expect(searchBox(page)).toBeHidden();
  });

  test('a starred page is listed under Starred pages, also after a reload', async ({ page }) => {
    await openPalette(page);
    const starred = page.getByRole('group', { name: 'Starred pages' });
    await expect(starred).toHaveCount(0);
    await page.getByRole('button', { name: 'Star Settings' }).click();
    await expect(starred.getByText('Settings', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove the star from Settings' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.keyboard.press('Escape');
    await expect(searchBox(page)).toBeHidden();

    await page.reload();
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
    // The navbar shows a shortcut to the starred page.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Settings' })).toBeVisible();
    await openPalette(page);
    await expect(starred.getByText('Settings', { exact: true })).toBeVisible();
    await expect(
      page.getByRole('group', { name: 'Pages' }).getByText('Patients', { exact: true }),
    ).toBeVisible();
  });
});
