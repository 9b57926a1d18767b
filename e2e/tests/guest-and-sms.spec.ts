import { type APIRequestContext, expect, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, openAs, simulateInboundSms } from './helpers';

// Issue 9, "Done means": an SMS to a demo patient appears through the log transport and a simulated inbound
// reply lands in the thread; a guest opens the link on a phone-sized viewport, replies, and staff see it live.

type Patient = { id: number; first_name: string; last_name: string; phone_number: string | null };

/** A demo patient of CareDeck Monitoring (program 1) with a mobile phone, skipping the first `skip`. */
async function patientWithPhone(request: APIRequestContext, token: string, skip: number): Promise<Patient> {
  const res = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', {
    headers: { authorization: `Bearer ${token}` },
  });
  const rows = ((await res.json()) as { data: Patient[] }).data.filter((p) => p.phone_number);
  return rows[skip]!;
}

test.describe('SMS and the guest channel', () => {
  test.use({ bypassCSP: true });

  test("a text to a patient is delivered by the log transport; the patient's reply lands in the thread live", async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const patient = await patientWithPhone(request, token, 0);
    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patient.id}?tab=messages`);
    const box = page.getByRole('textbox', { name: 'Text message' });
    await box.fill('Reminder: your evening dose is at 8 pm.');
    await page.getByRole('button', { name: 'Send text' }).click();
    await expect(box).toHaveValue('');
    const log = page.getByRole('log', { name: 'Text messages' });
    const sent = log.locator('[data-sms-id]').filter({ hasText: 'Reminder: your evening dose is at 8 pm.' });
    // Queued, then delivered by the outbox worker (log transport), shown live.
    await expect(sent).toContainText('Delivered', { timeout: 15_000 });

    await simulateInboundSms(request, { from: patient.phone_number!, body: 'Taken, thank you!' });
    const reply = log.locator('[data-sms-id]').filter({ hasText: 'Taken, thank you!' });
    await expect(reply).toContainText('Received');
    await expect(reply).toContainText('Patient');
    await expectNoSeriousA11yViolations(page, 'patient text messages');
  });

  test('a text from an unknown number shows under Alerts, is read when opened, and gets an answer', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const phone = `+1412555${String(Date.now()).slice(-4)}`;
    // The program texted the number first (a relative's phone), so the reply is the program's.
    const first = await request.post('/api/v1/programs/1/temp-user-message', {
      headers: { authorization: `Bearer ${token}` },
      data: { phone_number: phone, message: 'Please call us back about your mother.' },
    });
    expect(first.status()).toBe(201);
    await openAs(page, 'coordinator@caredeck.demo', '/alerts?type=temp_text_messages');
    const threads = page.getByTestId('temp-threads');
    await expect(threads.getByRole('row', { name: new RegExp(phone.replace('+', '\\+')) })).toBeVisible();

    await simulateInboundSms(request, { from: phone, body: 'This is her daughter, when can I call?' });
    const row = threads.getByRole('row', { name: new RegExp(phone.replace('+', '\\+')) });
    await expect(row).toContainText('Unread: 1');
    await expect(row).toContainText('This is her daughter');
    await expectNoSeriousA11yViolations(page, 'texts from unknown numbers');

    await row.getByRole('button', { name: `Open the texts of ${phone}` }).click();
    const drawer = page.getByRole('dialog', { name: `Texts with ${phone}` });
    await expect(drawer.getByRole('log', { name: 'Texts' })).toContainText('when can I call?');
    await expect(row).not.toContainText('Unread');
    await drawer.getByRole('textbox', { name: /Answer/ }).fill('Any time before 5 pm on 412-555-0100.');
    await drawer.getByRole('button', { name: 'Send text' }).click();
    await expect(drawer.getByRole('log', { name: 'Texts' })).toContainText('Any time before 5 pm');
  });

  test('a guest opens the link on a phone, replies, and the staff see it live', async ({
    browser,
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'physician@caredeck.demo');
    const patient = await patientWithPhone(request, token, 1);
    const name = `Family of ${patient.first_name} ${Date.now().toString(36)}`;
    const created = await request.post('/api/v1/messenger/conversations', {
      headers: { authorization: `Bearer ${token}` },
      data: { program_id: 1, name, users: [] },
    });
    expect(created.status(), await created.text()).toBe(201);
    const id = ((await created.json()) as { data: { id: number } }).data.id;

    await openAs(page, 'physician@caredeck.demo', `/messenger?c=${id}`);
    const staffLog = page.getByRole('log', { name: 'Messages' });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(`Hello, this is Dr Raman about ${patient.first_name}'s new inhaler.`);
    await box.press('Enter');
    await expect(staffLog).toContainText('new inhaler');

    // The invitation goes by SMS to the patient's phone.
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Invite a guest' }).click();
    const dialog = page.getByRole('dialog', { name: 'Guests' });
    await dialog.getByRole('combobox', { name: 'Patient' }).fill(patient.last_name);
    await page
      .getByRole('option', { name: new RegExp(`${patient.first_name} ${patient.last_name}`) })
      .first()
      .click();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(dialog).toContainText(`•••• ${patient.phone_number!.slice(-4)}`);
    await expect(dialog).toContainText('Valid until');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The link, as the patient's phone received it (the console shows the texts it sent).
    const texts = await request.get(`/api/v1/programs/1/users/${patient.id}/sms`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const invitation = ((await texts.json()) as { data: { body: string; kind: string }[] }).data.find(
      (m) => m.kind === 'guest_invite',
    )!;
    const link = /(https?:\/\/\S+\/guest\/external-redirect\?token=[A-Za-z0-9_.-]+)/.exec(
      invitation.body,
    )![1]!;

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const guest = await phone.newPage();
      await guest.goto(link);
      await expect(guest).toHaveURL(/\/guest\/messenger\?sender=\d+&receiver=\d+&conversation=\d+/);
      await expect(guest.getByRole('heading', { name, level: 1 })).toBeVisible();
      const guestLog = guest.getByRole('log', { name: 'Messages' });
      await expect(guestLog).toContainText('new inhaler');
      // Nothing of the staff beyond the conversation: no e-mail address on the page.
      await expect(guest.locator('body')).not.toContainText('@caredeck.demo');
      const reply = guest.getByRole('textbox', { name: 'Your message' });
      await reply.fill('Thank you, he started it this morning.');
      await guest.getByRole('button', { name: 'Send' }).click();
      await expect(guestLog).toContainText('he started it this morning');
      await expectNoSeriousA11yViolations(guest, 'guest messenger on a phone');

      // The staff see the guest's reply live, marked as a guest's.
      const fromGuest = staffLog
        .locator('[data-message-id]')
        .filter({ hasText: 'he started it this morning' });
      await expect(fromGuest).toContainText('Guest');

      // And the guest sees the staff's answer live.
      await box.fill('Great, thank you!');
      await box.press('Enter');
      await expect(guestLog).toContainText('Great, thank you!');

      // Without its ids the guest messenger is not for anyone.
      await guest.goto('/guest/messenger?sender=1');
      await expect(guest).toHaveURL(/\/error\/not-authorized/);
    } finally {
      await phone.close();
    }
  });
});
