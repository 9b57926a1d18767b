import { expect, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, openAs } from './helpers';

// Issue 9 §4: the staff notification bell, a patient's notifications with their delivery state, and audio
// reminders assigned to a patient.

test.describe('Notifications', () => {
  test.use({ bypassCSP: true });

  test('the bell counts a mention live and opens its conversation', async ({ page, request }) => {
    const physician = await apiAccessToken(request, 'physician@caredeck.demo');
    const coordinator = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const me = await request.get('/api/v1/user', { headers: { authorization: `Bearer ${coordinator}` } });
    const coordinatorId = ((await me.json()) as { id: number }).id;
    const name = `Bell check ${Date.now().toString(36)}`;
    const created = await request.post('/api/v1/messenger/conversations', {
      headers: { authorization: `Bearer ${physician}` },
      data: { program_id: 1, name, users: [coordinatorId] },
    });
    expect(created.status()).toBe(201);
    const conversationId = ((await created.json()) as { data: { id: number } }).data.id;

    await openAs(page, 'coordinator@caredeck.demo', '/patients');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toBeVisible();
    // Being added to the conversation is one notification; the mention arrives live on top of it.
    const before = await bell.getAttribute('aria-label');
    const posted = await request.post(`/api/v1/messenger/conversations/${conversationId}/messages`, {
      headers: { authorization: `Bearer ${physician}` },
      data: { body: 'Carlos, can you call Mrs Lee about her refill?', mentions: [coordinatorId] },
    });
    expect(posted.status()).toBe(201);
    await expect(bell).not.toHaveAttribute('aria-label', before ?? '');
    await expect(bell).toHaveAttribute('aria-label', /Notifications, \d+ unread/);

    await bell.click();
    const panel = page.getByRole('dialog', { name: /^Notifications/ });
    const mention = panel.getByRole('button', { name: new RegExp(`mentioned you in ${name}`) });
    await expect(mention).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'notification bell', '[role="dialog"]');
    // Mark all read: the count goes; the notifications stay listed, read.
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell).toHaveAttribute('aria-label', 'Notifications');
    await expect(panel.getByRole('button', { name: /^Unread:/ })).toHaveCount(0);
    await panel.getByRole('button', { name: new RegExp(`mentioned you in ${name}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/messenger\\?c=${conversationId}`));
    await expect(
      page.getByRole('log', { name: 'Messages' }).getByText('Carlos, can you call Mrs Lee about her refill?'),
    ).toBeVisible();
  });

  test('a coordinator notifies a patient, sees the delivery, and assigns audio reminders', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const res = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', {
      headers: { authorization: `Bearer ${token}` },
    });
    const patient = (
      (await res.json()) as { data: { id: number; phone_number: string | null }[] }
    ).data.filter((p) => p.phone_number)[5]!;
    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patient.id}?tab=notifications`);

    await page.getByRole('textbox', { name: 'Title' }).fill('Pharmacy');
    await page
      .getByRole('textbox', { name: 'Notification', exact: true })
      .fill('Your refill is ready for pick-up.');
    await page.getByRole('button', { name: 'Send notification' }).click();
    await expect(page.getByText('Notification sent')).toBeVisible();
    const history = page.getByTestId('notification-history');
    await expect(history.getByRole('row', { name: /Pharmacy/ })).toContainText(/SMS/);
    await expect(history.getByRole('row', { name: /Pharmacy/ })).toContainText(/Delivered|Sent|Queued/);

    await page.getByRole('button', { name: 'Assign audio reminders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign audio reminders' });
    await dialog.getByRole('combobox', { name: 'Audios' }).click();
    await page.getByRole('option', { name: /Evening medication reminder/ }).click();
    await dialog.getByRole('textbox', { name: 'Time' }).fill('20:30');
    await dialog.getByRole('textbox', { name: 'Number of days' }).fill('14');
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect(page.getByText('Audios Assigned!')).toBeVisible();
    await expect(page.getByText(/Evening medication reminder daily at 20:30/)).toBeVisible();

    // A recurring reminder: scheduled, listed with its next sending, then stopped after a confirmation.
    await page.getByRole('button', { name: 'Schedule a reminder' }).click();
    const reminder = page.getByRole('dialog', { name: 'Schedule a reminder' });
    await reminder.getByRole('textbox', { name: 'Title' }).fill('Blood pressure');
    await reminder
      .getByRole('textbox', { name: 'Notification' })
      .fill('Please take your blood pressure reading.');
    await reminder.getByRole('textbox', { name: 'Time (the patient’s)' }).fill('07:45');
    await reminder.getByRole('button', { name: 'Schedule' }).click();
    await expect(page.getByText('Reminder scheduled')).toBeVisible();
    const listed = page.getByTestId('reminders').getByRole('listitem').filter({ hasText: 'Blood pressure' });
    await expect(listed).toContainText('SMS, every day at 07:45');
    await expect(listed).toContainText('Next:');
    await listed.getByRole('button', { name: 'Stop' }).click();
    await page
      .getByRole('dialog', { name: 'Stop the reminder Blood pressure?' })
      .getByRole('button', { name: 'Stop' })
      .click();
    await expect(page.getByText('Reminder stopped')).toBeVisible();
    await expect(listed).toContainText('Ended');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'patient notifications');
  });

  test('messenger settings: Ctrl+Enter sends, and mentions can go without a notice', async ({
    page,
    request,
  }) => {
    const physician = await apiAccessToken(request, 'physician@caredeck.demo');
    const admin = await apiAccessToken(request, 'admin@caredeck.demo');
    const adminId = (
      (await (
        await request.get('/api/v1/user', { headers: { authorization: `Bearer ${admin}` } })
      ).json()) as {
        id: number;
      }
    ).id;
    // Start from the defaults, whatever an earlier run kept.
    await request.post('/api/v1/user-memory/delete', {
      headers: { authorization: `Bearer ${admin}` },
      data: { module_name: 'messenger', program_id: 1 },
    });
    const name = `Settings check ${Date.now().toString(36)}`;
    const created = await request.post('/api/v1/messenger/conversations', {
      headers: { authorization: `Bearer ${physician}` },
      data: { program_id: 1, name, users: [adminId] },
    });
    const conversationId = ((await created.json()) as { data: { id: number } }).data.id;

    await openAs(page, 'admin@caredeck.demo', `/messenger?c=${conversationId}`);
    await page.getByRole('button', { name: 'Messenger settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Messenger settings' });
    await dialog.getByRole('radio', { name: 'Ctrl+Enter sends, Enter starts a new line' }).check();
    await dialog.getByRole('checkbox', { name: 'someone mentions me' }).uncheck();
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Data Stored')).toBeVisible();

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('First line');
    await box.press('Enter');
    await box.pressSequentially('second line');
    await expect(box).toHaveValue('First line\nsecond line');
    await box.press('Control+Enter');
    await expect(box).toHaveValue('');
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('second line')).toBeVisible();

    // A mention elsewhere counts on the bell but shows no notice.
    await page.goto('/patients');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toBeVisible();
    const before = await bell.getAttribute('aria-label');
    await request.post(`/api/v1/messenger/conversations/${conversationId}/messages`, {
      headers: { authorization: `Bearer ${physician}` },
      data: { body: 'Avery, a quick question.', mentions: [adminId] },
    });
    await expect(bell).not.toHaveAttribute('aria-label', before ?? '');
    await page.waitForTimeout(500);
    await expect(page.getByText(`mentioned you in ${name}`)).toHaveCount(0);
    await request.post('/api/v1/user-memory/delete', {
      headers: { authorization: `Bearer ${admin}` },
      data: { module_name: 'messenger', program_id: 1 },
    });
  });
});
