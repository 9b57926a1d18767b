import { expect, test } from './fixtures';
import { openAs } from './helpers';

test('a coordinator adds a caregiver to a patient, unlinks and links them again', async ({ page }) => {
  await openAs(page, 'coordinator@caredeck.demo', '/patients');
  await page.getByTestId('patient-row').nth(2).getByRole('link').click();
  await expect(page).toHaveURL(/\/patient\/\d+$/);
  await page.getByTestId('tab-caregivers').click();

  const family = `Carer${Date.now().toString(36)}`;
  const panel = page.getByRole('tabpanel');
  // The required fields are checked before anything is sent.
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByText('This field is required.').first()).toBeVisible();

  await panel.getByLabel('First name').fill('Rosa');
  await panel.getByLabel('Last name').fill(family);
  await panel.getByRole('combobox', { name: 'Relationship' }).click();
  await page.getByRole('option', { name: 'Spouse' }).click();
  await panel.getByRole('textbox', { name: 'Phone' }).fill('(215) 555-0177');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Caregiver added')).toBeVisible();
  const linked = page.getByTestId('caregivers');
  await expect(linked).toContainText(`Rosa ${family}`);
  await expect(linked).toContainText('Spouse');

  // Unlinking asks first; Cancel leaves the link.
  await page.getByRole('button', { name: `Unlink Rosa ${family}` }).click();
  const confirm = page.getByRole('dialog', { name: `Unlink Rosa ${family}?` });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(linked).toContainText(`Rosa ${family}`);
  await page.getByRole('button', { name: `Unlink Rosa ${family}` }).click();
  await confirm.getByRole('button', { name: 'Unlink', exact: true }).click();
  await expect(page.getByText('Caregiver unlinked')).toBeVisible();
  // Other caregivers the demo links to this patient stay; Rosa is gone from the list.
  await expect(page.getByTestId('caregivers').filter({ hasText: `Rosa ${family}` })).toHaveCount(0);

  // Still a caregiver of the program: found by name and linked again.
  await panel.getByRole('combobox', { name: 'Link a caregiver' }).fill(family);
  await page.getByRole('option', { name: new RegExp(`Rosa ${family}`) }).click();
  await panel.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(page.getByText('Caregiver linked')).toBeVisible();
  await expect(page.getByTestId('caregivers')).toContainText(`Rosa ${family}`);
});
