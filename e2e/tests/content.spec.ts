import { expect, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, openAs } from './helpers';

// Issue 9 §4: the content library (02 §7 "Content") and text-message templates used from a patient's
// Messages tab, placeholders filled in for that patient.

type Patient = { id: number; first_name: string; phone_number: string | null };

test.describe('Content library', () => {
  test.use({ bypassCSP: true });

  test('a coordinator shares material, keeps a question template and texts it to a patient', async ({
    page,
    request,
  }) => {
    const stamp = Date.now().toString(36);
    await openAs(page, 'coordinator@caredeck.demo', '/content');
    await expect(page.getByRole('heading', { name: 'Content library', level: 1 })).toBeVisible();

    // The library: a category, then content with a link.
    await page.getByRole('button', { name: 'New category' }).click();
    const categoryDialog = page.getByRole('dialog', { name: 'New category' });
    await categoryDialog.getByLabel('Category name').fill(`Heart health ${stamp}`);
    await categoryDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Category created')).toBeVisible();
    const category = page.getByRole('region', { name: new RegExp(`Heart health ${stamp}`) });
    await category.getByRole('button', { name: 'Add content' }).click();
    const contentDialog = page.getByRole('dialog', { name: `Add content to Heart health ${stamp}` });
    await contentDialog.getByLabel('Title').fill('Salt and blood pressure');
    await contentDialog.getByLabel('Link').fill('not a link');
    await contentDialog.getByRole('button', { name: 'Save' }).click();
    // The server's field error shows in place; nothing typed is lost.
    await expect(contentDialog.getByText('Enter a full link, starting with https://')).toBeVisible();
    await expect(contentDialog.getByLabel('Title')).toHaveValue('Salt and blood pressure');
    await contentDialog.getByLabel('Link').fill('https://www.heart.org/en/healthy-living');
    await contentDialog.getByRole('button', { name: 'Save' }).click();
    await expect(category.getByText('Salt and blood pressure')).toBeVisible();
    await expect(category.getByRole('link', { name: 'Open' })).toHaveAttribute(
      'href',
      'https://www.heart.org/en/healthy-living',
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'content library');

    // My text messages: a folder and a question with a placeholder.
    await page.getByRole('tab', { name: 'My text messages' }).click();
    await expect(page).toHaveURL(/tab=templates/);
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill(`Refills ${stamp}`);
    await page.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Save' }).click();
    const folder = page.getByRole('region', { name: `Refills ${stamp}` });
    await folder.getByRole('button', { name: 'New text message' }).click();
    const templateDialog = page.getByRole('dialog', { name: 'New text message' });
    await templateDialog.getByLabel('Name').fill(`Pick-up ${stamp}`);
    await templateDialog
      .getByLabel('Message')
      .fill('Hi {first_name}, have you picked up your refill? Reply YES or NO.');
    await templateDialog.getByLabel('Asks the patient something').check();
    await templateDialog.getByRole('button', { name: 'Save' }).click();
    await expect(folder.getByText('Question')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'text-message templates');

    // Used from a patient's Messages tab: the placeholder becomes the patient's first name.
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const res = await request.get('/api/v1/programs/1/users?per_page=50&sort_by=id', {
      headers: { authorization: `Bearer ${token}` },
    });
    const patient = ((await res.json()) as { data: Patient[] }).data.filter((p) => p.phone_number)[3]!;
    await page.goto(`/patient/${patient.id}?tab=messages`);
    await page.getByRole('button', { name: 'Templates' }).click();
    await expect(page.getByRole('menuitem', { name: 'Did you take your medication today?' })).toBeVisible();
    await page.getByRole('menuitem', { name: `Pick-up ${stamp}` }).click();
    const box = page.getByRole('textbox', { name: 'Text message' });
    await expect(box).toHaveValue(
      `Hi ${patient.first_name}, have you picked up your refill? Reply YES or NO.`,
    );
    await page.getByRole('button', { name: 'Send text' }).click();
    await expect(
      page
        .getByRole('log', { name: 'Text messages' })
        .getByText(`Hi ${patient.first_name}, have you picked up`),
    ).toBeVisible();

    // Deleting the folder asks first, and says its messages go with it.
    await page.goto('/content?tab=templates');
    await page
      .getByRole('region', { name: `Refills ${stamp}` })
      .getByRole('button', { name: 'Delete' })
      .first()
      .click();
    const confirm = page.getByRole('dialog', { name: `Delete the folder Refills ${stamp}?` });
    await expect(
      confirm.getByText('Its text message (1) is deleted with it.', { exact: false }),
    ).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Folder deleted')).toBeVisible();
    await expect(page.getByRole('region', { name: `Refills ${stamp}` })).toHaveCount(0);
  });
});
