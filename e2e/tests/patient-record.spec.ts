import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openAs } from './helpers';

test.describe('the patient record', () => {
  test('a coordinator enrols a patient step by step, meets a server error on the way, and lands on the record', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/patients');
    await page.getByRole('link', { name: 'Add patient' }).click();
    await expect(page).toHaveURL(/\/add-patient\/new$/);

    // Step 1 validates only its own fields.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('This field is required.').first()).toBeVisible();
    const suffix = Date.now().toString(36);
    await page.getByTestId('field-first_name').fill('Imogen');
    await page.getByTestId('field-last_name').fill(`Tester-${suffix}`);
    await page.getByTestId('field-dob').fill('01/04/1954');
    await page.getByTestId('field-dob').blur();
    // English dates are typed as they are shown, MM/DD/YYYY (ADR 054), and the field says the day in words.
    await expect(page.getByText('Saved as January 4, 1954')).toBeVisible();
    await page.getByTestId('field-sex').click();
    await page.getByRole('option', { name: 'Female' }).click();
    await page.getByTestId('field-mrn').fill(`E2E-${suffix}`);
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 2: a phone number the server refuses.
    await expect(page.getByText('Step 2 of 3')).toBeVisible();
    // A stray click away asks first; staying keeps everything typed.
    await page.getByRole('link', { name: 'Back to patients' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without creating the patient?' });
    await leave.getByRole('button', { name: 'Stay on the form' }).click();
    await expect(page).toHaveURL(/\/add-patient\/new$/);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByTestId('field-mrn')).toHaveValue(`E2E-${suffix}`);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Step 2 of 3')).toBeVisible();
    await page.getByTestId('field-phone_number').fill('555');
    // The state first: the city field then offers that state's cities (shipped data, ADR 025).
    // By keyboard: typing part of the name and Enter chooses it (Enter used to submit the step instead).
    await page.getByTestId('field-state').click();
    await page.keyboard.type('Penn');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('field-state')).toHaveValue('Pennsylvania (PA)');
    await expect(page.getByText('Step 2 of 3')).toBeVisible();
    await page.getByTestId('field-city').fill('Phila');
    await page.getByRole('option', { name: 'Philadelphia', exact: true }).click();
    await expect(page.getByTestId('field-city')).toHaveValue('Philadelphia');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Step 3 of 3')).toBeVisible();
    await page.getByRole('button', { name: 'Create patient' }).click();
    const errors = page.getByTestId('create-errors');
    await expect(errors).toContainText('10-digit US phone number');
    // The form opened the step with the field at fault; fix it and create.
    await expect(page.getByText('Step 2 of 3')).toBeVisible();
    await page.getByTestId('field-phone_number').fill('(215) 555-0142');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Create patient' }).click();

    await expect(page.getByText('Patient successfully created!')).toBeVisible();
    await expect(page).toHaveURL(/\/patient\/\d+$/);
    await expect(page.getByTestId('patient-name')).toHaveText(`Imogen Tester-${suffix}`);
    await expect(page.getByText('+12155550142')).toBeVisible();
    await expect(page).toHaveTitle(/Imogen/);

    // Edit one field.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('field-city').fill('Pittsburgh');
    await page.getByTestId('save-patient').click();
    await expect(page.getByText('Patient updated')).toBeVisible();
    await expect(page.getByText(/Pittsburgh/)).toBeVisible();

    // Inactivate, after confirming.
    await page.getByRole('button', { name: 'Inactivate' }).click();
    await page.getByTestId('confirm-active').click();
    await expect(page.getByText('User successfully inactivated')).toBeVisible();
    await expect(page.getByTestId('patient-status')).toHaveText('Inactive');

    // The history shows who did what.
    await page.getByTestId('tab-history').click();
    await expect(page.getByTestId('audit-history')).toContainText('Details changed');
    await expect(page.getByTestId('audit-history')).toContainText('Enrolled');
  });

  test('rows of the list open the patient, and Back returns to the same page of the list', async ({
    page,
  }) => {
    await openAs(page, 'physician@caredeck.demo', '/patients');
    const first = page.getByTestId('patient-row').first();
    const pageOne = (await first.getByRole('link').textContent()) ?? '';
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(first.getByRole('link')).not.toHaveText(pageOne);
    // The list reads "Family, Given"; the record says "Given Family".
    const [family, given] = ((await first.getByRole('link').textContent()) ?? '').split(', ');
    const name = `${given} ${family}`;
    await first.click();
    await expect(page.getByTestId('patient-name')).toHaveText(name);
    await page.goBack();
    await expect(page).toHaveURL(/page=2/);
    await page.goBack();
    await expect(page).toHaveURL(/\/patients$/);
  });

  test('a coordinator exports the patient list and the pods as spreadsheets', async ({ page }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/patients');
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^patients_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.xlsx$/);
    await expect(page.getByText('Export Successful')).toBeVisible();
    const file = readFileSync((await download.path())!);
    // An .xlsx is a zip archive.
    expect(file.subarray(0, 2).toString()).toBe('PK');
    // The pods of the same period come from the same dialog (…/users/pods/{start}/{end}).
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByTestId('export-kind').getByText('Pods').click();
    await expect(page.getByText('Every pod created during the period')).toBeVisible();
    const [pods] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-download').click(),
    ]);
    expect(pods.suggestedFilename()).toMatch(/^pods_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.xlsx$/);
    expect(
      readFileSync((await pods.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
  });
});

