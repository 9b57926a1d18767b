import { expect, test } from './fixtures';
import { apiAccessToken, openAs } from './helpers';

// Issue 32 item 2, ADR 054: one date format per language. In English a date is typed the way the console shows
// it (MM/DD/YYYY); a shape that could be read another way is refused in the field; the field says in words the
// day that will be saved, and that day is stored.

test('a follow-up typed in English is read month first, said in words and stored as meant', async ({
  page,
  request,
}) => {
  const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
  const headers = { authorization: `Bearer ${token}` };
  const res = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', { headers });
  const patient = ((await res.json()) as { data: { id: number }[] }).data[9]!;
  const year = new Date().getFullYear() + 1;
  const stamp = Date.now().toString(36);

  await openAs(page, 'coordinator@caredeck.demo', `/patient/${patient.id}?tab=notes`);
  await page.getByRole('textbox', { name: 'New note' }).fill(`Review the inhaler technique ${stamp}`);
  const followUp = page.getByRole('textbox', { name: 'Follow-up on' });
  await expect(followUp).toHaveAttribute('placeholder', 'MM/DD/YYYY');

  // The day-first German shape is not guessed at.
  await followUp.fill(`04.12.${year}`);
  await followUp.blur();
  await expect(page.getByText('Enter the date as MM/DD/YYYY.')).toBeVisible();

  await followUp.fill(`12/04/${year}`);
  await followUp.blur();
  await expect(page.getByText(`Saved as December 4, ${year}`)).toBeVisible();
  await expect(page.getByText('Enter the date as MM/DD/YYYY.')).toBeHidden();
  await page.getByRole('button', { name: 'Save note' }).click();
  await expect(page.getByText('Note created')).toBeVisible();

  const note = page.getByRole('article').filter({ hasText: `Review the inhaler technique ${stamp}` });
  await expect(note.getByTestId('follow-up')).toBeVisible();
  const list = await request.get(`/api/v1/users/${patient.id}/notes?per_page=50`, { headers });
  const saved = (
    (await list.json()) as { data: { body: string; follow_up: { date: string } | null }[] }
  ).data.find((n) => n.body.includes(stamp));
  expect(saved?.follow_up?.date.slice(0, 10)).toBe(`${year}-12-04`);
});
