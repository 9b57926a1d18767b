import { expect, test } from './fixtures';
import { openAs } from './helpers';

// Issue 32 item 8: a content category can be renamed and deleted (ADR 076); deleting asks first and says how
// much content goes with it.
test('a coordinator renames a category and deletes it with its content, after confirming', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  await openAs(page, 'coordinator@caredeck.demo', '/content');
  await page.getByRole('button', { name: 'New category' }).click();
  const create = page.getByRole('dialog', { name: 'New category' });
  await create.getByLabel('Category name').fill(`Diet ${stamp}`);
  await create.getByRole('button', { name: 'Save' }).click();
  const category = page.getByRole('region', { name: new RegExp(`Diet ${stamp}`) });
  await category.getByRole('button', { name: 'Add content' }).click();
  const add = page.getByRole('dialog', { name: `Add content to Diet ${stamp}` });
  await add.getByLabel('Title').fill('Fibre');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(category.getByText('Fibre', { exact: true })).toBeVisible();

  await category.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename category' });
  await expect(rename.getByLabel('Category name')).toHaveValue(`Diet ${stamp}`);
  await rename.getByLabel('Category name').fill(`Diet and fibre ${stamp}`);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Category renamed')).toBeVisible();
  const renamed = page.getByRole('region', { name: new RegExp(`Diet and fibre ${stamp}`) });
  await expect(renamed.getByText('Fibre', { exact: true })).toBeVisible();

  // Delete asks first, naming what goes with it; Cancel keeps everything.
  await renamed.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete the category Diet and fibre ${stamp}?` });
  await expect(confirm).toContainText('Its content (1 item) is deleted with it');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Category deleted')).toBeVisible();
  await expect(page.getByRole('region', { name: new RegExp(`Diet and fibre ${stamp}`) })).toHaveCount(0);
});