test('a coordinator orders a medication, adds pods, prints their labels, records a dose by hand and a disease state', async ({
  page,
}) => {
  await openAs(page, 'coordinator@caredeck.demo', '/patients');
  await page.getByTestId('patient-row').first().getByRole('link').click();
  await page.getByTestId('tab-medication').click();
  await page.getByRole('button', { name: 'Order a medication' }).click();
  // The drug catalogue answers as the user types, brand names too; the strengths follow the chosen drug, and
  // its only form and route are filled in.
  await page.getByTestId('order-drug').fill('toprol');
  await page.getByRole('option', { name: /Metoprolol succinate/ }).click();
  await page.getByTestId('order-strength').click();
  await page.getByRole('option', { name: '25 mg', exact: true }).click();
  await expect(page.getByTestId('order-form')).toHaveValue('tablet, extended release');
  await expect(page.getByTestId('order-route')).toHaveValue('oral');
  // 8pm reads as 20:00; a time that is none is refused under the field, and nothing is ordered.
  await page.getByTestId('order-times').fill('8pm');
  await page.getByTestId('order-times').press('Enter');
  await page.getByTestId('order-times').fill('25:00');
  await page.getByTestId('order-times').press('Enter');
  await page.getByTestId('order-save').click();
  await expect(page.getByText('Use a time of day as HH:MM (24-hour), e.g. 08:00.')).toBeVisible();
  await page.getByRole('button', { name: 'Remove tag 25:00' }).click();
  await page.getByTestId('order-save').click();
  await expect(page.getByText('Medication ordered and scheduled')).toBeVisible();
  const regimen = page.getByTestId('regimen').filter({ hasText: 'Metoprolol succinate 25 mg' });
  await expect(regimen).toContainText('08:00, 20:00');

  await regimen.getByRole('button', { name: 'Add pods' }).click();
  await page.getByLabel('Number of pods').fill('3');
  await page.getByTestId('pods-save').click();
  await expect(page.getByText('3 pods added')).toBeVisible();
  await expect(regimen).toContainText('3 pods · 84 servings left');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    regimen.getByRole('button', { name: 'Print labels' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect(
    readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  // Each pod with its servings, and its own label.
  await regimen.getByTestId('pods-toggle').click();
  await expect(regimen.getByTestId('pod')).toHaveCount(3);
  await expect(regimen.getByTestId('pod').first()).toContainText('28 of 28');
  const [one] = await Promise.all([
    page.waitForEvent('download'),
    regimen
      .getByTestId('pod')
      .first()
      .getByRole('button', { name: /Print the label of pod/ })
      .click(),
  ]);
  expect(one.suggestedFilename()).toMatch(/^pod_.+\.pdf$/);
  // The order is listed with the regimen scheduled under it.
  const orderRow = page.getByTestId('medication-order').filter({ hasText: 'Metoprolol succinate 25 mg' });
  await expect(orderRow.getByRole('cell').nth(3)).toHaveText('Metoprolol succinate 25 mg');

  // A dose told by phone, recorded by hand from the first pod: it leaves the pod, and can be taken back.
  await regimen.getByTestId('record-dose').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'From pod' }).click();
  await page.getByRole('option').first().click();
  await dialog.getByLabel('Note').fill('Told by phone');
  await dialog.getByTestId('dose-save').click();
  await expect(page.getByText('Dose recorded')).toBeVisible();
  await expect(regimen).toContainText('3 pods · 83 servings left');
  const dose = page.getByTestId('recent-dose').filter({ hasText: 'Told by phone' });
  await expect(dose).toContainText('By hand, Carlos Diaz');
  await dose.getByTestId('dose-delete').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Dose record deleted')).toBeVisible();
  await expect(regimen).toContainText('3 pods · 84 servings left');

  // ICD-10-CM codes found by words; choosing one fills the description. (The field is brought clear of the
  // sticky footer first: a dropdown whose field is hidden stays hidden.)
  await page.getByTestId('condition-code').evaluate((input) => input.scrollIntoView({ block: 'center' }));
  await page.getByTestId('condition-code').fill('essential');
  await page.getByRole('option', { name: /I10/ }).click();
  await expect(page.getByTestId('condition-description')).toHaveValue('Essential (primary) hypertension');
  await page.getByRole('button', { name: 'Add a disease state' }).click();
  await expect(page.getByText('Disease state added')).toBeVisible();
  await expect(page.getByTestId('disease-states')).toContainText('I10 Essential (primary) hypertension');
});

test('a pharmacist reconciles a patient medication list', async ({ page }) => {
  await openAs(page, 'admin@caredeck.demo', '/patients');
  await page.getByTestId('patient-row').nth(1).getByRole('link').click();
  await page.getByTestId('tab-medication').click();
  await page.getByRole('link', { name: 'Medication reconciliation' }).click();
  await expect(page).toHaveURL(/\/medication\/details$/);
  await page.getByRole('button', { name: 'Add a medication' }).click();
  await page.getByTestId('med-rec-save').click();
  await expect(page.getByText('This field is required.')).toBeVisible();
  await page.getByTestId('med-rec-name').fill('Atorvastatin');
  await page.getByTestId('med-rec-strength').fill('40 mg');
  await page.getByTestId('med-rec-frequency').fill('once daily at bedtime');
  await page.getByTestId('med-rec-source').fill('Pill bottle');
  await page.getByTestId('med-rec-save').click();
  await expect(page.getByText('A New Medication has been Added.')).toBeVisible();
  const row = page.getByTestId('med-rec-list').getByRole('row').filter({ hasText: 'Atorvastatin 40 mg' });
  await expect(row).toContainText('once daily at bedtime');
  await row.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByText('Medication Archive Status Updated.')).toBeVisible();
  await expect(row).toContainText('Archived');
  await page.getByTestId('med-rec-method').click();
  await page.getByRole('option', { name: 'Pill bottle review' }).click();
  await expect(page.getByText('Data Stored')).toBeVisible();
  await expect(page.getByTestId('med-rec-reconciled')).toContainText('Avery Morgan');
});
