import {
  type BillingRow,
  billingContract,
  notificationsContract,
  platformContract,
  userContract,
} from '@caredeck/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { localToday } from '../../../shared/ui/period';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';
import { monthAround } from '../period';

const row = (id: number, last: string, overrides: Partial<BillingRow> = {}): BillingRow => ({
  patient: { id, first_name: 'Pat', last_name: last, mrn: `MRN-${id}` },
  status: 'billable',
  reading_days: 18,
  rpm_minutes: 42.5,
  rpm_interactive: true,
  physician_minutes: 0,
  ccm_minutes: 0,
  codes: [
    { code: '99454', units: 1 },
    { code: '99457', units: 1 },
    { code: '99458', units: 1 },
  ],
  billable: true,
  ...overrides,
});
const summary = {
  patients: 2,
  billable_patients: 1,
  rpm_minutes: 50.5,
  ccm_minutes: 0,
  codes: { '99454': 1, '99457': 1 },
};
const page = (data: BillingRow[]) => ({
  data,
  current_page: 1,
  last_page: 1,
  per_page: 25,
  total: data.length,
  summary,
});

describe('/billings', () => {
  it("shows this month's billing per patient, filters in the URL, and changes a patient's billing status", async () => {
    const month = monthAround(localToday());
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(billingContract.report, month)]: (request) => ({
        body:
          request.url.searchParams.get('only_billable') === '1'
            ? page([row(11, 'Adams')])
            : page([
                row(11, 'Adams'),
                row(12, 'Baker', {
                  reading_days: 4,
                  rpm_minutes: 8,
                  rpm_interactive: false,
                  codes: [],
                  billable: false,
                }),
              ]),
      }),
      [on(billingContract.codes, { programId: 1 })]: { body: { data: [] } },
      [on(billingContract.setStatus, { programId: 1, userId: 12 })]: (request) => ({
        body: {
          message: 'Billing Status Updated',
          data: { patient_id: 12, ...(request.body as { status: 'on_hold'; reason: string }) },
        },
      }),
    });
    signInForTest();
    const { router } = renderRoutes('/billings');
    const table = await screen.findByTestId('billing-table');
    const adams = within(table).getByTestId('billing-row-11');
    expect(adams).toHaveTextContent('Adams, Pat');
    expect(within(adams).getByLabelText('16 or more days: device supply (99454) is met')).toBeInTheDocument();
    expect(adams).toHaveTextContent('99458');
    expect(within(table).getByTestId('billing-row-12')).toHaveTextContent('None yet');
    expect(screen.getByTestId('billing-billable')).toHaveTextContent('1');
    expect(screen.getByTestId('billing-rpm')).toHaveTextContent('50.5');
    expect(within(adams).getByRole('link', { name: 'Adams, Pat' })).toHaveAttribute(
      'href',
      '/patient/11?tab=time',
    );

    await userEvent.click(screen.getByLabelText('Only patients earning a code'));
    expect(router.state.location.search).toBe('?only=1');
    await screen.findByText('Page 1 of 1 · 1 patient');
    expect(api.calls.at(-1)?.url.searchParams.get('program_id')).toBe('1');

    await userEvent.click(screen.getByLabelText('Only patients earning a code'));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Change the billing status of Baker, Pat' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByText('On hold'));
    await userEvent.type(screen.getByLabelText('Reason (optional)'), 'Hospital stay');
    await userEvent.click(screen.getByRole('button', { name: 'Save status' }));
    expect(await screen.findByText('Billing status of Pat Baker is now On hold')).toBeInTheDocument();
    expect(api.callsTo(on(billingContract.setStatus, { programId: 1, userId: 12 }))[0]?.body).toEqual({
      status: 'on_hold',
      reason: 'Hospital stay',
    });
    expect(api.unhandled).toEqual([]);
  });
});
