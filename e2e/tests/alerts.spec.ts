import { type APIRequestContext, expect, type Page, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, openAs, simulateOnce } from './helpers';

// Issue 10, "Done means": the simulator drives a demo patient's blood pressure out of range; within
// seconds the tile count rises, the alert explains itself, a coordinator acknowledges it, and it resolves
// by itself when readings return to normal; a snoozed condition stays quiet for its whole snooze.

const BP_TILE = 'alert-tile-out_range_blood_pressure_alerts';

type Cuff = { serial: string; patient: { id: number; name: string } };

/** A demo BP cuff of the coordinator's program whose patient has no unresolved blood-pressure alert. */
async function quietCuff(request: APIRequestContext, token: string, skip: number): Promise<Cuff> {
  const auth = { authorization: `Bearer ${token}` };
  const devices = await request.get('/api/v1/devices?kind=bp_cuff', { headers: auth });
  const cuffs = ((await devices.json()) as { data: Cuff[] }).data.filter((d) => d.patient);
  const open = await request.get('/api/v1/alerts/out_range_blood_pressure_alerts/all/all?pagination=100', {
    headers: auth,
  });
  const alerted = new Set(
    ((await open.json()) as { data: { patient: { id: number } }[] }).data.map((a) => a.patient.id),
  );
  return cuffs.filter((c) => !alerted.has(c.patient.id))[skip]!;
}

/** "Kreiger, Jamil" as the board writes names (family name first). */
const boardName = (name: string) => {
  const parts = name.split(' ');
  return `${parts.slice(1).join(' ')}, ${parts[0]}`;
};

async function tileCount(page: Page): Promise<number> {
  return Number(await page.getByTestId(BP_TILE).getByTestId('alert-tile-count').textContent());
}

