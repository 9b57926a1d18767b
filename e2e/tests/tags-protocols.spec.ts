import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

test.describe('tags and protocols', () => {
  // axe is injected as a script, which the console's CSP rightly refuses.
  test.use({ bypassCSP: true });

  test('a physician writes a care protocol and updates it to a second version', async ({ page }) => {
    await openAs(page, 'physician@caredeck.demo', '/protocols');
    await expect(page.getByRole('heading', { name: 'Protocols', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'New protocol' }).click();
    const editor = page.getByRole('dialog', { name: 'New protocol' });
    const name = `Blood pressure crisis ${Date.now().toString(36)}`;
    await editor.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await editor
      .getByRole('textbox', { name: 'Step 1', exact: true })
      .fill('Repeat the reading after 5 minutes of rest');
    await editor.getByRole('button', { name: 'Add a step' }).click();
    await editor.getByRole('textbox', { name: 'Step 2', exact: true }).fill('Call the patient');
    await editor.getByLabel('Details of step 2').fill('Ask about chest pain, vision and headache.');
    await expectNoSeriousA11yViolations(page, 'protocol editor');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Protocol Created')).toBeVisible();
    const item = page.getByTestId('protocol').filter({ hasText: name });
    await item.getByRole('button', { name: new RegExp(name) }).click();
    await expect(item).toContainText('Ask about chest pain, vision and headache.');
    const edit = page.getByRole('dialog', { name: 'Edit the protocol' });
    // Seen 2026-11-28 (1 run in 3 on a loaded machine): the first click on Edit, right after the list refetched
    // behind the closing editor, opened nothing; a second click opens it. A person clicks again; the cause is
    // noted on issue 29 to be found.
    await expect(async () => {
      await item.getByRole('button', { name: 'Edit' }).click();
      await expect(edit).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await edit.getByRole('button', { name: 'Add a step' }).click();
    await edit
      .getByRole('textbox', { name: 'Step 3', exact: true })
      .fill('Escalate to the physician on call');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Protocol Updated')).toBeVisible();
    await expect(item).toContainText('Version 2');
    await expect(item).toContainText('Escalate to the physician on call');
  });

  test('a coordinator creates a tag in a folder and puts it on a patient', async ({ page }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/content?tab=tags');
    const folder = `Risk ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill(folder);
    await page.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Folder created successfully!')).toBeVisible();
    const tag = `Fall risk ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'New tag' }).click();
    const dialog = page.getByRole('dialog', { name: 'New tag' });
    await dialog.getByLabel('Tag name').fill(tag);
    await dialog.getByRole('combobox', { name: 'Folder' }).click();
    await page.getByRole('option', { name: folder }).click();
    await dialog.getByRole('textbox', { name: 'Colour' }).fill('#2f9e44');
    // Back to the name field: the colour's swatches close.
    await dialog.getByLabel('Tag name').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Tag created successfully!')).toBeVisible();
    await expect(page.getByTestId('tag-folder').filter({ hasText: folder })).toContainText(tag);
    // The chosen colour shows beside the tag's name.
    await expect(
      page.getByTestId('tag-row').filter({ hasText: tag }).locator('.mantine-ColorSwatch-root'),
    ).toHaveCount(1);
    await expectNoSeriousA11yViolations(page, 'tags');

    await page.goto('/patients');
    await page.getByTestId('patient-row').first().getByRole('link').click();
    await page.getByTestId('patient-tags').click();
    await page.getByRole('option', { name: tag }).click();
    await page.keyboard.press('Escape');
    await page.reload();
    await expect(page.getByTestId('patient-tags').locator('..').locator('..')).toContainText(tag);
  });
});

test.describe('staff activity', () => {
  test.use({ bypassCSP: true });

  test('an admin reads what the staff did, and one person’s days and sign-ins', async ({ page }) => {
    await openAs(page, 'admin@caredeck.demo', '/logs');
    await expect(page.getByRole('heading', { name: 'Staff activity', level: 1 })).toBeVisible();
    const row = page.getByTestId('staff-activity-row').filter({ hasText: 'Avery Morgan' });
    await expect(row).toBeVisible();
    await row.click();
    const drawer = page.getByRole('dialog', { name: 'Avery Morgan' });
    await expect(drawer.getByRole('heading', { name: 'Sign-ins and sign-outs' })).toBeVisible();
    await expect(drawer.getByTestId('staff-by-action')).not.toBeEmpty();
    // Each action in words (issue 32 item 4), never its code such as "patient.view × 21".
    await expect(drawer.getByTestId('staff-by-action')).not.toContainText(/[a-z_]+\.[a-z_]+/);
    await expect(page.locator('.mantine-Drawer-content')).toHaveCSS('opacity', '1');
    await expectNoSeriousA11yViolations(page, 'staff activity');
  });
});
