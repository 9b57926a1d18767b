import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

test.describe('pipelines', () => {
  // axe is injected as a script, which the console's CSP rightly refuses.
  test.use({ bypassCSP: true });

  test('a coordinator moves a patient along the onboarding board and reads the patient’s stays', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/pipelines');
    const card = page.getByTestId('pipeline-card').filter({ hasText: 'New patient onboarding' });
    await expect(card).toContainText('24 patients in it');
    await expectNoSeriousA11yViolations(page, 'pipelines');
    await card.getByRole('link', { name: 'New patient onboarding' }).click();
    await expect(page.getByTestId('pipeline-title')).toHaveText('New patient onboarding');

    const referred = page
      .getByTestId('pipeline-stage')
      .filter({ has: page.getByText('Referred', { exact: true }) });
    const shipped = page
      .getByTestId('pipeline-stage')
      .filter({ has: page.getByText('Device shipped', { exact: true }) });
    await expect(referred.getByTestId('pipeline-stage-count')).toHaveText('6 patients');
    await expect(shipped.getByTestId('pipeline-stage-count')).toHaveText('6 patients');
    const first = referred.getByTestId('pipeline-patient').first();
    const name = ((await first.getByRole('link').textContent()) ?? '').trim();
    await first.getByRole('combobox', { name: `Move ${name} to` }).click();
    await page.getByRole('option', { name: 'Device shipped' }).click();
    await expect(page.getByText('Patient moved')).toBeVisible();
    await expect(referred.getByTestId('pipeline-stage-count')).toHaveText('5 patients');
    await expect(shipped.getByTestId('pipeline-stage-count')).toHaveText('7 patients');

    const moved = shipped.getByTestId('pipeline-patient').filter({ hasText: name });
    await moved.getByRole('button', { name: 'History' }).click();
    const drawer = page.getByRole('dialog', { name });
    await expect(drawer.getByTestId('pipeline-stay')).toHaveCount(2);
    await expect(drawer.getByTestId('pipeline-stay').last()).toContainText('Device shipped');
    await expect(drawer).toContainText('Moved');
    await expect(page.locator('.mantine-Drawer-content')).toHaveCSS('opacity', '1');
    await expectNoSeriousA11yViolations(page, 'pipeline board');
  });

  test('a coordinator builds a pipeline from a template, adds a patient and completes it', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/pipelines');
    await page.getByRole('button', { name: 'New pipeline' }).click();
    const dialog = page.getByRole('dialog', { name: 'New pipeline' });
    const name = `Heart failure follow-up ${Date.now().toString(36)}`;
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('combobox', { name: 'Start from a template' }).click();
    await page.getByRole('option', { name: /Onboarding in four steps/ }).click();
    await expectNoSeriousA11yViolations(page, 'new pipeline');
    await dialog.getByRole('button', { name: 'Create pipeline' }).click();
    await expect(page.getByText('Pipeline created')).toBeVisible();
    await expect(page.getByTestId('pipeline-title')).toHaveText(name);
    await expect(page.getByTestId('pipeline-stage')).toHaveCount(4);

    await page.getByRole('combobox', { name: 'Add a patient' }).fill('an');
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText('Patients added to the pipeline')).toBeVisible();
    const patient = page.getByTestId('pipeline-patient').first();
    await expect(patient).toBeVisible();
    await patient.getByRole('button', { name: 'Complete' }).click();
    const complete = page.getByRole('dialog', { name: /completes the pipeline/ });
    await complete.getByRole('button', { name: 'Complete' }).click();
    await expect(page.getByText('Patient completed the pipeline')).toBeVisible();
    await expect(page.getByTestId('pipeline-patient')).toHaveCount(0);
  });
});

test('the patient list narrows to a pipeline’s patients, and to overdue assessments', async ({ page }) => {
  await openAs(page, 'coordinator@caredeck.demo', '/patients?per_page=50');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  await page.getByTestId('filter-pipeline').click();
  await page.getByRole('option', { name: 'New patient onboarding' }).click();
  await expect(page).toHaveURL(/pipelines=\d+/);
  await expect(page.getByTestId('patient-row')).toHaveCount(24);
  await page.getByTestId('filters-clear').click();
  await page.getByTestId('filter-assessment').click();
  await page.getByRole('option', { name: 'Overdue' }).click();
  await expect(page).toHaveURL(/assessment_type=overdue/);
  await expect(page.getByTestId('patient-row')).toHaveCount(4);
});

test('a new patient enrolled from a pipeline board joins its first stage', async ({ page }) => {
  await openAs(page, 'coordinator@caredeck.demo', '/pipelines');
  await page
    .getByTestId('pipeline-card')
    .filter({ hasText: 'New patient onboarding' })
    .getByRole('link')
    .first()
    .click();
  await expect(page).toHaveURL(/\/pipeline\/\d+$/);
  const board = page.url();
  await page.getByTestId('pipeline-new-patient').click();
  await expect(page).toHaveURL(/\/add-patient\/pipeline\/\d+\/patient\/new$/);
  await expect(page.getByTestId('add-to-pipeline')).toContainText('New patient onboarding');
  const suffix = Date.now().toString(36);
  await page.getByTestId('field-first_name').fill('Piper');
  await page.getByTestId('field-last_name').fill(`Stage-${suffix}`);
  await page.getByTestId('field-dob').fill('02/03/1950');
  await page.getByTestId('field-dob').blur();
  await page.getByTestId('field-sex').click();
  await page.getByRole('option', { name: 'Female' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Step 2 of 3')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Step 3 of 3')).toBeVisible();
  await page.getByRole('button', { name: 'Create patient' }).click();
  await expect(page.getByText('Patient successfully created!')).toBeVisible();
  await expect(page).toHaveURL(board);
  await expect(page.getByTestId('pipeline-patient').filter({ hasText: `Stage-${suffix}` })).toBeVisible();
});
