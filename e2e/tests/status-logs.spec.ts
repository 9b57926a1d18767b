import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

// 02 §2 /status-logs (ADR 047): a status changed on the patient's record shows in the program's status log.

async function changeStatus(page: Page, to: string, reason?: string) {
  await page.getByRole('button', { name: 'Change status' }).click();
  await page.getByRole('menuitem', { name: to, exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (reason) await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill(reason);
  await dialog.getByRole('button', { name: 'Change status' }).click();
  await expect(page.getByText(`Status changed to ${to}`)).toBeVisible();
  await expect(page.getByTestId('patient-status')).toHaveText(to);
}

test.describe('status log', () => {
  test.use({ bypassCSP: true });

  test("a coordinator changes a patient's status, giving a reason, and finds both in the status log", async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/patients');
    // A patient further down the list, so the journeys that open the first ones meet them as they were.
    await page.getByTestId('patient-row').nth(6).getByRole('link').click();
    const name = (await page.getByTestId('patient-name').textContent())!.trim();
    const before = (await page.getByTestId('patient-status').textContent())!.trim();
    const after = before === 'Pending' ? 'Discharged' : 'Pending';
    const patientUrl = page.url();
    await changeStatus(page, after, 'Asked to pause monitoring while travelling');

    // The record's History tab says how and why too (ADR 052), and who made the change.
    await page.getByTestId('tab-history').click();
    const change = page.getByTestId('status-history-row').first();
    await expect(change).toContainText(after);
    await expect(change).toContainText('Single change');
    await expect(change).toContainText('Reason: Asked to pause monitoring while travelling');
    await expect(change).toContainText('by Carlos Diaz');
    await expect(page.getByTestId('status-history-row').last()).not.toContainText('Reason:');

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Status log' })
      .click();
    await expect(page).toHaveURL(/\/status-logs$/);
    await expect(page.getByRole('heading', { name: 'Status log' })).toBeVisible();
    await page.getByLabel('Patient (name or MRN)').fill(name);
    await expect(page).toHaveURL(/search=/);
    const row = page.getByTestId('status-log-row').first();
    await expect(row).toContainText(name);
    await expect(row).toContainText(`${before} to ${after}`);
    await expect(row).toContainText('Single change');
    await expect(row).toContainText('Reason: Asked to pause monitoring while travelling');
    await expect(row).toContainText('Carlos Diaz');
    await expectNoSeriousA11yViolations(page, '/status-logs');

    // Filters narrow the log: the new status keeps the row, another one leaves nothing of this patient.
    await page.getByRole('combobox', { name: 'New status' }).click();
    await page
      .getByRole('option', { name: before === 'Active' ? 'Inactive' : 'Active', exact: true })
      .click();
    await expect(page.getByText('No status changes match these filters.')).toBeVisible();
    await page.getByRole('combobox', { name: 'New status' }).click();
    await page.getByRole('option', { name: after, exact: true }).click();
    await expect(page.getByTestId('status-log-row').first()).toContainText(name);

    // The keyboard reaches the patient through the row's link.
    await page.getByTestId('status-log-row').first().getByRole('link', { name }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(patientUrl);
    await expect(page.getByTestId('patient-name')).toHaveText(name);
    // Leave the demo patient as it was for the other journeys.
    await changeStatus(page, before);
  });
});
