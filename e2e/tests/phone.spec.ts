import { expect, type Locator, type Page, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

// Issue 32 item 5: the patient record on a 390 × 844 phone. The demo's first patient has devices, a
// caregiver, regimens, doses and disease states.
// bypassCSP: axe is injected as a script (the console's CSP allows only its own).
test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });

/** The page itself never scrolls sideways: wide tables scroll inside their own box. */
async function expectNoSidewaysPage(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}

/** The control is on the screen horizontally (its right edge within the 390 px). */
async function expectOnScreen(control: Locator) {
  await expect(control).toBeVisible();
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
}

test('the record on a phone: tabs in one row, actions on screen, no page wider than the screen', async ({
  page,
}) => {
  await openAs(page, 'admin@caredeck.demo', '/patients');
  await page.getByLabel('Search patients').fill('Kreiger');
  await page.getByTestId('patient-row').filter({ hasText: 'Kreiger, Jamil' }).getByRole('link').click();
  await expect(page.getByTestId('patient-name')).toHaveText('Jamil Kreiger');

  // The 15 tabs take one row that scrolls sideways; the content starts in the first screen.
  const first = await page.getByTestId('tab-profile').boundingBox();
  const last = await page.getByTestId('tab-history').boundingBox();
  expect(Math.abs(first!.y - last!.y)).toBeLessThan(4);
  const panel = await page.getByRole('tabpanel').boundingBox();
  expect(panel!.y).toBeLessThan(480);

  // A tab chosen off-screen scrolls into view.
  await page.goto(`${new URL(page.url()).pathname}?tab=devices`);
  await expect(page.getByTestId('tab-devices')).toBeInViewport();
  await expectOnScreen(page.getByRole('button', { name: 'New secret' }).first());
  await expectNoSidewaysPage(page);
  await expectNoSeriousA11yViolations(page, 'devices tab on a phone');

  await page.getByTestId('tab-caregivers').click();
  await expectOnScreen(page.getByRole('button', { name: /^Unlink / }).first());
  await expectNoSidewaysPage(page);

  await page.getByTestId('tab-medication').click();
  await expectOnScreen(page.getByTestId('condition-delete').first());
  await expectNoSidewaysPage(page);
  // Wide tables (latest doses, orders) scroll in a box the keyboard can reach.
  await expectNoSeriousA11yViolations(page, 'medication tab on a phone');

  await page.getByTestId('tab-history').click();
  await expect(page.getByTestId('tab-history')).toBeInViewport();
  await expectNoSidewaysPage(page);
});