test.describe('alerts', () => {
  // axe is injected into the page; the console's CSP would refuse it.
  test.use({ bypassCSP: true });

  test('a simulated high blood pressure raises the tile, explains itself, is acknowledged and resolves when readings return to normal', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const cuff = await quietCuff(request, token, 0);
    const name = boardName(cuff.patient.name);

    await openAs(page, 'coordinator@caredeck.demo', '/alerts?type=out_range_blood_pressure_alerts');
    await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
    await expect(page.getByTestId(BP_TILE)).toHaveAttribute('aria-pressed', 'true');
    const before = await tileCount(page);

    await simulateOnce(['--serials', cuff.serial, '--reading', 'systolic=188,diastolic=114,pulse=90']);
    // Live: no reload.
    await expect.poll(() => tileCount(page), { timeout: 10_000 }).toBe(before + 1);
    const row = page.getByTestId('alert-row').filter({ hasText: name });
    await expect(row).toContainText('Systolic 188 ≥ 160; Diastolic 114 ≥ 100');
    await expect(row).toContainText('New');

    // The alert explains itself, and a coordinator acknowledges it.
    await row.click();
    const drawer = page.getByRole('dialog', { name: 'Alert' });
    await expect(drawer.getByTestId('alert-summary')).toHaveText('Systolic 188 ≥ 160; Diastolic 114 ≥ 100');
    await expect(drawer).toContainText('systolic: 188 ≥ 160');
    await expect(drawer).toContainText('Thresholds from defaults');
    // axe reads colours: only once the drawer's opening transition is over.
    await expect(page.locator('.mantine-Drawer-content')).toHaveCSS('opacity', '1');
    await expectNoSeriousA11yViolations(page, 'alert drawer');
    await drawer.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(page.getByText('1 alert acknowledged')).toBeVisible();
    await expect(drawer.getByText('Acknowledged').first()).toBeVisible();
    // Handed to a colleague of the program: the drawer says who has it.
    await drawer.getByRole('button', { name: 'Assign' }).click();
    const colleague = page.getByRole('menuitem').nth(2);
    const colleagueName = ((await colleague.textContent()) ?? '').trim();
    await colleague.click();
    await expect(page.getByText('1 alert assigned')).toBeVisible();
    await expect(drawer.getByTestId('alert-assignee')).toHaveText(`Assigned to ${colleagueName}`);
    await expect(page.getByRole('menu')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    await expect(row).toContainText('Acknowledged');

    // Readings back to normal: it resolves by itself and leaves the open list.
    await simulateOnce(['--serials', cuff.serial, '--reading', 'systolic=124,diastolic=79']);
    await expect(row).toHaveCount(0, { timeout: 10_000 });
    await expect.poll(() => tileCount(page)).toBe(before);
    await page.locator('label', { hasText: /^Resolved$/ }).click();
    const resolved = page.getByTestId('alert-row').filter({ hasText: name }).first();
    await expect(resolved).toContainText('Resolved');
    await resolved.click();
    await expect(page.getByRole('dialog', { name: 'Alert' })).toContainText('Resolved by itself');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Alert' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'alerts board');
  });

  test('a snoozed condition stays quiet for its whole snooze, while its occurrences are still counted', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const cuff = await quietCuff(request, token, 1);
    const name = boardName(cuff.patient.name);
    await simulateOnce(['--serials', cuff.serial, '--reading', 'systolic=176,diastolic=96']);

    await openAs(page, 'coordinator@caredeck.demo', '/alerts?type=out_range_blood_pressure_alerts');
    const row = page.getByTestId('alert-row').filter({ hasText: name });
    await expect(row).toBeVisible();
    const before = await tileCount(page);
    await row.getByRole('checkbox').check();
    await page.getByTestId('alert-bulk-actions').getByRole('button', { name: 'Snooze' }).click();
    await page.getByRole('menuitem', { name: '4 hours' }).click();
    await expect(page.getByText(/^1 alert snoozed until .+$/)).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect.poll(() => tileCount(page)).toBe(before - 1);

    // The condition goes on: counted, not shown.
    await simulateOnce(['--serials', cuff.serial, '--reading', 'systolic=182,diastolic=99']);
    await page.reload();
    await expect(page.getByTestId(BP_TILE)).toBeVisible();
    await expect(page.getByTestId('alert-row').filter({ hasText: name })).toHaveCount(0);
    const all = await request.get(
      `/api/v1/alerts/out_range_blood_pressure_alerts/day/all?status=all&query=${encodeURIComponent(cuff.patient.name.split(' ')[1]!)}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const alert = (
      (await all.json()) as {
        data: { patient: { id: number }; occurrences: number; snoozed_until: string }[];
      }
    ).data.find((a) => a.patient.id === cuff.patient.id)!;
    expect(alert.occurrences).toBe(2);
    expect(new Date(alert.snoozed_until).getTime()).toBeGreaterThan(Date.now() + 3.9 * 3600_000);
  });

  test('the analytics show the alerts of a period by type and by the staff who handled them', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/alerts-analytics');
    await expect(page.getByRole('heading', { name: 'Alert analytics', level: 1 })).toBeVisible();
    await expect(page.getByTestId('analytics-total')).not.toHaveText('0');
    await expect(page.getByTestId('analytics-by-type')).toContainText('Disconnected dispensers');
    await page.getByText('Last 7 days').click();
    await expect(page).toHaveURL(/start=\d{4}-\d{2}-\d{2}/);
    await expectNoSeriousA11yViolations(page, 'alert analytics');
  });

  test("a physician previews a rule on today's data, saves it, and sets a program threshold", async ({
    page,
  }) => {
    await openAs(page, 'physician@caredeck.demo', '/alerts?tab=rules');
    await page.getByRole('button', { name: 'New rule' }).click();
    const editor = page.getByRole('dialog', { name: 'New rule' });
    await editor.getByLabel('Name').fill('Systolic average above 140');
    await editor.getByLabel('Value').fill('140');
    await editor.getByLabel('Also text the patient when the alert opens').check();
    await expect(editor.getByLabel('Text to the patient')).toHaveValue(/^Hello \{first_name\}/);
    await editor
      .getByLabel('Text to the patient')
      .fill('Hi {first_name}, your blood pressure is high. Please call us.');
    await editor.getByRole('button', { name: 'Who would it hit now?' }).click();
    await expect(editor.getByTestId('rule-preview')).toContainText(
      /Patients who would get this alert now: \d+ of \d+ with a value\./,
    );
    await expectNoSeriousA11yViolations(page, 'rule editor');
    await editor.getByRole('button', { name: 'Save rule' }).click();
    await expect(page.getByText('Rule created')).toBeVisible();
    const row = page
      .getByTestId('rules-table')
      .getByRole('row')
      .filter({ hasText: 'Systolic average above 140' });
    await expect(row).toContainText('Average systolic >= 140 (last 24 h)');
    await expect(row).toContainText('Off');
    await expect(row).toContainText('Texts the patient');

    await page.getByRole('tab', { name: 'Thresholds' }).click();
    await expect(page).toHaveURL(/tab=thresholds/);
    const systolic = page.getByLabel('High systolic (mmHg)');
    await systolic.fill('150');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await expect(page.getByText('Alert settings saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('High systolic (mmHg)')).toHaveValue('150');
    await expect(page.getByText('Set for this program')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'alert thresholds');

    // One patient gets their own limit; what applies and where it comes from shows on each field.
    await page.goto('/patients');
    await page.getByTestId('patient-row').first().getByRole('link').click();
    await expect(page).toHaveURL(/\/patient\/\d+$/);
    await page.goto(`${page.url()}/settings`);
    const own = page.getByLabel('High systolic (mmHg)');
    await expect(page.getByText('Applies: 150 (program)')).toBeVisible();
    await own.fill('170');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await expect(page.getByText('Alert settings saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('High systolic (mmHg)')).toHaveValue('170');
    await expect(page.getByText('Set for this patient')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'patient thresholds');
    await page.getByLabel('High systolic (mmHg)').fill('');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await expect(page.getByText('Applies: 150 (program)')).toBeVisible();

    // Back to the default for the other journeys.
    await page.goto('/alerts?tab=thresholds');
    await page.getByLabel('High systolic (mmHg)').fill('');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await expect(page.getByText('Alert settings saved').first()).toBeVisible();
  });

  test('the dashboards and the escalations show the program live, with no accessibility faults', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/provider-dashboard');
    await expect(page.getByRole('heading', { name: 'Provider dashboard', level: 1 })).toBeVisible();
    await expect(page.getByTestId('dashboard-open-alerts')).not.toHaveText('0');
    await expect(page.getByTestId('dashboard-patients')).not.toHaveText('0');
    await expectNoSeriousA11yViolations(page, 'provider dashboard');
    await page.getByRole('link', { name: 'Pharma dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Pharma dashboard', level: 1 })).toBeVisible();
    await expect(page.getByTestId('dashboard-doses')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'pharma dashboard');
    await page.getByRole('link', { name: 'Escalations' }).click();
    await expect(page.getByRole('heading', { name: 'Escalations', level: 1 })).toBeVisible();
    await expect(page.getByText(/No escalated alerts|Escalation completed/).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'escalations');
    await page.getByRole('link', { name: 'Worklist' }).click();
    await expect(page.getByRole('heading', { name: 'Worklist', level: 1 })).toBeVisible();
    await expect(page.getByTestId('triage').getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'worklist');
  });
});
