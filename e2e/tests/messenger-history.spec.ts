import { expect, test } from './fixtures';
import { apiAccessToken, openAs } from './helpers';

// Issue 9 §1: a long conversation opens on its latest messages; older ones load on demand, in order.

test('a long conversation shows its latest messages and loads the older ones on demand', async ({
  page,
  request,
}) => {
  const physician = await apiAccessToken(request, 'physician@caredeck.demo');
  const coordinator = await apiAccessToken(request, 'coordinator@caredeck.demo');
  const coordinatorId = (
    (await (
      await request.get('/api/v1/user', { headers: { authorization: `Bearer ${coordinator}` } })
    ).json()) as {
      id: number;
    }
  ).id;
  const created = await request.post('/api/v1/messenger/conversations', {
    headers: { authorization: `Bearer ${physician}` },
    data: { program_id: 1, name: `Handover log ${Date.now().toString(36)}`, users: [coordinatorId] },
  });
  const id = ((await created.json()) as { data: { id: number } }).data.id;
  for (let i = 1; i <= 60; i++) {
    const posted = await request.post(`/api/v1/messenger/conversations/${id}/messages`, {
      headers: { authorization: `Bearer ${physician}` },
      data: { body: `Handover note ${String(i).padStart(2, '0')}` },
    });
    expect(posted.status()).toBe(201);
  }

  await openAs(page, 'coordinator@caredeck.demo', `/messenger?c=${id}`);
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByText('Handover note 60')).toBeVisible();
  await expect(log.getByText('Handover note 01')).toHaveCount(0);
  await log.getByRole('button', { name: 'Show older messages' }).click();
  await expect(log.getByText('Handover note 01')).toBeVisible();
  await expect(log.getByRole('button', { name: 'Show older messages' })).toHaveCount(0);
  const notes = await log.getByText(/^Handover note \d\d$/).allTextContents();
  expect(notes).toHaveLength(60);
  expect(notes).toEqual([...notes].sort());
});
