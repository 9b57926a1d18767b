import { expect, type Locator, test } from './fixtures';
import { openAs } from './helpers';

// Spec 01 §9, issue 32 item 6: dialogs open 5 % from the top and 25 % from the left, move by their header (mouse
// and keyboard) and stay within the window.

test.use({ viewport: { width: 1440, height: 900 } });

async function box(dialog: Locator) {
  const b = await dialog.boundingBox();
  if (!b) throw new Error('the dialog has no box');
  return b;
}

test('a dialog opens at 25 % / 5 %, moves by its header and stays in the window', async ({ page }) => {
  await openAs(page, 'coordinator@caredeck.demo', '/content');
  await page.getByRole('button', { name: 'New category' }).click();
  const dialog = page.getByRole('dialog', { name: 'New category' });
  await expect(dialog).toHaveCSS('opacity', '1');
  const opened = await box(dialog);
  expect(Math.abs(opened.x - 1440 * 0.25)).toBeLessThanOrEqual(2);
  expect(Math.abs(opened.y - 900 * 0.05)).toBeLessThanOrEqual(2);

  // Dragged by the header with the mouse.
  const header = dialog.locator('.mantine-Modal-header');
  const grip = await box(header);
  await page.mouse.move(grip.x + 40, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + 240, grip.y + grip.height / 2 + 100, { steps: 5 });
  await page.mouse.up();
  const dragged = await box(dialog);
  expect(Math.round(dragged.x - opened.x)).toBe(200);
  expect(Math.round(dragged.y - opened.y)).toBe(100);

  // Dragged far past the bottom right corner: the whole dialog stays in view.
  await page.mouse.move(grip.x + 240, grip.y + grip.height / 2 + 100);
  await page.mouse.down();
  await page.mouse.move(3000, 3000, { steps: 5 });
  await page.mouse.up();
  const cornered = await box(dialog);
  expect(Math.round(cornered.x + cornered.width)).toBeLessThanOrEqual(1440);
  expect(Math.round(cornered.y + cornered.height)).toBeLessThanOrEqual(900);

  // With the keyboard: the header takes focus and the arrow keys move the dialog.
  await header.focus();
  await page.keyboard.press('Shift+ArrowUp');
  await page.keyboard.press('ArrowLeft');
  const moved = await box(dialog);
  expect(Math.round(moved.y - cornered.y)).toBe(-96);
  expect(Math.round(moved.x - cornered.x)).toBe(-16);

  // Still a working dialog.
  await dialog.getByLabel('Category name').fill('Moved but working');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
