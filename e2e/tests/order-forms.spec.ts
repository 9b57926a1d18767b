import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { apiAccessToken, expectNoSeriousA11yViolations, openAs, sentMails } from './helpers';

// 02 §7 "Order forms" on the patient record (ADR 044): the demo history, a new form from a template, its PDF,
// sending it (the e-mail's link opens the PDF without signing in) and resending it after a confirmation.

/** The link of the last order-form e-mail written for `to`. */
function linkSentTo(to: string): string | null {
  let link: string | null = null;
  for (const mail of sentMails())
    if (mail.to === to && mail.template === 'order_form')
      link = /(https?:\/\/\S+)/.exec(mail.text)?.[1] ?? link;
  return link;
}

test.describe('Order forms', () => {
  test.use({ bypassCSP: true });

  test('a coordinator creates a form, downloads its PDF, sends it and resends it', async ({
    page,
    request,
  }) => {
    const token = await apiAccessToken(request, 'coordinator@caredeck.demo');
    const headers = { authorization: `Bearer ${token}` };
    const list = await request.get('/api/v1/programs/1/users?per_page=20&sort_by=name&sort_direction=ASC', {
      headers,
    });
    const candidates = ((await list.json()) as { data: { id: number }[] }).data;
    let patientId = 0;
    for (const p of candidates) {
      const forms = await request.get(`/api/v1/programs/1/users/${p.id}/order-form`, { headers });
      if (((await forms.json()) as { total: number }).total > 0) {
        patientId = p.id;
        break;
      }
    }
    expect(patientId, 'a demo patient with order forms').toBeGreaterThan(0);

    await openAs(page, 'coordinator@caredeck.demo', `/patient/${patientId}?tab=orderForms`);
    await expect(page.getByRole('heading', { name: 'Order forms', level: 2 })).toBeVisible();
    const cards = page.getByTestId('order-form');
    await expect(cards.first()).toBeVisible();
    const before = await cards.count();
    await expectNoSeriousA11yViolations(page, 'patient record, Order forms tab');

    // A new refill authorization request: the record's data shown, only what is missing asked.
    await page.getByRole('button', { name: 'New order form' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: /^Form/ }).click();
    await page.getByRole('option', { name: 'Prescription refill authorization request' }).click();
    await expect(dialog.getByTestId('order-form-prefill')).toContainText('Patient name');
    // The submit checks the required fields first.
    await dialog.getByRole('button', { name: 'Create order form' }).click();
    await expect(dialog.getByText('This field is required.').first()).toBeVisible();
    for (const [label, value] of [
      ['Date of birth', '1950-06-01'],
      ['Ordering physician', 'Priya Raman, MD'],
    ] as const) {
      const input = dialog.getByLabel(label);
      if (await input.count()) await input.fill(value);
    }
    await dialog.getByLabel('Medication and strength').fill('Lisinopril 10 mg tablet');
    await dialog.getByLabel('Quantity per fill').fill('30');
    await dialog.getByLabel('Refills requested').fill('3');
    await expect(dialog.getByRole('switch', { name: 'Generate the PDF now' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Create order form' }).click();
    await expect(page.getByText('Order Form Generated')).toBeVisible();
    await expect(cards).toHaveCount(before + 1);
    const card = cards.first();
    await expect(card).toContainText('Prescription refill authorization request');
    await expect(card.getByTestId('order-form-state')).toHaveText('Created');

    // The PDF is real.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^order-form-\d+\.pdf$/);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // Send it: the e-mail's link opens the PDF without signing in.
    const to = `rx-${Date.now().toString(36)}@clinic.example`;
    await card.getByRole('button', { name: 'Send' }).click();
    await dialog.getByLabel(/Recipient e-mail/).fill(to);
    await dialog.getByLabel(/Recipient name/).fill('Dr. Raman office');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Order Form Sent')).toBeVisible();
    await expect(card.getByTestId('order-form-state')).toHaveText('Sent');
    await expect(card).toContainText(`Last sent to Dr. Raman office (${to})`);
    await expect.poll(() => linkSentTo(to), { timeout: 15_000 }).not.toBeNull();
    const link = new URL(linkSentTo(to)!);
    const pdf = await request.get(link.pathname);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Resend after a confirmation naming the recipient.
    await card.getByRole('button', { name: 'Resend' }).click();
    await expect(dialog).toContainText(`The form goes again to ${to}`);
    await dialog.getByRole('button', { name: 'Resend' }).click();
    await expect(page.getByText('Order Form Resent')).toBeVisible();
    await expect(card.getByTestId('order-form-state')).toHaveText('Resent');
    await expect(card.getByTestId('order-form-sends').locator('tbody tr')).toHaveCount(2);
  });
});
