import { expect, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, openAs } from './helpers';

// 02 §7 "Notes and follow-ups" on the patient record: write, follow up, pin, edit with history, complete,
// the calendar, delete after a confirmation.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

test.describe('Notes', () => {
  test.use({ bypassCSP: true });

  test('a coordinator writes a note with a file and a follow-up, edits it, completes the follow-up', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const res = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', {
      headers: { authorization: `Bearer ${token}` },
    });
    const patient = ((await res.json()) as { data: { id: number }[] }).data[7]!;
    const stamp = Date.now().toString(36);
    const today = new Date();
    const iso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;

    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patient.id}?tab=notes`);
    const box = page.getByRole('textbox', { name: 'New note' });
    await box.fill(`Called about missed evening doses ${stamp}`);
    await page.getByRole('textbox', { name: 'Follow-up on' }).fill(iso);
    await page.getByRole('textbox', { name: 'Follow-up on' }).blur();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles({ name: 'care-plan.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Save note' }).click();
    await expect(page.getByText('Note created')).toBeVisible();
    await expect(box).toHaveValue('');

    const note = page.getByRole('article').filter({ hasText: `Called about missed evening doses ${stamp}` });
    await expect(note).toContainText('care-plan.pdf');
    await expect(note.getByTestId('follow-up')).toContainText('Due');
    await expect(page.getByTestId('next-follow-up')).toContainText('Follow-up due');
    await expectNoSeriousA11yViolations(page, 'patient notes');

    // Pin, then edit: the earlier text stays in the history.
    await note.getByRole('button', { name: 'Note actions' }).click();
    await page.getByRole('menuitem', { name: 'Pin' }).click();
    await expect(page.getByText('Note pinned')).toBeVisible();
    await note.getByRole('button', { name: 'Note actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit the note' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit the note' });
    await editor.getByRole('textbox').fill(`Called about missed evening doses ${stamp}; daughter will help.`);
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Note updated')).toBeVisible();
    const edited = page.getByRole('article').filter({ hasText: 'daughter will help.' });
    await edited.getByRole('button', { name: 'Edited (1)' }).click();
    const history = page.getByRole('dialog', { name: 'History' });
    await expect(history).toContainText('Text changed');
    await expect(history).toContainText(`Called about missed evening doses ${stamp}`);
    await history.getByRole('button', { name: 'Close' }).click();

    await edited.getByRole('button', { name: 'Complete' }).click();
    await expect(page.getByText('Follow-up completed')).toBeVisible();
    await expect(edited.getByTestId('follow-up')).toContainText('completed by Carlos Diaz');

    // The calendar shows today's note.
    await page
      .locator('label')
      .filter({ hasText: /^Calendar$/ })
      .click();
    await page.getByRole('button', { name: new RegExp(`^${today.getDate()}: notes [1-9]`) }).click();
    await expect(page.getByText('daughter will help.')).toBeVisible();
    await page
      .locator('label')
      .filter({ hasText: /^List$/ })
      .click();

    // Deleting asks first.
    await edited.getByRole('button', { name: 'Note actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this note?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('Note deleted')).toBeVisible();
    await expect(page.getByRole('article').filter({ hasText: 'daughter will help.' })).toHaveCount(0);
  });

  test('an image the patient texted is kept as a note from the Messages tab', async ({ page, request }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const res = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', {
      headers: { authorization: `Bearer ${token}` },
    });
    const patient = ((await res.json()) as { data: { id: number }[] }).data[8]!;
    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patient.id}?tab=messages`);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Keep an image as a note' }).click();
    await (await chooser).setFiles({ name: 'pill-organiser.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText('Image note created')).toBeVisible();
    await page.getByRole('tab', { name: 'Notes' }).click();
    const note = page.getByRole('article').filter({ hasText: 'pill-organiser.png' });
    await expect(note).toContainText('Image from a text');
  });
});
