import { expect, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, openAs } from './helpers';

// 02 §2: /patient/{id}/escalation-messages and /messages-history, /group/{id}/escalation-messages and
// /messages-history.

type Patient = { id: number; first_name: string; phone_number: string | null };

test.describe('Escalation messages', () => {
  test.use({ bypassCSP: true });

  test("a patient's escalated note is inactivated there, and every message shows in the history", async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const headers = { authorization: `Bearer ${token}` };
    const list = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', { headers });
    const patient = ((await list.json()) as { data: Patient[] }).data.filter((p) => p.phone_number)[9]!;
    const stamp = Date.now().toString(36);
    const note = await request.post(`/api/v1/users/${patient.id}/notes`, {
      headers,
      data: { body: `Chest pain reported ${stamp}`, escalate: true },
    });
    expect(note.status()).toBe(201);
    await request.post(`/api/v1/programs/1/users/${patient.id}/sms`, {
      headers,
      data: { message: `Please call the clinic today ${stamp}` },
    });
    await request.post(`/api/v1/programs/1/users/${patient.id}/notifications`, {
      headers,
      data: { type: 'email', title: `Appointment ${stamp}`, body: 'Tomorrow at 9:00.' },
    });

    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patient.id}`);
    await page.getByRole('link', { name: 'Escalation messages' }).click();
    await expect(page).toHaveURL(new RegExp(`/patient/${patient.id}/escalation-messages`));
    await expect(page.getByText(`Chest pain reported ${stamp}`)).toBeVisible();
    await expect(page.getByRole('log', { name: 'Text messages' })).toContainText(
      `Please call the clinic today ${stamp}`,
    );
    await expectNoSeriousA11yViolations(page, 'patient escalation messages');
    await page.getByRole('button', { name: 'Inactivate escalation' }).first().click();
    await expect(page.getByText(`Chest pain reported ${stamp}`)).toHaveCount(0);

    await page.getByRole('link', { name: 'Messages history' }).click();
    const history = page.getByTestId('messages-history');
    await expect(
      history.getByRole('row', { name: new RegExp(`Please call the clinic today ${stamp}`) }),
    ).toContainText('SMS');
    await expect(history.getByRole('row', { name: new RegExp(`Appointment ${stamp}`) })).toContainText(
      'E-mail',
    );
    await page
      .locator('label')
      .filter({ hasText: /^Notifications$/ })
      .click();
    await expect(
      history.getByRole('row', { name: new RegExp(`Please call the clinic today ${stamp}`) }),
    ).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'patient messages history');
  });

  test('a coordinator texts a whole cohort and sees the delivery in its history', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const headers = { authorization: `Bearer ${token}` };
    const list = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', { headers });
    const withPhones = ((await list.json()) as { data: Patient[] }).data.filter((p) => p.phone_number);
    const stamp = Date.now().toString(36);
    const cohort = await request.post('/api/v1/programs/1/groups', {
      headers,
      data: { name: `Heart failure class ${stamp}`, users: [withPhones[10]!.id, withPhones[11]!.id] },
    });
    expect(cohort.status()).toBe(201);
    const groupId = ((await cohort.json()) as { id: number }).id;

    await openAs(page, 'coordinator@caredeck.demo', `/group/${groupId}`);
    await page.getByRole('link', { name: 'Escalation messages' }).click();
    await expect(page.getByText('No patient of this cohort has an escalated alert.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Text to the cohort' }).fill(`Class moved to Friday ${stamp}`);
    await page.getByRole('button', { name: 'Send to the cohort' }).click();
    await expect(page.getByText('Texted 2 patients (0 without a mobile phone)')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'cohort escalation messages');

    await page.getByRole('link', { name: 'Messages history' }).click();
    const row = page
      .getByTestId('group-messages')
      .getByRole('row', { name: new RegExp(`Class moved to Friday ${stamp}`) });
    await expect(row).toContainText(/Delivered: 2|Queued: 2|Sent: 2/);
  });
});
