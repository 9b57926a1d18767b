import { expect, test } from './fixtures';

// Issue 32 item 8: a first visit (no session on this browser) asks nothing that answers with an error status,
// so the browser's console stays clean; the sign-in page shows no "session expired" notice.
test('a first visit shows the sign-in page without an error answer or a session notice', async ({ page }) => {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto('/patients');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByText(/session (has )?expired/i)).toHaveCount(0);
  expect(failures).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
