import {
  type BillingPeriodRow,
  billingAtRiskContract,
  billingPeriodsContract,
  billingPeriodsExportContract,
  notificationsContract,
  platformContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const track = (
  seconds: number,
  codes: { code: string; units: number }[],
  next: BillingPeriodRow['rpm_time']['next'],
) => ({
  seconds,
  shown: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
  interactive: true,
  codes,
  next,
  entries: seconds > 0 ? [{ id: 5, started_at: '2026-10-05T14:00:00.000Z', seconds, interactive: true }] : [],
});
const ann: BillingPeriodRow = {
  patient: { id: 11, first_name: 'Ann', last_name: 'Aardvark', mrn: null },
  time_zone: 'America/New_York',
  supply_start: '2026-10-01',
  supply_start_source: 'device',
  period: { index: 0, start: '2026-10-01', end: '2026-10-30', days_left: 11 },
  device: {
    dates: ['2026-10-01', '2026-10-02'],
    code: '99445',
    setup_code: '99453',
    next: { code: '99454', days_needed: 14 },
  },
  month: { start: '2026-10-01', end: '2026-10-31' },
  rpm_time: track(1199, [{ code: '99470', units: 1 }], {
    code: '99457',
    seconds_needed: 1,
    needs_interactive: false,
  }),
  ccm_time: track(0, [], { code: '99490', seconds_needed: 1200, needs_interactive: false }),
  physician_time: { ...track(1800, [{ code: '99091', units: 1 }], null), interactive: false },
};

describe('/billings?view=evidence', () => {
  it('shows each code with what earned it, time as minutes:seconds, and what the next code needs', async () => {
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(billingPeriodsContract.periods, { programId: 1 })]: {
        body: { data: [ann], current_page: 1, last_page: 1, per_page: 25, total: 1, next_cursor: null },
      },
    });
    signInForTest();
    renderRoutes('/billings?view=evidence');
    // The first render loads the lazy page chunk: on a loaded machine that takes more than the default second.
    const table = await screen.findByTestId('billing-periods-table', {}, { timeout: 10_000 });
    const row = within(table).getByTestId('billing-period-row');
    expect(row).toHaveTextContent('2026-10-01 to 2026-10-30 (11 days left)');
    expect(row).toHaveTextContent('2 device days');
    expect(row).toHaveTextContent('99445');
    expect(row).toHaveTextContent('99454: 14 more device days');
    // 1,199 s is 19:59 and 99470, with one second missing for 99457: never "20 minutes".
    expect(row).toHaveTextContent('19:59');
    expect(row).toHaveTextContent('99457: 0:01 more');
    expect(within(row).getByTestId('billing-physician-time')).toHaveTextContent(
      'Physicians’ time this period: 30:00',
    );

    const toggle = within(row).getByRole('button', { name: 'Evidence for Aardvark, Ann' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const evidence = screen.getByTestId('billing-evidence');
    expect(
      within(evidence)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['2026-10-01', '2026-10-02', expect.stringMatching(/^RPM · .+ · 19:59 · interactive$/)]);
    expect(api.unhandled).toEqual([]);
  });

  it('takes the code, status and "assigned to me" filters from the URL and says when they match nothing', async () => {
    const periods = on(billingPeriodsContract.periods, { programId: 1 });
    const csv = on(billingPeriodsExportContract.csv, { programId: 1 });
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [periods]: {
        body: { data: [], current_page: 1, last_page: 1, per_page: 25, total: 0, next_cursor: null },
      },
      [csv]: { body: 'MRN' },
    });
    URL.createObjectURL = vi.fn(() => 'blob:billing');
    URL.revokeObjectURL = vi.fn();
    signInForTest();
    renderRoutes('/billings?view=evidence&code=99454&status=earning&mine=1');
    expect(await screen.findByTestId('billing-periods-empty', {}, { timeout: 10_000 })).toHaveTextContent(
      'No patient matches these filters.',
    );
    const query = Object.fromEntries(api.callsTo(periods).at(-1)?.url.searchParams ?? []);
    expect(query).toMatchObject({ code: '99454', status: 'earning', assignee_id: String(makeUser().id) });
    expect(screen.getByTestId('filter-mine')).toBeChecked();

    // The export takes the filters on screen and no page: every matching patient.
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(api.callsTo(csv)).toHaveLength(1));
    expect(Object.fromEntries(api.callsTo(csv)[0]?.url.searchParams ?? [])).toEqual({
      code: '99454',
      status: 'earning',
      assignee_id: String(makeUser().id),
    });

    // Clearing the filters asks for everyone again.
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => {
      const last = api.callsTo(periods).at(-1)?.url.searchParams;
      expect(last?.has('code') || last?.has('status') || last?.has('assignee_id')).toBe(false);
    });
    expect(await screen.findByTestId('billing-periods-empty')).toHaveTextContent(
      'No patients in this program.',
    );
    expect(api.unhandled).toEqual([]);
  });
});

describe('/billings?view=at-risk', () => {
  it('asks for the signed-in user\'s patients when "Assigned to me" is in the URL', async () => {
    const atRisk = on(billingAtRiskContract.atRisk, { programId: 1 });
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [atRisk]: { body: { data: [], current_page: 1, last_page: 1, per_page: 25, total: 0 } },
    });
    signInForTest();
    renderRoutes('/billings?view=at-risk&mine=1');
    expect(await screen.findByText('No patient is at risk.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(api.callsTo(atRisk).map((c) => c.url.searchParams.get('assignee_id'))).toEqual([
      String(makeUser().id),
    ]);
    expect(api.unhandled).toEqual([]);
  });
});
