import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

test.describe('bulk actions', () => {
  test.use({ bypassCSP: true });

  test('an enterprise administrator proposes a billing status for two patients, approves it, and reads each outcome', async ({
    page,
  }) => {
    await openAs(page, 'enterprise@caredeck.demo', '/bulk-events');
    await expect(page.getByRole('heading', { name: 'Bulk actions' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/bulk-events');
    await page.getByRole('button', { name: 'New bulk action' }).click();
    const dialog = page.getByRole('dialog', { name: 'New bulk action' });
    // Nothing chosen: the form says what is missing.
    await dialog.getByRole('button', { name: 'Propose bulk action' }).click();
    await expect(dialog.getByText('Choose at least one patient.')).toBeVisible();

    await dialog.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Set the billing status' }).click();
    await dialog.getByRole('combobox', { name: 'New billing status' }).click();
    await page.getByRole('option', { name: 'On hold' }).click();
    const patients = dialog.getByRole('combobox', { name: 'Patients' });
    await patients.click();
    await page.getByRole('option').first().click();
    await page.getByRole('option', { selected: false }).first().click();
    await page.keyboard.press('Escape');
    await dialog.getByLabel('Note for the approver (optional)').fill('Both in hospital this week');
    await dialog.getByRole('button', { name: 'Propose bulk action' }).click();
    await expect(page.getByText('Bulk Action Created')).toBeVisible();

    // The new job opens: waiting, then approved after a confirmation.
    const drawer = page.getByRole('dialog', { name: 'Bulk action' });
    await expect(drawer.getByText('Set billing status to On hold')).toBeVisible();
    await expect(drawer.getByText('Waiting for approval')).toBeVisible();
    await drawer.getByTestId('bulk-approve').click();
    await page
      .getByRole('dialog', { name: 'Approve this bulk action?' })
      .getByRole('button', { name: 'Approve and run' })
      .click();
    await expect(page.getByText('Bulk Action Approved')).toBeVisible();
    await expect(drawer.getByText('2 patients · 2 done · 0 failed')).toBeVisible();
    await expect(drawer.getByTestId('bulk-action-patients').getByText('Done')).toHaveCount(2);
  });

  test('patients selected in the worklist become a bulk action proposal', async ({ page }) => {
    await openAs(page, 'enterprise@caredeck.demo', '/patients');
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
    const rows = page.getByTestId('patient-row');
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await expect(page.getByTestId('bulk-bar')).toContainText('2 selected');
    await page.getByTestId('bulk-propose').click();
    await expect(page).toHaveURL(/\/bulk-events$/);
    const dialog = page.getByRole('dialog', { name: 'New bulk action' });
    await expect(dialog).toBeVisible();
    // Both patients are chosen already (pills of the patient picker).
    const picker = dialog
      .getByRole('combobox', { name: 'Patients' })
      .locator('xpath=ancestor::div[contains(@class,"mantine-MultiSelect-root")]');
    await expect(picker.locator('.mantine-Pill-root')).toHaveCount(2);
    // A reload does not open the proposal again.
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Bulk actions' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'New bulk action' })).toHaveCount(0);
  });
});
