import { expect, test } from './fixtures';
import { openAs } from './helpers';

test('a coordinator creates a cohort, adds patients by name, removes one, and finds the cohort on the patient', async ({
  page,
}) => {
  await openAs(page, 'coordinator@caredeck.demo', '/groups');
  await expect(page.getByTestId('cohort-row').first()).toBeVisible();
  await page.getByRole('button', { name: 'New cohort' }).click();
  // A name is required.
  await page.getByTestId('cohort-save').click();
  await expect(page.getByText('This field is required.')).toBeVisible();
  const name = `COPD rescue inhaler ${Date.now().toString(36)}`;
  await page.getByTestId('cohort-name').fill(name);
  await page.getByTestId('cohort-save').click();
  await expect(page.getByText('New group has successfully been created!')).toBeVisible();
  await expect(page.getByTestId('cohort-title')).toHaveText(name);
  await expect(page.getByTestId('cohort-count')).toHaveText('0 patients');

  // Add the first patient of the list by name.
  await page.goto('/patients');
  const [family, given] = (
    (await page.getByTestId('patient-row').first().getByRole('link').textContent()) ?? ''
  )
    .trim()
    .split(', ');
  const firstName = `${given} ${family}`;
  await page.goBack();
  await page.getByTestId('cohort-add-search').fill(firstName.split(' ').at(-1) ?? firstName);
  await page
    .getByRole('option', { name: new RegExp(firstName) })
    .first()
    .click();
  await page.getByTestId('cohort-add').click();
  await expect(page.getByText(`${firstName} added to the cohort`)).toBeVisible();
  await expect(page.getByTestId('cohort-count')).toHaveText('1 patient');
  await expect(page.getByTestId('cohort-members')).toContainText(firstName);

  // The patient's record lists the cohort.
  await page.getByTestId('cohort-members').getByRole('link', { name: firstName }).click();
  await page.getByTestId('tab-cohorts').click();
  await expect(page.getByRole('link', { name })).toBeVisible();
  await page.getByRole('link', { name }).click();

  await page.getByRole('button', { name: `Remove ${firstName} from the cohort` }).click();
  // Asked first: Cancel keeps the patient, Remove removes them.
  const ask = page.getByRole('dialog', { name: `Remove ${firstName} from this cohort?` });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('cohort-count')).toHaveText('1 patient');
  await page.getByRole('button', { name: `Remove ${firstName} from the cohort` }).click();
  await ask.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText(`${firstName} removed from the cohort`)).toBeVisible();
  await expect(page.getByTestId('cohort-count')).toHaveText('0 patients');

  // From the patient's record: their Cohorts tab adds them back, choosing the cohort by keyboard.
  await page.goBack();
  await expect(page.getByTestId('patient-name')).toHaveText(firstName);
  await page.getByTestId('tab-cohorts').click();
  const picker = page.getByTestId('patient-cohort-add');
  await picker.getByTestId('bulk-cohort').fill(name.slice(0, -2));
  // The user sees the cohort offered, then presses Enter.
  await expect(page.getByRole('option', { name })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(picker.getByTestId('bulk-cohort')).toHaveValue(name);
  await picker.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText(`1 patient added to ${name}`)).toBeVisible();
  await expect(page.getByRole('link', { name })).toBeVisible();
});
