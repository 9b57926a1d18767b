import {
  notificationsContract,
  platformContract,
  type Report,
  type ReportRun,
  reportsContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const run = (overrides: Partial<ReportRun> = {}): ReportRun => ({
  id: 50,
  status: 'done',
  period_start: '2026-10-28',
  period_end: '2026-11-26',
  file_name: 'adherence_summary_2026_11_26_10_00_report.xlsx',
  bytes: 5120,
  rows: 12,
  error: null,
  attempts: 1,
  delivery: 'none',
  delivery_error: null,
  created_at: '2026-11-26T15:00:00Z',
  finished_at: '2026-11-26T15:00:02Z',
  url: '/api/v1/programs/1/report/5/runs/50/file',
  ...overrides,
});
const report = (id: number, overrides: Partial<Report> = {}): Report => ({
  id,
  program_id: 1,
  enterprise_id: 1,
  name: 'Adherence summary',
  type: 'adherence_summary',
  audience: 'care',
  format: 'xlsx',
  period: 'last_30_days',
  start: null,
  end: null,
  recurrence: 'none',
  recurrence_state: 'running',
  next_run_at: null,
  destination: null,
  user: { id: 7, name: 'Ada Admin' },
  created_at: '2026-11-26T15:00:00Z',
  last_run: run(),
  failed_runs: 0,
  url: '/api/v1/programs/1/report/5/runs/50/file',
  ...overrides,
});
const list = (data: Report[]) => ({ data, current_page: 1, last_page: 1, per_page: 10, total: data.length });
const TYPES = {
  data: [
    {
      type: 'patient_roster',
      audience: 'care',
      name: 'Patient roster',
      description: '…',
      formats: ['xlsx', 'csv'],
    },
    {
      type: 'adherence_summary',
      audience: 'care',
      name: 'Adherence summary',
      description: '…',
      formats: ['xlsx', 'csv'],
    },
  ],
};

describe('/reports', () => {
  it('lists reports with their state, filters by type in the URL, requests one and stops a recurrence', async () => {
    const weekly = report(6, {
      name: 'Weekly readings',
      type: 'readings_summary',
      recurrence: 'weekly',
      next_run_at: '2026-12-03T15:00:00Z',
      failed_runs: 1,
      last_run: run({ id: 60, status: 'failed', error: 'disk full', url: null }),
      url: null,
    });
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(reportsContract.types, { programId: 1 })]: { body: TYPES },
      [on(reportsContract.list, { programId: 1 })]: (request) => ({
        body:
          request.url.searchParams.get('type') === 'adherence_summary'
            ? list([report(5)])
            : list([report(5), weekly]),
      }),
      [on(reportsContract.create, { programId: 1 })]: {
        status: 201,
        body: { ...report(7, { last_run: run({ status: 'queued', url: null }), url: null }), runs: [] },
      },
      [on(reportsContract.stop, { enterpriseId: 1, reportId: 6 })]: {
        body: { message: 'Report Recurrence Stopped', report: { ...weekly, recurrence_state: 'stopped' } },
      },
    });
    signInForTest();
    const { router } = renderRoutes('/reports');
    const table = await screen.findByTestId('reports');
    const rows = within(table).getAllByTestId('report-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Ready');
    expect(rows[1]).toHaveTextContent('Every week');
    expect(rows[1]).toHaveTextContent('1 failed run');
    expect(
      within(rows[1]!).getByRole('button', { name: 'Download the newest file of Weekly readings' }),
    ).toBeDisabled();
    expect(api.calls.find((c) => c.path.endsWith('/report'))?.url.searchParams.get('audience')).toBe('care');

    await userEvent.click(screen.getByRole('combobox', { name: 'Report type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Adherence summary' }));
    await waitFor(() => expect(router.state.location.search).toBe('?type=adherence_summary'));
    await waitFor(() =>
      expect(within(screen.getByTestId('reports')).getAllByTestId('report-row')).toHaveLength(1),
    );

    await userEvent.click(screen.getByRole('button', { name: 'New report' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request report' }));
    expect(await within(dialog).findByText('Choose a report type.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Report type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Patient roster' }));
    await userEvent.click(within(dialog).getByText('CSV'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request report' }));
    expect(await screen.findByText('Report Requested')).toBeInTheDocument();
    expect(api.callsTo(on(reportsContract.create, { programId: 1 }))[0]?.body).toEqual({
      type: 'patient_roster',
      format: 'csv',
      period: 'last_30_days',
      recurrence: 'none',
      destination_id: null,
    });

    await router.navigate('/reports');
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(2));
    const weeklyRow = screen.getAllByTestId('report-row')[1]!;
    await userEvent.click(within(weeklyRow).getByRole('button', { name: 'Recurrence of Weekly readings' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Stop recurrence' }));
    const confirm = await screen.findByRole('dialog', { name: 'Stop this recurring report?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Stop recurrence' }));
    expect(await screen.findByText('Report Recurrence Stopped')).toBeInTheDocument();
    expect(api.callsTo(on(reportsContract.stop, { enterpriseId: 1, reportId: 6 }))).toHaveLength(1);
  });
});
