import { expect, type Page, test } from './fixtures';
import { apiAccessToken, openAs } from './helpers';

// Every screen of the route table opens without a crash, an error screen or a script error in the built
// console, as it is served (lazy chunks, split styles, one language loaded): component tests do not bundle,
// so a chunk that loads in the wrong order or a dropped side effect is only seen here (ADR 048).
const USER = 'enterprise@caredeck.demo';

const SCREENS = [
  '/patients',
  '/worklist',
  '/messenger',
  '/alerts',
  '/alerts-analytics',
  '/escalations',
  '/provider-dashboard',
  '/pharma-dashboard',
  '/groups',
  '/pipelines',
  '/surveys',
  '/surveys-v2',
  '/content',
  '/protocols',
  '/kpi',
  '/billings',
  '/reports',
  '/pharma-reports',
  '/patients/reports',
  '/bulk-events',
  '/external-orders',
  '/status-logs',
  '/admins',
  '/programs-management',
  '/logs',
  '/settings',
  '/add-patient/new',
  '/patient/{patient}',
  '/patient/{patient}?tab=adherence',
  '/patient/{patient}?tab=readings',
  '/patient/{patient}?tab=devices',
  '/patient/{patient}/settings',
  '/patient/{patient}/medication',
  '/patient/{patient}/medication/details',
  '/patient/{patient}/escalation-messages',
  '/patient/{patient}/messages-history',
  '/servings/{patient}',
  '/activities/{patient}',
  '/activities-range/{patient}',
  '/sleep/{patient}',
];

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    // A refused request is logged by the browser as a console error; the screens' own errors are what count.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`${page.url()}: ${message.text().slice(0, 300)}`);
  });
  return errors;
}

test('every screen opens without an error in the built console', async ({ page, request }) => {
  test.setTimeout(240_000);
  const token = await apiAccessToken(request, USER);
  const res = await request.get('/api/v1/devices?kind=wearable', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await res.json()) as { data: { patient: { id: number } | null }[] };
  const patient = data.find((device) => device.patient)?.patient?.id;
  expect(patient, 'a demo patient with a wearable').toBeDefined();

  const errors = watchErrors(page);
  await openAs(page, USER, '/patients');
  for (const screen of SCREENS) {
    const path = screen.replace('{patient}', String(patient));
    await page.goto(path);
    await expect(page.getByTestId('user-menu'), path).toBeVisible();
    // The page has drawn (no loader left in the main area) and is not the error screen.
    await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Something went wrong' }), path).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'This part of CareDeck did not load' }), path).toHaveCount(
      0,
    );
  }
  expect(errors).toEqual([]);
});
