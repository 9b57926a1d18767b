import {
  ALERT_TYPE_INFO,
  ALERT_TYPES,
  type Alert,
  alertsContract,
  platformContract,
  userContract,
} from '@caredeck/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deliverLiveEvent } from '../../../app/realtime';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const BP = 'out_range_blood_pressure_alerts';

function tiles(bp: number) {
  return {
    data: ALERT_TYPES.map((type) => ({
      type,
      group: ALERT_TYPE_INFO[type].group,
      evaluated: ALERT_TYPE_INFO[type].evaluated,
      count: type === BP ? bp : 0,
      patients: type === BP ? bp : 0,
      unacknowledged: type === BP ? bp : 0,
      snoozed: 0,
    })),
    total: bp,
  };
}

const alert: Alert = {
  id: 41,
  type: BP,
  status: 'open',
  program_id: 1,
  patient: { id: 9, name: 'Kreiger, Jamil', mrn: 'MRN-100037' },
  occurrences: 2,
  first_at: '2026-11-24T10:00:00.000Z',
  last_at: '2026-11-24T10:05:00.000Z',
  summary: 'Systolic 181 ≥ 160',
  assigned_admin: null,
  acknowledged_by: null,
  acknowledged_at: null,
  escalated_at: null,
  escalated_to_role: null,
  resolved_at: null,
  resolution: null,
  snoozed_until: null,
  hidden: false,
};
const page = (data: Alert[]) => ({ data, current_page: 1, last_page: 1, per_page: 25, total: data.length });

function base(handlers: Parameters<typeof mockFetch>[0]) {
  return mockFetch({
    [on(userContract.me)]: { body: makeUser() },
    [on(platformContract.config)]: { body: CONFIG },
    [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
    ...handlers,
  });
}

describe('/alerts', () => {
  it('shows the tiles and the chosen type, reloads on a live change, and says so when clearing fails', async () => {
    let count = 1;
    const api = base({
      [on(alertsContract.groups)]: () => ({ body: tiles(count) }),
      [on(alertsContract.list, { type: BP, period: 'week', cohort: 'all' })]: { body: page([alert]) },
      [on(alertsContract.deleteAlerts)]: { status: 500, body: { message: 'boom' } },
    });
    signInForTest();
    renderRoutes(`/alerts?type=${BP}`);
    const tile = await screen.findByTestId(`alert-tile-${BP}`);
    expect(tile).toHaveAttribute('aria-pressed', 'true');
    expect(within(tile).getByTestId('alert-tile-count')).toHaveTextContent('1');
    // Every type of 02 §7 is evaluated and has its tile, the survey ones too.
    expect(screen.getByTestId('alert-tile-completed_surveys_alerts')).toBeInTheDocument();
    const row = await screen.findByTestId('alert-row');
    expect(row).toHaveTextContent('Kreiger, Jamil');
    expect(row).toHaveTextContent('Systolic 181 ≥ 160');
    expect(
      api.calls.find((c) => c.path.endsWith(`/alerts/${BP}/week/all`))?.url.searchParams.get('program_id'),
    ).toBe('1');

    count = 2;
    deliverLiveEvent('alerts.changed', { types: [BP] });
    expect(await within(tile).findByText('2')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('checkbox'));
    await userEvent.click(
      within(screen.getByTestId('alert-bulk-actions')).getByRole('button', { name: 'Clear' }),
    );
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Backend error!')).toBeInTheDocument();

    // An alert escalated to the user's role: a notice linking to it, wherever they are.
    deliverLiveEvent('alerts.escalated', { alert_id: 41, type: BP, role: 'physician' });
    const notice = await screen.findByRole('link', {
      name: 'High blood pressure: an alert was escalated to you.',
    });
    expect(notice).toHaveAttribute('href', `/alerts?type=${BP}&status=all&alert=41`);
  });

  it('empties the list and offers a retry when it cannot be loaded', async () => {
    base({
      [on(alertsContract.groups)]: { body: tiles(1) },
      [on(alertsContract.list, { type: BP, period: 'week', cohort: 'all' })]: {
        status: 500,
        body: { message: 'x' },
      },
    });
    signInForTest();
    renderRoutes(`/alerts?type=${BP}`);
    expect(await screen.findByText('The alerts could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByTestId('alert-row')).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
