import {
  externalOrdersContract as c,
  type ExternalOrder,
  notificationsContract,
  patientRecordContract,
  platformContract,
  userContract,
} from '@caredeck/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const maggie = {
  id: 5,
  pharmacy_patient_id: 'PH-1002',
  first_name: 'Maggie',
  last_name: 'Okafor',
  dob: '1951-03-14',
  phone: '555.318.0042',
  mrn: null,
  patient: null,
};
const order = (id: number, overrides: Partial<ExternalOrder> = {}): ExternalOrder => ({
  id,
  order_number: `RX-${id}`,
  status: 'received',
  external_patient: maggie,
  drug_name: 'Metformin',
  ndc: '00093-1048-01',
  strength: '500 mg',
  quantity: 60,
  days_supply: 30,
  sig: 'Take 1 tablet by mouth twice daily',
  times_per_day: 2,
  per_dose: 1,
  times: ['08:00', '20:00'],
  need_by_date: '2026-12-07',
  automation: true,
  prescriber: null,
  fill_verified_at: null,
  schedule_verified_at: null,
  finalized_at: null,
  regimen_id: null,
  equipment_file: null,
  carrier: null,
  tracking_number: null,
  created_at: '2026-11-27T08:00:00.000Z',
  ...overrides,
});
const linked = { ...maggie, patient: { id: 42, first_name: 'Margaret', last_name: 'Okafor', mrn: null } };
const page = (data: ExternalOrder[]) => ({
  data,
  current_page: 1,
  last_page: 1,
  per_page: 25,
  total: data.length,
});
const fill = {
  patient: { id: 42, first_name: 'Margaret', last_name: 'Okafor' },
  need_by_date: '2026-12-07',
  start_date: '2026-12-07',
  end_date: '2027-01-05',
  days: 30,
  pods: 60,
  slots: [
    {
      slot: 1,
      time: '08:00',
      items: [
        {
          order_id: 11,
          order_number: 'RX-11',
          drug_name: 'Metformin',
          strength: '500 mg',
          ndc: null,
          count: 1,
        },
      ],
    },
  ],
  manual: [],
  warnings: [],
  orders: [order(11, { status: 'matched', external_patient: linked })],
  verified: false,
  verified_at: null,
  verified_by: null,
};

