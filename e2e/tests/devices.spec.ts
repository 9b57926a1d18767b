import type { ChildProcess } from 'node:child_process';
import { type APIRequestContext, expect, test } from './fixtures';
import { apiAccessToken, DEMO_PASSWORD, openAs, simulate, simulateOnce } from './helpers';

// Issue 8, "Done means": the simulator runs live for demo patients; a dose taken on the simulated
// dispenser appears on the patient's adherence calendar without a reload, and commands sent from
// /controller reach the simulated type 1 and type 2 dispensers and their replies show.

type Device = {
  id: number;
  serial: string;
  dispenser_type: number;
  program_id: number;
  patient: { id: number; name: string } | null;
};

async function demoDispensers(request: APIRequestContext, token: string) {
  const res = await request.get('/api/v1/devices?kind=dispenser', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: Device[] };
  const ofType = (t: number) =>
    data.find((d) => d.dispenser_type === t && d.patient && d.serial.startsWith('CD-'))!;
  return { type1: ofType(1), type2: ofType(2) };
}

test.describe('devices', () => {
  let live: ChildProcess | null = null;
  test.afterEach(() => {
    live?.kill('SIGTERM');
    live = null;
  });

  test('a dose taken on a simulated dispenser appears on the adherence calendar without a reload', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const auth = { authorization: `Bearer ${token}` };
    const { type1 } = await demoDispensers(request, token);
    const programId = type1.program_id;
    const patientId = type1.patient!.id;
    const record = await request.get(`/api/v1/programs/${programId}/users/${patientId}`, { headers: auth });
    const zone = ((await record.json()) as { time_zone: string | null }).time_zone ?? 'America/New_York';

    // A regimen due now in the patient's zone: its dose is pending until the dispenser reports it.
    const now = new Date();
    const hhmm = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(now);
    const name = `Vitamin D ${Date.now().toString(36)}`;
    const order = await request.post(`/api/v1/programs/${programId}/users/${patientId}/orders`, {
      headers: auth,
      data: { drug_name: name },
    });
    expect(order.status(), await order.text()).toBe(201);
    const orderId = ((await order.json()) as { id: number }).id;
    const regimen = await request.post(
      `/api/v1/programs/${programId}/users/${patientId}/orders/${orderId}/regimens`,
      {
        headers: auth,
        data: {
          name,
          time: [hhmm],
          lockout_time: 120,
          unlock_before: 30,
          scheduled_at: new Date(now.getTime() - 86_400_000).toISOString(),
        },
      },
    );
    expect(regimen.status(), await regimen.text()).toBe(201);
    const regimenId = ((await regimen.json()) as { id: number }).id;

    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patientId}?tab=adherence`);
    await expect(page).toHaveURL(new RegExp(`/patient/${patientId}\\?tab=adherence$`));
    const today = page.getByTestId('day-doses');
    const row = today.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Pending');

    // The dispenser reports the dose over MQTT; the gateway acknowledges it once stored.
    const out = await simulateOnce(['--serials', type1.serial, '--dose-now', '--regimen', String(regimenId)]);
    expect(out).toContain(`${type1.serial} dose_taken acknowledged`);
    await expect(row).toContainText('On time', { timeout: 10_000 });
    await expect(row).toContainText('taken');
  });

  test('commands from /controller reach simulated type 1 and type 2 dispensers and their replies show', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const { type1, type2 } = await demoDispensers(request, token);
    live = simulate(['--serials', `${type1.serial},${type2.serial}`, '--live']);
    let output = '';
    live.stdout?.on('data', (c) => {
      output += String(c);
    });
    await expect.poll(() => output, { timeout: 15_000 }).toContain('live: answering commands');

    await page.goto('/controller');
    await page.getByLabel('Email').fill('controller@caredeck.demo');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('fleet-table')).toBeVisible();
    await expect(page.getByTestId('gateway-status')).toContainText('Embedded broker, port');

    await page.getByLabel('Find a serial number').fill(type1.serial);
    await page.getByRole('button', { name: type1.serial }).click();
    const panel = page.getByTestId('dispenser-panel');
    await expect(panel).toContainText(`Dispenser ${type1.serial}`);
    await expect(panel.getByText('Connected')).toBeVisible();
    await panel.getByLabel(/^Command line/).fill('status');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByTestId('command-reply')).toContainText('"battery"');
    await expect(panel.getByTestId('command-reply')).toContainText('"firmware"');

    await page.getByLabel('Find a serial number').fill(type2.serial);
    await page.getByRole('button', { name: type2.serial }).click();
    await expect(panel).toContainText(`Dispenser ${type2.serial}`);
    await panel.getByLabel(/^Command( \*)?$/).fill('dispense');
    await panel.getByLabel('Argument').fill('1');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByTestId('command-reply')).toContainText('"dispensed": 1');
    expect(output).toContain(`${type2.serial} command`);

    // Live: when the dispensers go away, the console says so within seconds (its polling is every 30 s).
    live.kill('SIGTERM');
    await expect(panel.getByText('Seen recently')).toBeVisible({ timeout: 8_000 });
  });

  test('a coordinator follows a dispenser live and sends it a dose schedule from the Devices tab', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const { type2 } = await demoDispensers(request, token);
    const patientId = type2.patient!.id;
    live = simulate(['--serials', type2.serial, '--live']);
    let output = '';
    live.stdout?.on('data', (c) => {
      output += String(c);
    });
    await expect.poll(() => output, { timeout: 15_000 }).toContain('live: answering commands');

    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patientId}?tab=devices`);
    const panel = page.getByTestId('patient-devices');
    await expect(panel.locator(`[data-serial="${type2.serial}"]`)).toContainText('Connected');

    await panel.getByRole('switch', { name: 'Follow' }).check();
    await expect(panel.getByText('Events appear here as the dispenser sends them.')).toBeVisible();
    await simulateOnce(['--serials', type2.serial, '--dose-now']);
    await expect(panel.getByTestId('live-events')).toContainText('Dose taken');
    await panel.getByRole('switch', { name: 'Follow' }).uncheck();
    await expect(panel.getByText('Follow the dispenser to see its events as they happen.')).toBeVisible();

    await panel.getByLabel('Times (HH:MM, comma-separated)').fill('8am');
    await panel.getByRole('button', { name: 'Send schedule' }).click();
    await expect(panel.getByText('Enter times of day as HH:MM, e.g. 08:00, 20:00.')).toBeVisible();
    await panel.getByLabel('Times (HH:MM, comma-separated)').fill('07:30, 19:30');
    await panel.getByRole('button', { name: 'Send schedule' }).click();
    await expect(page.getByText('Device Schedule Created')).toBeVisible();
    await expect(panel.getByTestId('schedules').getByRole('row').nth(1)).toContainText('07:30, 19:30');
    await expect(panel.getByTestId('schedules').getByRole('row').nth(1)).toContainText(
      'Sent to the dispenser',
    );
    await expect.poll(() => output).toContain('set_schedule');
  });
});
