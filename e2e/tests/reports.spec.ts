import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs, signOut } from './helpers';

test.describe('reports', () => {
  test.use({ bypassCSP: true });

  test('a coordinator requests a CSV report, downloads it when ready, and pauses a recurring one', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/reports');
    await expect(page.getByRole('heading', { name: 'Reports', exact: true })).toBeVisible();
    // The demo's reports were made by the background runner at start.
    const roster = page.getByTestId('report-row').filter({ hasText: 'Patient roster' });
    await expect(roster.getByText('Ready')).toBeVisible({ timeout: 20_000 });
    await expectNoSeriousA11yViolations(page, '/reports');

    await page.getByRole('button', { name: 'New report' }).click();
    const dialog = page.getByRole('dialog', { name: 'New report' });
    await dialog.getByRole('combobox', { name: 'Report type' }).click();
    await page.getByRole('option', { name: 'Readings summary' }).click();
    await dialog.getByLabel('Name').fill('Readings for the board');
    await dialog.getByText('CSV', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Request report' }).click();
    await expect(page.getByText('Report Requested')).toBeVisible();
    const row = page.getByTestId('report-row').filter({ hasText: 'Readings for the board' });
    // The list refreshes itself while the report is made.
    await expect(row.getByText('Ready')).toBeVisible({ timeout: 20_000 });
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Download the newest file of Readings for the board' }).click();
    expect((await download).suggestedFilename()).toMatch(
      /^readings_summary_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.csv$/,
    );

    await page.getByRole('button', { name: 'New report' }).click();
    await dialog.getByRole('combobox', { name: 'Report type' }).click();
    await page.getByRole('option', { name: 'Alerts summary' }).click();
    await dialog.getByLabel('Name').fill('Alerts every week');
    await dialog.getByRole('combobox', { name: 'Repeat' }).click();
    await page.getByRole('option', { name: 'Every week' }).click();
    await dialog.getByRole('button', { name: 'Request report' }).click();
    const weekly = page.getByTestId('report-row').filter({ hasText: 'Alerts every week' });
    await expect(weekly.getByText(/^next /)).toBeVisible();
    await weekly.getByRole('button', { name: 'Recurrence of Alerts every week' }).click();
    await page.getByRole('menuitem', { name: 'Pause recurrence' }).click();
    await expect(page.getByText('Report Recurrence Paused')).toBeVisible();
    await expect(weekly.getByText('Paused')).toBeVisible();
  });

  test('patient reports: the patients CSV and one patient’s PDF, generated in the background', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/patients/reports');
    await expect(page.getByRole('heading', { name: 'Patient reports' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/patients/reports');
    await page.getByRole('button', { name: 'Generate CSV' }).click();
    await expect(page.getByText('Patients CSV Generation Started')).toBeVisible();
    await expect(page.getByTestId('csv-state')).toHaveText(/Ready: \d+ patients?/, { timeout: 20_000 });
    const csv = page.waitForEvent('download');
    await page
      .getByTestId('csv-state')
      .locator('xpath=../..')
      .getByRole('button', { name: 'Download' })
      .click();
    expect((await csv).suggestedFilename()).toMatch(/^patients_.*_report\.csv$/);

    const patient = page.getByRole('combobox', { name: 'Patient', exact: true });
    await patient.click();
    await page.getByRole('option').first().click();
    await expect(page).toHaveURL(/\?patient=\d+/);
    await page.getByRole('button', { name: 'Patient report (PDF)' }).last().click();
    await expect(page.getByText('Patient Report Requested')).toBeVisible();
    const rows = page.getByTestId('patient-reports').last().getByTestId('patient-report-row');
    await expect(rows.first().getByText('Ready')).toBeVisible({ timeout: 20_000 });
    const pdf = page.waitForEvent('download');
    await rows
      .first()
      .getByRole('button', { name: /^Download patient_\d+_.*\.pdf$/ })
      .click();
    expect((await pdf).suggestedFilename()).toMatch(/\.pdf$/);
    await signOut(page);
  });

  test('pharma staff see per-medication reports only', async ({ page }) => {
    await openAs(page, 'pharma@caredeck.demo', '/pharma-reports');
    await expect(page.getByRole('heading', { name: 'Pharma reports' })).toBeVisible();
    const row = page.getByTestId('report-row').filter({ hasText: 'Adherence by medication' });
    await expect(row.getByText('Ready')).toBeVisible({ timeout: 20_000 });
    await expectNoSeriousA11yViolations(page, '/pharma-reports');
    // Care reports (with patients) are not theirs.
    await page.goto('/reports');
    await expect(page).toHaveURL(/\/error\/not-authorized/);
  });
});
