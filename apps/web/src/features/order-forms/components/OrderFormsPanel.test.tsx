import {
  orderFormsContract as c,
  type OrderForm,
  type PatientOrderFormTemplate,
  userContract,
} from '@caredeck/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { OrderFormsPanel } from './OrderFormsPanel';

const P = { programId: 1, userId: 5 };
const now = '2026-11-20T15:00:00.000Z';

const form = (over: Partial<OrderForm> = {}): OrderForm => ({
  id: 11,
  patient_id: 5,
  template: { id: 1, name: 'RPM device order (DME)', recipient_kind: 'supplier' },
  state: 'created',
  fields: [],
  has_pdf: true,
  pdf_generated_at: now,
  created_by: { id: 7, name: 'Carlos Diaz' },
  created_at: now,
  last_sent_at: null,
  recipient: null,
  sends: [],
  ...over,
});

const sentForm = form({
  id: 12,
  template: { id: 2, name: 'Prescription refill authorization request', recipient_kind: 'prescriber' },
  state: 'sent',
  last_sent_at: now,
  recipient: { to: 'rx@clinic.example', name: 'Dr. Ames office' },
  sends: [
    {
      id: 3,
      kind: 'send',
      channel: 'email',
      to: 'rx@clinic.example',
      recipient_name: 'Dr. Ames office',
      sent_by: { id: 7, name: 'Carlos Diaz' },
      sent_at: now,
      delivery: 'sent',
      link_expires_at: '2026-11-27T15:00:00.000Z',
      downloads: 2,
      last_downloaded_at: now,
    },
  ],
});

const template: PatientOrderFormTemplate = {
  id: 1,
  code: 'rpm_device_order',
  name: 'RPM device order (DME)',
  description: 'Orders a remote-monitoring device.',
  recipient_kind: 'supplier',
  fields: [
    {
      key: 'patient_name',
      label: 'Patient name',
      source: 'patient',
      type: 'text',
      required: true,
      value: 'Rosa Diaz',
      missing: false,
    },
    {
      key: 'address',
      label: 'Address',
      source: 'patient',
      type: 'textarea',
      required: true,
      value: null,
      missing: true,
    },
    {
      key: 'devices',
      label: 'Devices in use',
      source: 'patient',
      type: 'list',
      required: false,
      value: null,
      missing: false,
    },
    {
      key: 'device_kind',
      label: 'Device',
      source: 'staff',
      type: 'select',
      required: true,
      options: ['Blood pressure cuff', 'Weight scale'],
      value: null,
      missing: true,
    },
    {
      key: 'diagnosis_code',
      label: 'Diagnosis (ICD-10-CM)',
      source: 'staff',
      type: 'text',
      required: true,
      pattern: '^[A-TV-Za-tv-z][0-9][0-9ABab](\\.[0-9A-Za-z]{1,4})?$',
      pattern_message: 'Use an ICD-10-CM code like I10 or E11.9.',
      value: null,
      missing: true,
    },
    {
      key: 'quantity',
      label: 'Quantity',
      source: 'staff',
      type: 'number',
      required: true,
      min: 1,
      max: 5,
      value: null,
      missing: true,
    },
  ],
  missing: ['address', 'device_kind', 'diagnosis_code', 'quantity'],
};

const page = (data: OrderForm[]) => ({
  data,
  current_page: 1,
  last_page: 1,
  per_page: 10,
  total: data.length,
});

const render = () =>
  renderWithProviders(
    <MemoryRouter>
      <OrderFormsPanel programId={1} patientId={5} />
    </MemoryRouter>,
  );

