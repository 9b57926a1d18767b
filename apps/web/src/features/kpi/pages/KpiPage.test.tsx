import {
  type KpiReport,
  kpiContract,
  notificationsContract,
  platformContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deliverLiveEvent, PATIENT_DATA_EVENT } from '../../../app/realtime';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const day = (offset: number) => {
  const t = new Date();
  t.setUTCDate(t.getUTCDate() - offset);
  return t.toISOString().slice(0, 10);
};
const totals = {
  due: 40,
  on_time: 30,
  late: 4,
  missed: 5,
  skipped: 1,
  partial: 0,
  pending: 2,
  adherence: 85,
  compliance: 75,
};

function report(start: string, end: string): KpiReport {
  return {
    start,
    end,
    generated_at: new Date().toISOString(),
    programs: [{ id: 1, name: 'CareDeck Monitoring' }],
    patients: { enrolled: 12, active: 10, with_dispenser: 9, with_doses_due: 8 },
    devices: { dispensers: 9, connected: 2, seen_24h: 7, low_battery: 1 },
    doses: { ...totals, extra: 3 },
    adherence_bands: { high: 5, medium: 2, low: 1 },
    readings: { measurements: 50, patients_measured: 4, out_of_range: 6 },
    daily: [{ date: start, ...totals }],
  };
}

describe('/kpi', () => {
  it('shows the program indicators of the last 30 days and switches to 7 days in the URL', async () => {
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      // The shell's notification bell.
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(kpiContract.program, { programId: 1, start: day(29), end: day(0) })]: {
        body: report(day(29), day(0)),
      },
      [on(kpiContract.program, { programId: 1, start: day(6), end: day(0) })]: {
        body: { ...report(day(6), day(0)), doses: { ...totals, adherence: 60, extra: 0 } },
      },
    });
    signInForTest();
    const { router } = renderRoutes('/kpi');
    expect(await screen.findByTestId('kpi-adherence')).toHaveTextContent('85.00 %');
    expect(screen.getByTestId('kpi-dispensers')).toHaveTextContent('7');
    expect(screen.getByTestId('band-high')).toHaveTextContent('5');
    // When the figures were computed (a large program's may be up to half a minute old, ADR 077).
    expect(screen.getByTestId('kpi-as-of')).toHaveTextContent(/^As of \d\d\/\d\d\/\d{4}/);
    await userEvent.click(screen.getByText('Last 7 days'));
    expect(await screen.findByText('60.00 %')).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?start=${day(6)}&end=${day(0)}`);
    expect(api.unhandled).toEqual([]);
  });

  it('refreshes the figures when device data arrives, at most every 10 seconds', async () => {
    let adherence = 85;
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(kpiContract.program, { programId: 1, start: day(29), end: day(0) })]: () => ({
        body: { ...report(day(29), day(0)), doses: { ...totals, adherence, extra: 0 } },
      }),
    });
    signInForTest();
    renderRoutes('/kpi');
    expect(await screen.findByTestId('kpi-adherence')).toHaveTextContent('85.00 %');
    const calls = () =>
      api.callsTo(on(kpiContract.program, { programId: 1, start: day(29), end: day(0) })).length;
    const before = calls();
    // A dose is stored: the first event refreshes at once.
    adherence = 90;
    deliverLiveEvent(PATIENT_DATA_EVENT, { patient_id: 3, kinds: ['dose'] });
    expect(await screen.findByText('90.00 %')).toBeInTheDocument();
    // A burst right after waits for the 10 s window: no request per event.
    adherence = 95;
    for (let i = 0; i < 20; i++) deliverLiveEvent(PATIENT_DATA_EVENT, { patient_id: i, kinds: ['dose'] });
    await new Promise((r) => setTimeout(r, 300));
    expect(calls()).toBe(before + 1);
    expect(screen.getByTestId('kpi-adherence')).toHaveTextContent('90.00 %');
    await waitFor(() => expect(calls()).toBe(before + 1));
  });
});
