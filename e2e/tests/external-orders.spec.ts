import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

const SAMPLE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../apps/web/public/samples/external-orders-sample.csv',
);

test.describe('external orders', () => {
  test.use({ bypassCSP: true });

  // The demo seed imported the sample export into Northwind Cardiology, the pharmacist's program: Harold Jensen
  // was linked at import, Maggie Okafor waits for a match (she is Margaret Okafor in CareDeck).
  test('a pharmacist imports the sample CSV again, matches a patient, verifies fill files and schedule, finalizes and finds the regimens on the medication tab', async ({
    page,
  }) => {
    await openAs(page, 'pharmacy@caredeck.demo', '/external-orders');
    await expect(page.getByRole('heading', { name: 'External orders' })).toBeVisible();
    const rows = page.getByTestId('external-orders');
    await expect(rows.getByTestId('order-RX-240201')).toContainText('Not matched');
    await expectNoSeriousA11yViolations(page, '/external-orders');

    // The same file again: every order is a duplicate, nothing changes.
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import pharmacy orders' });
    await importDialog.locator('input[type="file"]').setInputFiles(SAMPLE);
    await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByText('CSV Uploaded', { exact: true })).toBeVisible();
    const result = importDialog.getByTestId('import-result');
    await expect(result).toContainText('0 new orders');
    await expect(result).toContainText('6 orders already imported (left as they were)');
    await page.keyboard.press('Escape');
    await expect(importDialog).toHaveCount(0);

    // The filters live in the URL.
    await page.getByLabel('Automation only').click();
    await expect(page).toHaveURL(/automation=1/);
    await expect(rows.getByTestId('order-RX-240301')).toHaveCount(0);
    await page.getByLabel('Automation only').click();

    // Match Maggie Okafor to Margaret Okafor: same date of birth, similar name, same phone.
    await rows.getByTestId('order-RX-240201').getByRole('button', { name: 'Match Maggie Okafor' }).click();
    const match = page.getByRole('dialog', { name: 'Match Maggie Okafor' });
    const candidates = match.getByTestId('match-candidates');
    await expect(candidates).toContainText('Same date of birth');
    await expect(candidates).toContainText('Same phone');
    await match.getByLabel('Margaret Okafor').check();
    await match.getByRole('button', { name: 'Link to this patient' }).click();
    await page
      .getByRole('dialog', { name: 'Link these records?' })
      .getByRole('button', { name: 'Link to this patient' })
      .click();
    await expect(page.getByText('Patient Matched', { exact: true })).toBeVisible();
    await expect(rows.getByTestId('order-RX-240201')).toContainText('Matched');

    // Review: fill files, then the schedules, then finalize after a confirmation.
    await rows.getByRole('button', { name: 'Review the orders of RX-240201' }).click();
    const drawer = page.getByRole('dialog', { name: /Review Margaret Okafor/ });
    const fill = drawer.getByTestId('fill-files');
    await expect(fill).toContainText('30 days · 90 pods');
    await expect(fill).toContainText('Atorvastatin 20 mg × 1');
    await fill.getByRole('button', { name: 'Verify fill files' }).click();
    await expect(page.getByText('External Order Fill Files Verified', { exact: true })).toBeVisible();
    await expect(fill).toContainText('Verified by Mei Chen');
    const schedules = drawer.getByTestId('schedules');
    await expect(schedules.getByLabel('Dose time 1 of Atorvastatin 20 mg')).toHaveValue('21:00');
    await schedules.getByRole('button', { name: 'Verify schedule' }).click();
    await expect(page.getByText('Schedule Verified', { exact: true })).toBeVisible();
    const finalize = drawer.getByTestId('finalize');
    for (const label of [
      'RX-240201 · Metformin 500 mg',
      'RX-240202 · Amlodipine 5 mg',
      'RX-240203 · Atorvastatin 20 mg',
    ])
      await finalize.getByLabel(label).check();
    await finalize.getByRole('button', { name: 'Finalize selected (3)' }).click();
    await page
      .getByRole('dialog', { name: 'Finalize these orders?' })
      .getByRole('button', { name: 'Finalize', exact: true })
      .click();
    await expect(
      page.getByText('Schedules generated and equipment files sent', { exact: true }),
    ).toBeVisible();
    await page.keyboard.press('Escape');

    // The statuses moved; the order's history and tracking show the equipment file.
    await expect(rows.getByTestId('order-RX-240201')).toContainText('Finalized');
    await expect(rows.getByTestId('order-RX-240203')).toContainText('Finalized');
    await rows.getByRole('button', { name: 'History and tracking of RX-240201' }).click();
    const order = page.getByRole('dialog', { name: 'Order RX-240201' });
    await expect(order.getByTestId('order-tracking')).toContainText(
      /Equipment file pod_fill_\d+_2026-12-07\.csv/,
    );
    await expect(order.getByRole('table', { name: 'Status history' })).toContainText(
      'Ready to finalize → Finalized',
    );
    await page.keyboard.press('Escape');

    // The regimens are on the patient's medication tab.
    await rows.getByTestId('order-RX-240201').getByRole('link', { name: 'Margaret Okafor' }).click();
    await expect(page).toHaveURL(/\/patient\/\d+\?tab=medication/);
    await expect(page.getByText('Metformin 500 mg').first()).toBeVisible();
    await expect(page.getByText('Atorvastatin 20 mg').first()).toBeVisible();
  });
});