describe('/external-orders', () => {
  it('lists the orders with the filters in the URL, shows row errors of a refused import, matches a patient and verifies fill files', async () => {
    let merged = false;
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(patientRecordContract.allPatients, { programId: 1 })]: { body: { data: [] } },
      [on(c.list)]: (request) => ({
        body:
          request.url.searchParams.get('only_automation') === '1'
            ? page([])
            : page(
                merged
                  ? [order(11, { status: 'matched', external_patient: linked })]
                  : [order(11), order(12, { automation: false, drug_name: 'Furosemide' })],
              ),
      }),
      [on(c.statuses)]: {
        body: {
          data: [
            { status: 'received', label: 'Received, patient not matched', order: 1, orders: 2 },
            { status: 'matched', label: 'Matched to a patient', order: 2, orders: 0 },
          ],
        },
      },
      [on(c.import)]: {
        status: 422,
        body: {
          message: 'The file has errors: nothing was imported.',
          errors: { 'rows.3.dob': ['Use a date like 2026-12-01.'], 'rows.2.quantity': ['Required.'] },
        },
      },
      [on(c.matches, { id: 5 })]: {
        body: {
          external_patient: maggie,
          data: [
            {
              id: 42,
              first_name: 'Margaret',
              last_name: 'Okafor',
              dob: '1951-03-14',
              mrn: null,
              phone_number: '+1 555 318 0042',
              reasons: ['same_dob', 'similar_name', 'same_phone'],
            },
          ],
        },
      },
      [on(c.merge, { id: 5, patientId: 42 })]: () => {
        merged = true;
        return { body: { message: 'Patient Matched', external_patient: linked, orders: 2 } };
      },
      [on(c.fillFiles, { userId: 42, needByDate: '2026-12-07' })]: { body: fill },
      [on(c.regimens, { userId: 42, needByDate: '2026-12-07' })]: {
        body: {
          patient: fill.patient,
          need_by_date: '2026-12-07',
          regimens: [],
          verified: false,
          verified_at: null,
          verified_by: null,
        },
      },
      [on(c.verifyFillFiles, { userId: 42, needByDate: '2026-12-07' })]: {
        status: 409,
        body: { message: 'Match the pharmacy patient to a CareDeck patient first.' },
      },
    });
    signInForTest();
    const { router } = renderRoutes('/external-orders');
    const table = await screen.findByTestId('external-orders');
    expect(within(table).getByTestId('order-RX-11')).toHaveTextContent('Metformin 500 mg');
    expect(within(table).getByTestId('order-RX-11')).toHaveTextContent('Not matched');
    expect(screen.getByText('Page 1 of 1 · 2 orders')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Download the sample CSV/ })).toHaveAttribute(
      'href',
      '/samples/external-orders-sample.csv',
    );

    // The status filter offers the catalogue with its counts; the choice goes to the URL.
    await userEvent.click(screen.getByRole('combobox', { name: 'Statuses' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Not matched (2)' }));
    expect(router.state.location.search).toBe('?statuses=received');
    await waitFor(() => expect(api.calls.at(-1)?.url.searchParams.get('statuses')).toBe('received'));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByLabelText('Automation only'));
    expect(router.state.location.search).toBe('?statuses=received&automation=1');
    expect(await screen.findByText('No external orders match these filters.')).toBeInTheDocument();
    // The filtered list's call names the program (the statuses' counts may be asked for after it).
    const filtered = api.calls.filter((c) => c.url.searchParams.get('only_automation') !== null);
    expect(filtered.at(-1)?.url.searchParams.get('program_id')).toBe('1');
    await userEvent.click(screen.getByLabelText('Automation only'));

    // A refused file: every row error, in row order.
    await userEvent.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import pharmacy orders' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(within(dialog).getByText('Choose the CSV file.')).toBeInTheDocument();
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['a,b\n'], 'orders.csv', { type: 'text/csv' })] } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    const errors = await within(dialog).findByTestId('import-errors');
    expect(errors).toHaveTextContent('The file has errors: nothing was imported.');
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Row 2 · quantity: Required.', 'Row 3 · dob: Use a date like 2026-12-01.']);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import pharmacy orders' })).toBeNull());

    // Match Maggie to Margaret after a confirmation.
    await userEvent.click(
      within(await screen.findByTestId('external-orders')).getAllByRole('button', {
        name: 'Match Maggie Okafor',
      })[0]!,
    );
    const match = await screen.findByRole('dialog', { name: 'Match Maggie Okafor' });
    expect(await within(match).findByText('Same date of birth')).toBeInTheDocument();
    await userEvent.click(within(match).getByLabelText('Margaret Okafor'));
    await userEvent.click(within(match).getByRole('button', { name: 'Link to this patient' }));
    const confirm = await screen.findByRole('dialog', { name: 'Link these records?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Link to this patient' }));
    expect(await screen.findByText('Patient Matched')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('order-RX-11')).toHaveTextContent('CareDeck patient: Margaret Okafor'),
    );

    // The review: the fill files, and a failed verification shows 'Error:' with the reason.
    await userEvent.click(screen.getByRole('button', { name: 'Review the orders of RX-11' }));
    const fillFiles = await screen.findByTestId('fill-files');
    expect(fillFiles).toHaveTextContent('2026-12-07 to 2027-01-05 · 30 days · 60 pods');
    expect(fillFiles).toHaveTextContent('Metformin 500 mg × 1');
    await userEvent.click(within(fillFiles).getByRole('button', { name: 'Verify fill files' }));
    expect(
      await screen.findByText('Error: Match the pharmacy patient to a CareDeck patient first.'),
    ).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('corrects a dose time when verifying the schedule, then finalizes the chosen orders after a confirmation', async () => {
    let finalized = false;
    const ready = order(11, {
      status: 'verified',
      external_patient: linked,
      fill_verified_at: '2026-11-27T08:00:00.000Z',
      schedule_verified_at: '2026-11-27T08:00:00.000Z',
    });
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(patientRecordContract.allPatients, { programId: 1 })]: { body: { data: [] } },
      [on(c.statuses)]: { body: { data: [] } },
      [on(c.list)]: () => ({ body: page([finalized ? { ...ready, status: 'finalized' } : ready]) }),
      [on(c.fillFiles, { userId: 42, needByDate: '2026-12-07' })]: () => ({
        body: {
          ...fill,
          verified: true,
          verified_by: { id: 7, name: 'Ada Admin' },
          orders: [finalized ? { ...ready, status: 'finalized' } : ready],
        },
      }),
      [on(c.regimens, { userId: 42, needByDate: '2026-12-07' })]: {
        body: {
          patient: fill.patient,
          need_by_date: '2026-12-07',
          regimens: [
            {
              order_id: 11,
              order_number: 'RX-11',
              name: 'Metformin 500 mg',
              sig: 'Take 1 tablet by mouth twice daily',
              times_per_day: 2,
              per_dose: 1,
              times: ['08:00', '20:00'],
              start_date: '2026-12-07',
              end_date: '2027-01-05',
              status: 'verified',
              updates_regimen_id: null,
            },
          ],
          verified: true,
          verified_at: '2026-11-27T08:00:00.000Z',
          verified_by: { id: 7, name: 'Ada Admin' },
        },
      },
      [on(c.verifyRegimens, { userId: 42, needByDate: '2026-12-07' })]: (request) => ({
        body: {
          message: 'Schedule Verified',
          fill_files_reset: (request.body as { regimens: unknown[] }).regimens.length > 0,
          data: {
            patient: fill.patient,
            need_by_date: '2026-12-07',
            regimens: [],
            verified: true,
            verified_at: null,
            verified_by: null,
          },
        },
      }),
      [on(c.finalize)]: () => {
        finalized = true;
        return {
          body: {
            message: 'Schedules generated and equipment files sent',
            regimen_ids: [90],
            equipment_files: [{ name: 'pod_fill_42_2026-12-07.csv', rows: 60, orders: 1 }],
            data: [{ ...ready, status: 'finalized' }],
          },
        };
      },
    });
    signInForTest();
    renderRoutes('/external-orders?verified=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Review the orders of RX-11' }));
    const schedules = await screen.findByTestId('schedules');
    const evening = within(schedules).getByLabelText('Dose time 2 of Metformin 500 mg');
    fireEvent.change(evening, { target: { value: '19:00' } });
    await userEvent.click(within(schedules).getByRole('button', { name: 'Verify schedule again' }));
    expect(await screen.findByText('Schedule Verified')).toBeInTheDocument();
    expect(
      await screen.findByText('The new times change the pods: verify the fill files again.'),
    ).toBeInTheDocument();
    expect(api.callsTo(on(c.verifyRegimens, { userId: 42, needByDate: '2026-12-07' }))[0]?.body).toEqual({
      regimens: [{ order_id: 11, times: ['08:00', '19:00'] }],
    });

    const finalize = screen.getByTestId('finalize');
    await userEvent.click(within(finalize).getByLabelText('RX-11 · Metformin 500 mg'));
    await userEvent.click(within(finalize).getByRole('button', { name: 'Finalize selected (1)' }));
    const confirm = await screen.findByRole('dialog', { name: 'Finalize these orders?' });
    expect(confirm).toHaveTextContent('1 order of Margaret Okafor becomes a regimen');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Finalize' }));
    expect(await screen.findByText('Schedules generated and equipment files sent')).toBeInTheDocument();
    expect(api.callsTo(on(c.finalize))[0]?.body).toEqual({ program_id: 1, external_order_ids: [11] });
    expect(await within(finalize).findByText('Every order of this date is finalized.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });
});
