import { type Browser, expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

// Issue 9, "Done means": two staff in two browsers chat live; a mention notifies; an urgent message shows
// until the other acknowledges; a PHI attachment is hidden from the others until its sender confirms it.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

async function staffPage(browser: Browser, email: string, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openAs(page, email, path);
  return page;
}

/** The physician starts a conversation with the coordinator from the messenger; returns its URL id. */
async function startConversation(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'New conversation' }).click();
  const dialog = page.getByRole('dialog', { name: 'New conversation' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('combobox', { name: 'People' }).click();
  await page.getByRole('option', { name: /Carlos Diaz/ }).click();
  // Leaving the field closes its list, which covers the dialog's buttons.
  await dialog.getByLabel('Name').click();
  await dialog.getByRole('button', { name: 'Start conversation' }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  return new URL(page.url()).searchParams.get('c') ?? '';
}

async function send(page: Page, text: string, opts: { urgent?: boolean; mention?: string } = {}) {
  if (opts.mention) {
    await page.getByRole('combobox', { name: 'Mention' }).click();
    await page.getByRole('option', { name: opts.mention }).click();
    await page.keyboard.press('Escape');
  }
  if (opts.urgent) await page.getByRole('checkbox', { name: 'Urgent' }).check();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(box).toHaveValue('');
}

test.describe('messenger', () => {
  test.use({ bypassCSP: true });
  // Two browsers, uploads and live updates each: longer journeys than most.
  test.describe.configure({ timeout: 120_000 });

  test('two staff chat live: a mention notifies, an urgent message stays until the other acknowledges', async ({
    browser,
  }) => {
    const name = `Huddle ${Date.now().toString(36)}`;
    const priya = await staffPage(browser, 'physician@caredeck.demo', '/messenger');
    const carlos = await staffPage(browser, 'coordinator@caredeck.demo', '/patients');
    try {
      await expect(priya.getByRole('heading', { name: 'Messenger', level: 1 })).toBeVisible();
      // The demo team's conversation is there, with its exchange.
      await expect(priya.getByRole('navigation', { name: 'Conversations' })).toContainText(
        'Monitoring care team',
      );
      await expectNoSeriousA11yViolations(priya, 'messenger');
      const id = await startConversation(priya, name);

      // A mention reaches Carlos wherever he is, as a toast that opens the conversation.
      await send(priya, 'Carlos, can you call the Hills family about tonight’s dose?', {
        mention: 'Carlos Diaz',
      });
      await expect(priya.getByRole('log', { name: 'Messages' })).toContainText('@Carlos Diaz');
      const notice = carlos.getByRole('link', { name: `Priya Raman mentioned you in ${name}` });
      await expect(notice).toBeVisible({ timeout: 10_000 });
      await notice.click();
      await expect(carlos).toHaveURL(new RegExp(`/messenger\\?c=${id}`));
      const log = carlos.getByRole('log', { name: 'Messages' });
      await expect(log).toContainText('can you call the Hills family');

      // Carlos answers; Priya sees it live, without reloading.
      await send(carlos, 'On it — calling now.');
      await expect(priya.getByRole('log', { name: 'Messages' })).toContainText('On it — calling now.');

      // An urgent message shows a banner to Carlos until he acknowledges it.
      await send(priya, 'BP 192/118 for Mr Hills — please call him first.', { urgent: true });
      const banner = carlos.getByRole('alert').filter({ hasText: 'Urgent — please acknowledge' });
      await expect(banner).toContainText('BP 192/118');
      await expect(
        carlos.getByRole('navigation', { name: 'Conversations' }).getByText('Urgent'),
      ).toBeVisible();
      await banner.getByRole('button', { name: 'Acknowledge' }).click();
      await expect(banner).toBeHidden();
      await expect(priya.getByRole('log', { name: 'Messages' })).toContainText('Acknowledged by Carlos Diaz');
      await expectNoSeriousA11yViolations(carlos, 'messenger with a conversation open');
    } finally {
      await priya.context().close();
      await carlos.context().close();
    }
  });

  test('a PHI attachment is hidden from the others until its sender confirms it; a reply goes to the thread', async ({
    browser,
  }) => {
    const name = `Labs ${Date.now().toString(36)}`;
    const priya = await staffPage(browser, 'physician@caredeck.demo', '/messenger');
    const carlos = await staffPage(browser, 'coordinator@caredeck.demo', '/messenger');
    try {
      const id = await startConversation(priya, name);
      await carlos.goto(`/messenger?c=${id}`);
      await expect(carlos.getByRole('heading', { name, level: 2 })).toBeVisible();

      await priya.locator('input[type=file]').first().setInputFiles({
        name: 'labs-hills.pdf',
        mimeType: 'application/pdf',
        buffer: PDF,
      });
      await priya.getByRole('checkbox', { name: 'Files contain PHI' }).check();
      await priya.getByRole('textbox', { name: 'Message' }).fill('Latest labs');
      await priya.getByRole('button', { name: 'Send' }).click();
      const mine = priya.getByRole('log', { name: 'Messages' });
      await expect(mine).toContainText('labs-hills.pdf');
      await expect(mine).toContainText('PHI, only you see it');

      const theirs = carlos.getByRole('log', { name: 'Messages' });
      await expect(theirs).toContainText("1 file waiting for the sender's PHI confirmation");
      await expect(theirs).not.toContainText('labs-hills.pdf');

      await priya.getByRole('button', { name: 'Confirm PHI and share' }).click();
      await expect(theirs).toContainText('labs-hills.pdf');
      await expect(theirs).toContainText('PHI, shared');
      const download = carlos.waitForEvent('download');
      await theirs.getByRole('button', { name: 'labs-hills.pdf' }).click();
      expect((await download).suggestedFilename()).toBe('labs-hills.pdf');

      // A reply in the thread.
      await theirs.getByRole('button', { name: 'Reply in thread' }).click();
      const thread = carlos.getByRole('dialog', { name: 'Thread' });
      const reply = thread.getByRole('textbox', { name: 'Reply' });
      await reply.fill('Potassium is low, I will tell the pharmacy.');
      await reply.press('Enter');
      await expect(thread).toContainText('Potassium is low');
      await expect(mine.getByRole('button', { name: '1 reply' })).toBeVisible();

      // Search and files of the conversation.
      await thread.getByRole('button', { name: 'Close' }).click();
      await carlos.getByRole('button', { name: 'Actions' }).click();
      await carlos.getByRole('menuitem', { name: 'Search and files' }).click();
      const find = carlos.getByRole('dialog', { name: 'Search and files' });
      await find.getByRole('searchbox', { name: 'Search messages' }).fill('latest');
      await expect(find).toContainText('Latest labs');
      await find.getByRole('tab', { name: 'Files' }).click();
      await expect(find.getByRole('button', { name: 'labs-hills.pdf' })).toBeVisible();
    } finally {
      await priya.context().close();
      await carlos.context().close();
    }
  });
});
