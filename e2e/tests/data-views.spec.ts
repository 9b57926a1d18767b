import { expect, test } from './fixtures';
import { apiAccessToken, openAs } from './helpers';

// A patient's readings, sleep, activity and servings over a period (01 §2 data views), from the demo
// wearables' 90 days of history.
test('a coordinator follows a patient from the readings tab to sleep, activity and servings', async ({
  page,
  request,
}) => {
  const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
  const res = await request.get('/api/v1/devices?kind=wearable', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await res.json()) as { data: { patient: { id: number } | null }[] };
  const patientId = data.find((d) => d.patient)!.patient!.id;

  await openAs(page, 'coordinator@caredeck.demo', `/patient/${patientId}?tab=readings`);
  await expect(page.getByTestId('readings-panel')).toBeVisible();

  await page.getByRole('link', { name: 'Sleep' }).click();
  await expect(page).toHaveURL(new RegExp(`/sleep/${patientId}$`));
  await expect(page.getByRole('heading', { name: 'Sleep', level: 1 })).toBeVisible();
  await expect(page.getByTestId('sleep-average')).toContainText(/On average \d+ h \d{2} a night/);
  await page.getByText('Last 7 days').click();
  await expect(page).toHaveURL(/\?start=\d{4}-\d{2}-\d{2}&end=\d{4}-\d{2}-\d{2}$/);

  await page.goto(`/activities-range/${patientId}`);
  await expect(page.getByTestId('activity-totals')).toContainText('steps');
  await page.getByLabel('From').fill('2020-01-01');
  await page.getByLabel('From').press('Tab');
  await expect(page.getByText('Choose a start on or before the end, at most 366 days.')).toBeVisible();

  await page.goto(`/servings/${patientId}`);
  await expect(page.getByText('The patient has no pods.')).toBeVisible();
  await expect(page.getByTestId('doses-total')).toContainText('doses taken in this period');
  await page.getByRole('link', { name: 'Back to the patient' }).click();
  await expect(page).toHaveURL(new RegExp(`/patient/${patientId}\\?tab=readings$`));
});
