import { expect, test } from './fixtures';
import { apiSession, openAs } from './helpers';

const COORDINATOR = 'coordinator@caredeck.demo';

test('a coordinator filters the worklist, keeps it across reload and Back, and sets two statuses at once', async ({
  page,
  request,
}) => {
  // Two patients of our own, so the bulk change touches nothing another journey relies on.
  const { headers, programId } = await apiSession(request, COORDINATOR);
  const family = `Worklist${Date.now().toString(36)}`;
  for (const [given, sex] of [
    ['Ines', 'female'],
    ['Otto', 'male'],
  ] as const) {
    const res = await request.post(`/api/v1/programs/${programId}/users`, {
      headers,
      data: { first_name: given, last_name: family, dob: '1950-06-01', sex, status: 'pending' },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  await openAs(page, COORDINATOR, '/patients');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();

  // Search and a filter: both in the URL, both kept by a reload.
  await page.getByLabel('Search patients').fill(family);
  await expect(page.getByTestId('patient-row')).toHaveCount(2);
  await expect(page.getByTestId('patient-row').first()).toContainText(`${family}, Ines`);
  await page.getByTestId('filter-sex').click();
  await page.getByRole('option', { name: 'Male', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
  await expect(page).toHaveURL(/sex=male/);
  await page.reload();
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
  await expect(page.getByLabel('Search patients')).toHaveValue(family);
  // Back undoes the filter, not the whole list.
  await page.goBack();
  await expect(page).not.toHaveURL(/sex=male/);
  await expect(page.getByTestId('patient-row')).toHaveCount(2);

  // Both rows selected, one status for both, after a confirmation.
  await page.getByRole('checkbox', { name: 'Select every patient on this page' }).check();
  await expect(page.getByTestId('bulk-bar')).toContainText('2 selected');
  await page.getByTestId('bulk-status').click();
  await page.getByRole('option', { name: 'Active', exact: true }).click();
  await page.getByTestId('bulk-apply').click();
  await page.getByTestId('bulk-confirm').click();
  await expect(page.getByText('2 patients set to Active')).toBeVisible();
  await expect(page.getByTestId('patient-row').getByText('Active', { exact: true })).toHaveCount(2);

  // The keyboard moves down the list and opens a patient.
  await page.getByRole('link', { name: `${family}, Ines` }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('link', { name: `${family}, Otto` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('patient-name')).toHaveText(`Otto ${family}`);
});

test('Ctrl+K finds a patient by MRN', async ({ page, request }) => {
  const { headers, programId } = await apiSession(request, COORDINATOR);
  const mrn = `K${Date.now().toString(36).toUpperCase()}`;
  const res = await request.post(`/api/v1/programs/${programId}/users`, {
    headers,
    data: { first_name: 'Paloma', last_name: 'Finder', dob: '1961-02-03', sex: 'female', mrn },
  });
  expect(res.status(), await res.text()).toBe(201);

  await openAs(page, COORDINATOR, '/patients');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.getByRole('textbox', { name: 'Search pages' }).fill(mrn.toLowerCase());
  const found = page.getByRole('group', { name: 'Patients' }).getByRole('button', { name: /Paloma Finder/ });
  await expect(found).toContainText(mrn);
  await found.click();
  await expect(page.getByTestId('patient-name')).toHaveText('Paloma Finder');
});

test('a coordinator saves a filtered worklist as a view and opens it again later', async ({ page }) => {
  await openAs(page, COORDINATOR, '/patients');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  // The monitoring columns: adherence of the last 7 days and the newest reading, from the devices' data.
  await expect(page.getByRole('columnheader', { name: 'Adherence (7 d)' })).toBeVisible();
  await expect(page.getByTestId('patient-row').filter({ hasText: /\d+ %/ }).first()).toBeVisible();
  await page.getByTestId('filter-sex').click();
  await page.getByRole('option', { name: 'Female', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/sex=female/);

  const name = `Women ${Date.now().toString(36)}`;
  await page.getByTestId('saved-views').click();
  await page.getByRole('menuitem', { name: 'Save this view…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save view' }).click();
  await expect(page.getByRole('dialog').getByText('Enter a name.')).toBeVisible();
  await page.getByLabel('Name of the view').fill(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Save view' }).click();
  await expect(page.getByText('View saved')).toBeVisible();

  // Elsewhere in the list, the view brings its filters back (kept on the server: another browser sees it too).
  await page.goto('/patients');
  await expect(page).not.toHaveURL(/sex=female/);
  await page.getByTestId('saved-views').click();
  await page.getByRole('menuitem', { name, exact: true }).click();
  await expect(page).toHaveURL(/sex=female/);
  await page.getByTestId('saved-views').click();
  await page.getByRole('menuitem', { name: `Delete the view ${name}` }).click();
  await expect(page.getByText('View deleted')).toBeVisible();
});

test('on a 1280-pixel screen the list keeps a readable name column (the table scrolls sideways instead)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openAs(page, 'coordinator@caredeck.demo', '/patients');
  const firstName = page.getByRole('row').nth(1).getByRole('cell').nth(1);
  await expect(firstName).toBeVisible();
  const box = await firstName.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(200);
  // The header cells do not overlap: Name ends before MRN starts.
  const name = await page.getByRole('columnheader', { name: /^Name/ }).boundingBox();
  const mrn = await page.getByRole('columnheader', { name: 'MRN' }).boundingBox();
  expect((name?.x ?? 0) + (name?.width ?? 0)).toBeLessThanOrEqual((mrn?.x ?? 0) + 1);
});

test('on a 1440-pixel screen the monitoring columns, open alerts included, fit without scrolling sideways', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openAs(page, 'coordinator@caredeck.demo', '/patients');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  // Fully visible: a column cut off by the table's scroll container is not wholly in the viewport.
  for (const column of ['MRN', 'Sex', 'Alerts', 'Adherence (7 d)', 'Last reading', 'Assigned admin'])
    await expect(page.getByRole('columnheader', { name: column })).toBeInViewport({ ratio: 1 });
});

test('on a phone the list starts on the first screen, with the filters folded behind one button', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, COORDINATOR, '/patients');
  // Four rows at least are on the first screen (the filters used to push the list below the fold).
  await expect(page.getByTestId('patient-row').nth(3)).toBeInViewport({ ratio: 1 });
  await expect(page.getByLabel('Status', { exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByText('Assigned to me').click();
  await expect(page).toHaveURL(/assignedAdmin=me/);
  await page.getByRole('button', { name: 'Filters: 1 active' }).click();
  await expect(page.getByText('Assigned to me')).toBeHidden();
  await expect(page.getByTestId('patient-row').first()).toBeInViewport();
});

test('a coordinator narrows the list with the filters behind More filters and finds a patient as the list names them', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openAs(page, COORDINATOR, '/patients');
  const first = page.getByTestId('patient-row').first().getByRole('link');
  const shown = (await first.textContent()) ?? '';
  // "Family, Given", typed as the list shows it.
  await page.getByLabel('Search patients').fill(shown);
  await expect(page.getByTestId('patient-row').first().getByRole('link')).toHaveText(shown);
  await page.getByLabel('Search patients').fill('');
  await page.getByRole('button', { name: 'More filters' }).click();
  const more = page.getByRole('group', { name: 'More filters' });
  await more.getByLabel('Account').click();
  await page.getByRole('option', { name: 'Deactivated' }).click();
  await expect(page).toHaveURL(/active=0/);
  await more.getByLabel('Disease state').fill('E11');
  await more.getByLabel('Disease state').press('Enter');
  await expect(page).toHaveURL(/disease_state=E11/);
  await expect(page.getByTestId('patient-row').or(page.getByTestId('patients-empty')).first()).toBeVisible();
  await page.goBack();
  await expect(page).not.toHaveURL(/disease_state/);
  await expect(page).toHaveURL(/active=0/);
});
