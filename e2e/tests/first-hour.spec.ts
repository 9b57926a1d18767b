import { expect, test } from './fixtures';
import { apiSession, signIn } from './helpers';

// Issue 32: what a new user trips over in the console in their first hour.
const COORDINATOR = 'coordinator@caredeck.demo';

test('a cleared patient search is cleared, "Assigned to me" counts at once, and Back returns to the scrolled list', async ({
  page,
  request,
}) => {
  const { headers, programId } = await apiSession(request, COORDINATOR);
  const family = `Cleared${Date.now().toString(36)}`;
  const res = await request.post(`/api/v1/programs/${programId}/users`, {
    headers,
    data: { first_name: 'Ivo', last_name: family, dob: '1952-02-02', sex: 'male', status: 'pending' },
  });
  expect(res.status(), await res.text()).toBe(201);

  await page.goto('/patients');
  await signIn(page, COORDINATOR);
  const rows = page.getByTestId('patient-row');
  const total = page.getByTestId('patients-total');
  await expect(rows.first()).toBeVisible();
  const unfiltered = await total.textContent();

  const box = page.getByLabel('Search patients');
  await box.fill(family);
  await expect(rows).toHaveCount(1);
  // Cleared: the list comes back whole (asked again, or from the answer it had a moment ago).
  await box.fill('');
  await expect(total).toHaveText(unfiltered ?? '');
  await expect(rows).not.toHaveCount(1);
  await expect(page).not.toHaveURL(/name=/);
  // A filter chosen afterwards does not bring the old text back.
  await page.getByText('Assigned to me', { exact: true }).click();
  await expect(page).toHaveURL(/assignedAdmin=me/);
  await expect(page).not.toHaveURL(/name=/);
  await expect(box).toHaveValue('');
  // …and the total is that of the filtered list at once, not after a reload.
  await expect(total).not.toHaveText(unfiltered ?? '');
  const mine = await total.textContent();
  await page.reload();
  await expect(total).toHaveText(mine ?? '');
  await page.getByText('Assigned to me', { exact: true }).click();
  await expect(page).not.toHaveURL(/assignedAdmin/);
  await expect(total).toHaveText(unfiltered ?? '');

  // A long page scrolled down, a patient opened, Back: the list is where it was.
  await page.goto('/patients?per_page=50');
  await expect(rows).toHaveCount(50);
  const far = rows.nth(40).getByRole('link');
  await far.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  // Where the user saw the row: the window's offset may differ by a few pixels when a control above the list
  // settles after the restore (the browser's scroll anchoring keeps the rows in place), the rows may not.
  const rowAt = async () => Math.round((await far.boundingBox())?.y ?? Number.NaN);
  const seenAt = await rowAt();
  await far.click();
  await expect(page.getByTestId('patient-name')).toBeVisible();
  await page.goBack();
  await expect(rows).toHaveCount(50);
  await expect.poll(rowAt).toBe(seenAt);
});

test('a pharma user is offered no action their role may not perform', async ({ page }) => {
  await page.goto('/patients');
  // The rules the server enforces arrive (the console asks for them) and hide what the role may not do.
  const rules = page.waitForResponse((r) => r.url().includes('/api/v1/access-rules') && r.ok());
  await signIn(page, 'pharma@caredeck.demo');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  await rules;
  await expect(page.getByRole('link', { name: 'Add patient' })).toHaveCount(0);

  await page.goto('/groups');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New cohort' })).toHaveCount(0);

  await page.goto('/content');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New category' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add content' })).toHaveCount(0);
});

test('a coordinator is offered the same actions', async ({ page }) => {
  await page.goto('/patients');
  await signIn(page, COORDINATOR);
  await expect(page.getByRole('link', { name: 'Add patient' })).toBeVisible();
  await page.goto('/groups');
  await expect(page.getByRole('button', { name: 'New cohort' })).toBeVisible();
  await page.goto('/content');
  await expect(page.getByRole('button', { name: 'New category' })).toBeVisible();
});

test('deleting a cohort asks for nothing more about it', async ({ page }) => {
  await page.goto('/groups');
  await signIn(page, COORDINATOR);
  await page.getByRole('button', { name: 'New cohort' }).click();
  await page.getByTestId('cohort-name').fill(`Short-lived ${Date.now().toString(36)}`);
  await page.getByTestId('cohort-save').click();
  await expect(page).toHaveURL(/\/group\/\d+$/);
  const id = page.url().split('/').pop();
  // The cohort shown (its own GET answered) before listening.
  await expect(page.getByTestId('cohort-title')).toBeVisible();
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new RegExp(`/groups/${id}(\\?|$)`).test(r.url())) asked.push(r.url());
  });
  await page.getByRole('button', { name: 'Delete cohort' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete cohort' }).click();
  await expect(page.getByText('Cohort deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/groups$/);
  await expect(page.getByTestId('cohort-row').first()).toBeVisible();
  expect(asked).toEqual([]);
});
