import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

test.describe('billing evidence under the 2026 rules (issue 30)', () => {
  test.use({ bypassCSP: true });

  test('a coordinator opens the evidence view and reads which device days and time earned the codes', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/billings');
    await expect(page).toHaveURL(/\/billings$/);
    await page.getByRole('link', { name: 'Codes with their evidence under the 2026 rules' }).click();
    await expect(page).toHaveURL(/\/billings\?view=evidence$/);
    await expect(page.getByRole('heading', { name: 'Billing evidence (2026 rules)' })).toBeVisible();

    const table = page.getByTestId('billing-periods-table');
    await expect(table.getByTestId('billing-period-row').first()).toBeVisible();
    // Time is minutes:seconds, never a rounded figure.
    for (const shown of await table.getByTestId('billing-time-shown').allTextContents())
      expect(shown).toMatch(/^\d+:\d\d$/);

    // A demo patient with a cuff: its device days are the evidence of its device code.
    const monitored = table
      .getByTestId('billing-period-row')
      .filter({ hasText: /\d+ device days/ })
      .first();
    await expect(monitored).toBeVisible();
    const toggle = monitored.getByRole('button');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const evidence = page.getByTestId('billing-evidence');
    await expect(evidence.getByRole('heading', { name: 'Device days' })).toBeVisible();
    const days = Number((await monitored.textContent())?.match(/(\d+) device days/)?.[1]);
    if (days > 0)
      await expect(evidence.getByTestId('evidence-dates').getByRole('listitem')).toHaveCount(days);
    await expectNoSeriousA11yViolations(page, '/billings?view=evidence');

    // Back to the report.
    await page.getByRole('link', { name: 'Back to the billing report' }).click();
    await expect(page).toHaveURL(/\/billings$/);
  });

  test('a coordinator filters the evidence by status and code; the URL keeps the filters through reload and back', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/billings?view=evidence');
    await expect(page.getByRole('heading', { name: 'Billing evidence (2026 rules)' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Earns nothing yet' }).click();
    await expect(page).toHaveURL(/status=not_earning/);
    await page.getByRole('combobox', { name: 'Code earned' }).click();
    await page.getByRole('option', { name: '99454' }).click();
    await expect(page).toHaveURL(/code=99454/);
    // Earning 99454 and earning nothing cannot both hold: the empty state says the filters matched nothing.
    await expect(page.getByTestId('billing-periods-empty')).toHaveText('No patient matches these filters.');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Code earned' })).toHaveValue('99454');
    await expect(page.getByTestId('billing-periods-empty')).toHaveText('No patient matches these filters.');
    await expectNoSeriousA11yViolations(page, '/billings?view=evidence&status=not_earning&code=99454');
    await page.goBack();
    await expect(page).not.toHaveURL(/code=/);
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Earns nothing yet');
    await expect(
      page.getByTestId('billing-periods-table').or(page.getByTestId('billing-periods-empty')),
    ).toBeVisible();
    await page.getByText('Assigned to me', { exact: true }).click();
    await expect(page).toHaveURL(/mine=1/);
    await expect(page.getByRole('checkbox', { name: 'Assigned to me' })).toBeChecked();

    // The export takes the filters on screen: a CSV whose header a billing team maps.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^billing_periods_[\d_]+\.csv$/);
    const text = await readFile((await file.path()) ?? '', 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'MRN,Last name,First name,Period start,Period end,Device days,Device code,Month start,Month end,RPM time,CCM time,Physician time,Codes earned,Units,Rendering provider,Assigned staff,ICD-10',
    );
  });

  test('a coordinator opens the at-risk worklist: who will miss the next code, with what is still needed', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/billings');
    await page.getByRole('link', { name: 'Patients at risk of missing a code' }).click();
    await expect(page).toHaveURL(/\/billings\?view=at-risk$/);
    await expect(page.getByRole('heading', { name: 'At risk this period' })).toBeVisible();
    const table = page.getByTestId('billing-at-risk-table');
    await expect(table.or(page.getByText('No patient is at risk.'))).toBeVisible();
    if (await table.isVisible()) {
      const first = table.locator('tbody tr').first();
      await expect(first).toContainText(/Device days \(99\d{3}\)|RPM time \(99\d{3}\)/);
    }
    await expectNoSeriousA11yViolations(page, '/billings?view=at-risk');
    await page.getByText('Assigned to me', { exact: true }).click();
    await expect(page).toHaveURL(/view=at-risk&mine=1/);
    await expect(table.or(page.getByText('No patient is at risk.'))).toBeVisible();
  });
});
