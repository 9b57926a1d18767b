import { expect, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, MQTT_PORT, openAs } from './helpers';

// Issue 8 gap "No staff UI to register/provision devices": a care coordinator registers a Medesto dispenser
// for a demo patient from the Devices tab, sees its MQTT secret once (it signs the device in), closes the
// dialog explicitly and finds the dispenser in the patient's list.

test.describe('device registration', () => {
  test.use({ bypassCSP: true });

  test('a coordinator registers a dispenser for a patient and sees its secret once', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const list = await request.get('/api/v1/programs/1/users?per_page=5&sort_by=name&sort_direction=ASC', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status()).toBe(200);
    const patientId = ((await list.json()) as { data: { id: number }[] }).data[0]!.id;
    const serial = `E2E-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patientId}?tab=devices`);
    const panel = page.getByTestId('patient-devices');
    await expect(panel).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'patient record, Devices tab');

    await panel.getByRole('button', { name: 'Add device' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('radio', { name: 'Medesto dispenser' })).toBeChecked();
    // Checked before anything is sent.
    await dialog.getByLabel(/^Serial number/).fill('not a serial!');
    await dialog.getByRole('button', { name: 'Register device' }).click();
    await expect(dialog.getByText(/^Use up to 64 letters/)).toBeVisible();
    await dialog.getByLabel(/^Serial number/).fill(serial);
    await dialog.getByRole('radio', { name: 'Type 2 (command and argument)' }).check();
    await dialog.getByRole('button', { name: 'Register device' }).click();

    // The secret, once, with where the device signs in.
    const once = dialog.getByTestId('device-secret-once');
    await expect(once).toBeVisible();
    await expect(once.getByRole('alert')).toContainText('This secret is shown only once.');
    await expect(once.getByTestId('device-username')).toHaveText(serial);
    await expect(once).toContainText(`:${MQTT_PORT}`);
    await expect(once).toContainText(`devices/${serial}/events`);
    await expectNoSeriousA11yViolations(page, 'Add device dialog, the one-time secret');
    const secret = (await once.getByTestId('device-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // It is the device's real password: the device channel accepts serial and secret (an unknown pod
    // answers 404), and refuses a wrong one (401).
    const basic = (s: string) => `Basic ${Buffer.from(`${serial}:${s}`).toString('base64')}`;
    const signedIn = await request.post('/api/v1/program', {
      headers: { authorization: basic(secret) },
      data: { barcode: 'NO-SUCH-POD' },
    });
    expect(signedIn.status(), await signedIn.text()).toBe(404);
    const refused = await request.post('/api/v1/program', {
      headers: { authorization: basic(`${secret}x`) },
      data: { barcode: 'NO-SUCH-POD' },
    });
    expect(refused.status()).toBe(401);

    // It is not closed away by accident: Escape keeps it, only the explicit button closes it.
    await page.keyboard.press('Escape');
    await expect(once).toBeVisible();
    await once.getByRole('button', { name: 'I have stored the secret' }).click();
    await expect(dialog).toHaveCount(0);

    const row = panel.locator(`tr[data-serial="${serial}"]`);
    await expect(row).toContainText('Dispenser · Type 2');

    // Registering the same serial again says so in the dialog.
    await panel.getByRole('button', { name: 'Add device' }).click();
    await dialog.getByLabel(/^Serial number/).fill(serial);
    await dialog.getByRole('button', { name: 'Register device' }).click();
    await expect(dialog.getByTestId('register-problem')).toContainText(
      'A device with this serial number is already registered.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(panel.locator(`tr[data-serial="${serial}"]`)).toHaveCount(1);
  });

  // ADR 051: a device whose secret is lost or leaked is given a new one from the same tab.
  test('a coordinator gives a device a new secret: the old one stops working', async ({ page, request }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const headers = { authorization: `Bearer ${token}` };
    const list = await request.get('/api/v1/programs/1/users?per_page=5&sort_by=name&sort_direction=ASC', {
      headers,
    });
    const patientId = ((await list.json()) as { data: { id: number }[] }).data[1]!.id;
    const serial = `E2E-NS-${Date.now().toString(36)}`.toUpperCase();
    const created = await request.post('/api/v1/devices/medesto', {
      headers,
      data: { serial, dispenser_type: 1, program_id: 1, patient_id: patientId },
    });
    expect(created.status(), await created.text()).toBe(201);
    const oldSecret = ((await created.json()) as { secret: string }).secret;
    const nfc = (s: string) =>
      request.post('/api/v1/program', {
        headers: { authorization: `Basic ${Buffer.from(`${serial}:${s}`).toString('base64')}` },
        data: { barcode: 'NO-SUCH-POD' },
      });
    expect((await nfc(oldSecret)).status()).toBe(404);

    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patientId}?tab=devices`);
    const row = page.getByTestId('patient-devices').locator(`tr[data-serial="${serial}"]`);
    await row.getByRole('button', { name: `New secret for ${serial}` }).click();
    const confirm = page.getByRole('dialog', { name: `Give ${serial} a new secret?` });
    await confirm.getByRole('button', { name: 'Issue new secret' }).click();
    const once = page.getByRole('dialog', { name: `New secret for ${serial}: store it now` });
    await expect(once.getByRole('alert')).toContainText('This secret is shown only once.');
    await expectNoSeriousA11yViolations(page, 'New secret, the one-time secret');
    const secret = (await once.getByTestId('device-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(secret).not.toBe(oldSecret);
    expect((await nfc(oldSecret)).status()).toBe(401);
    expect((await nfc(secret)).status()).toBe(404);
    await once.getByRole('button', { name: 'I have stored the secret' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