describe('order forms panel', () => {
  it('lists the forms with state, recipient and send history; says when there are none', async () => {
    mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(c.list, P)]: { body: page([form(), sentForm]) },
    });
    signInForTest();
    render();
    const cards = await screen.findAllByTestId('order-form');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByTestId('order-form-state')).toHaveTextContent('Created');
    expect(cards[0]).toHaveTextContent('Not sent yet');
    expect(within(cards[0]!).getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(within(cards[1]!).getByTestId('order-form-state')).toHaveTextContent('Sent');
    expect(cards[1]).toHaveTextContent('Last sent to Dr. Ames office (rx@clinic.example)');
    const history = within(cards[1]!).getByTestId('order-form-sends');
    expect(history).toHaveTextContent('Delivered');
    expect(history).toHaveTextContent('Opened 2×');
    expect(within(cards[1]!).getByRole('button', { name: 'Resend' })).toBeInTheDocument();
  });

  it('shows the empty state and the error state with a retry', async () => {
    let fail = true;
    mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(c.list, P)]: () => (fail ? { status: 500, body: { message: 'Server Error' } } : { body: page([]) }),
    });
    signInForTest();
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('The order forms could not be loaded.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('order-forms-empty')).toHaveTextContent('No order forms yet');
  });

  it('creates a form: prefilled record data, only the missing fields asked, checked, server errors per field', async () => {
    let attempt = 0;
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(c.list, P)]: { body: page([]) },
      [on(c.patientTemplates, P)]: { body: { data: [template] } },
      [on(c.create, P)]: () =>
        ++attempt === 1
          ? {
              status: 422,
              body: { message: 'Invalid', errors: { 'fields.address': ['Use a street address.'] } },
            }
          : { status: 201, body: { message: 'Order Form Generated', data: form() } },
    });
    signInForTest();
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'New order form' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Form/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'RPM device order (DME)' }));
    const prefill = await within(dialog).findByTestId('order-form-prefill');
    expect(prefill).toHaveTextContent('Rosa Diaz');
    expect(prefill).toHaveTextContent('None recorded');
    expect(within(dialog).queryByLabelText(/Patient name/)).toBeNull();
    expect(within(dialog).getByRole('switch', { name: 'Generate the PDF now' })).toBeChecked();

    // Checked here first: required, pattern, bounds.
    await userEvent.type(within(dialog).getByLabelText(/Diagnosis/), 'high blood pressure');
    await userEvent.type(within(dialog).getByLabelText(/Quantity/), '9');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create order form' }));
    expect(within(dialog).getByText('Use an ICD-10-CM code like I10 or E11.9.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a whole number from 1 to 5.')).toBeInTheDocument();
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    expect(api.callsTo(on(c.create, P))).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText(/Address/), '12 Harbor Lane');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Device/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Blood pressure cuff' }));
    await userEvent.clear(within(dialog).getByLabelText(/Diagnosis/));
    await userEvent.type(within(dialog).getByLabelText(/Diagnosis/), 'I10');
    await userEvent.clear(within(dialog).getByLabelText(/Quantity/));
    await userEvent.type(within(dialog).getByLabelText(/Quantity/), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create order form' }));
    expect(await within(dialog).findByText('Use a street address.')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create order form' }));
    expect(await screen.findByText('Order Form Generated')).toBeInTheDocument();
    expect(api.callsTo(on(c.create, P)).at(-1)?.body).toEqual({
      orderForm_id: 1,
      user_id: 5,
      generatePdf: true,
      fields: {
        address: '12 Harbor Lane',
        device_kind: 'Blood pressure cuff',
        diagnosis_code: 'I10',
        quantity: '1',
      },
    });
  });

  it('shows the server message in a toast when the form cannot be stored', async () => {
    mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(c.list, P)]: { body: page([]) },
      [on(c.patientTemplates, P)]: {
        body: { data: [{ ...template, fields: template.fields.slice(0, 1), missing: [] }] },
      },
      [on(c.create, P)]: { status: 404, body: { message: 'User not found in current Program.' } },
    });
    signInForTest();
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'New order form' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Form/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'RPM device order (DME)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create order form' }));
    expect(await screen.findByText('User not found in current Program.')).toBeInTheDocument();
  });

  it('sends a created form to the address given, and resends a sent one after a confirmation', async () => {
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(c.list, P)]: { body: page([form(), sentForm]) },
      [on(c.send, P)]: { body: { message: 'Order Form Sent', data: form({ state: 'sent' }) } },
      [on(c.resend, { ...P, id: 12 })]: { body: { message: 'Order Form Resent', data: sentForm } },
    });
    signInForTest();
    render();
    const cards = await screen.findAllByTestId('order-form');
    await userEvent.click(within(cards[0]!).getByRole('button', { name: 'Send' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('no patient information');
    await userEvent.type(within(dialog).getByLabelText(/Recipient e-mail/), 'not-an-address');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText(/Recipient e-mail/));
    await userEvent.type(within(dialog).getByLabelText(/Recipient e-mail/), 'orders@medsupply.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Order Form Sent')).toBeInTheDocument();
    expect(api.callsTo(on(c.send, P))[0]?.body).toEqual({
      order_form_id: 11,
      email: 'orders@medsupply.example',
      recipient_name: null,
    });

    await userEvent.click(within(cards[1]!).getByRole('button', { name: 'Resend' }));
    dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The form goes again to rx@clinic.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Order Form Resent')).toBeInTheDocument();
    expect(api.callsTo(on(c.resend, { ...P, id: 12 }))[0]?.body).toEqual({});
  });
});
