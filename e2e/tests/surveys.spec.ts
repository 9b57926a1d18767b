import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, openAs } from './helpers';

test.describe('surveys', () => {
  // axe is injected as a script, which the console's CSP rightly refuses.
  test.use({ bypassCSP: true });

  test('a physician builds a survey, reads a screening’s figures and switches a trigger on', async ({
    page,
  }) => {
    await openAs(page, 'physician@caredeck.demo', '/surveys');
    await expect(page.getByRole('heading', { name: 'Surveys', level: 1 })).toBeVisible();
    const phq = page.getByTestId('survey-row').filter({ hasText: 'PHQ-9 depression screening' });
    await phq.click();
    const drawer = page.getByRole('dialog', { name: 'Survey' });
    await expect(drawer.getByTestId('survey-card-completed')).toHaveText('18');
    await expect(drawer.getByTestId('survey-card-overdue')).toHaveText('4');
    await expect(drawer.getByText('Version 1 · 9 questions · at most 27 points')).toBeVisible();
    await expect(page.locator('.mantine-Drawer-content')).toHaveCSS('opacity', '1');
    await expectNoSeriousA11yViolations(page, 'survey drawer');
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);

    // A new survey: a name is required; then two questions.
    const name = `Inhaler technique ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'New survey' }).click();
    const editor = page.getByRole('dialog', { name: 'New survey' });
    await editor.getByRole('button', { name: 'Save survey' }).click();
    await expect(editor.getByLabel('Name')).toBeFocused();
    await editor.getByLabel('Name').fill(name);
    await editor
      .getByRole('textbox', { name: 'Question 1', exact: true })
      .fill('Do you rinse your mouth after using the inhaler?');
    await editor.getByRole('textbox', { name: 'Option 1 of question 1', exact: true }).fill('Always');
    await editor.getByRole('textbox', { name: 'Option 2 of question 1', exact: true }).fill('Never');
    await editor.getByRole('button', { name: 'Add a question' }).click();
    await editor
      .getByRole('textbox', { name: 'Question 2', exact: true })
      .fill('How many puffs did you take yesterday?');
    await editor.getByRole('combobox', { name: 'Answer' }).nth(1).click();
    await page.getByRole('option', { name: 'Number' }).click();
    await expectNoSeriousA11yViolations(page, 'survey editor');
    await editor.getByRole('button', { name: 'Save survey' }).click();
    await expect(page.getByText('Survey created')).toBeVisible();
    await page.getByTestId('survey-row').filter({ hasText: name }).click();
    const mine = page.getByRole('dialog', { name: 'Survey' });
    await expect(mine.getByText('Version 1 · 2 questions · at most 1 point')).toBeVisible();
    const value = mine.getByLabel('Value of the trigger Total score');
    await value.fill('1');
    await value.blur();
    await expect(page.getByText('Trigger updated')).toBeVisible();
    // By keyboard (the toast sits over the drawer's lower right corner).
    const on = mine.getByLabel('Switch on the trigger Total score');
    await expect(on).toBeEnabled();
    await on.focus();
    await page.keyboard.press('Space');
    await expect(page.getByText('Trigger switched')).toBeVisible();
    await expect(mine.getByLabel('Switch on the trigger Total score')).toBeChecked();
  });

  test('a coordinator assigns a screening, fills it in with the patient, and the flagged result reaches the worklist', async ({
    page,
  }) => {
    await openAs(page, 'coordinator@caredeck.demo', '/patients');
    await page.getByTestId('patient-row').first().getByRole('link').click();
    await page.getByTestId('tab-surveys').click();
    await expect(page.getByRole('heading', { name: 'Surveys', level: 2 })).toBeVisible();
    await page.getByRole('button', { name: 'Assign a survey' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign a survey' });
    await assign.getByRole('combobox', { name: 'Survey' }).click();
    await page.getByRole('option', { name: 'GAD-7 anxiety screening' }).click();
    await expectNoSeriousA11yViolations(page, 'assign a survey');
    await assign.getByRole('button', { name: 'Assign a survey' }).click();
    await expect(page.getByText('Survey Assigned!')).toBeVisible();
    const row = page.getByTestId('patient-survey-row').filter({ hasText: 'GAD-7' });
    await expect(row).toContainText('Open');

    await row.getByRole('button', { name: 'Fill in' }).click();
    const form = page.getByRole('dialog', { name: 'GAD-7 anxiety screening' });
    // Completing with nothing answered names every question.
    await form.getByRole('button', { name: 'Complete' }).click();
    await expect(page.getByText('Some answers need attention.')).toBeVisible();
    await expect(form.getByText('Answer this question.')).toHaveCount(7);
    const groups = form.getByRole('radiogroup');
    for (let i = 0; i < 7; i++) await groups.nth(i).getByLabel('Nearly every day').check();
    await expectNoSeriousA11yViolations(page, 'fill in a survey');
    await form.getByRole('button', { name: 'Complete' }).click();
    await expect(page.getByText('Survey completed')).toBeVisible();
    await expect(page.getByText(/The answers met 1 trigger/)).toBeVisible();
    await expect(row).toContainText('Completed');
    await expect(row).toContainText('Flagged');
    await expect(row).toContainText('21');

    await row.getByRole('button', { name: 'Answers' }).click();
    const answers = page.getByRole('dialog', { name: 'GAD-7 anxiety screening' });
    await expect(answers.getByTestId('survey-response-score')).toHaveText('Score 21 of 21');
    await expect(answers).toContainText('Score 21 is at or above 10');
    await expect(answers).toContainText('Completed');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.goto('/surveys-v2');
    await expect(page).toHaveURL(/\/surveys\?tab=worklist/);
    const flagged = page.getByTestId('survey-worklist-row').filter({ hasText: 'GAD-7' }).first();
    await expect(flagged).toContainText('Flagged');
    await expectNoSeriousA11yViolations(page, 'survey worklist');
  });
});
