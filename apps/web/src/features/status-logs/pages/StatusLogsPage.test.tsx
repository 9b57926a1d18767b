import {
  notificationsContract,
  platformContract,
  type StatusLogEntry,
  statusLogsContract,
  tenancyContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type MockHandler, mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const entry = (id: number, overrides: Partial<StatusLogEntry> = {}): StatusLogEntry => ({
  id,
  at: '2026-11-20T14:05:00.000Z',
  patient: { id: 11, name: 'Ada Lovelace', mrn: 'HF-0042' },
  program: { id: 1, name: 'CareDeck Main' },
  from: 'active',
  to: 'pending',
  source: 'single',
  reason: null,
  changed_by: { id: 3, name: 'Nina Nurse' },
  ...overrides,
});
const page = (
  data: StatusLogEntry[],
  extra: { last_page?: number; total?: number; current_page?: number } = {},
) => ({
  data,
  current_page: extra.current_page ?? 1,
  last_page: extra.last_page ?? 1,
  per_page: 25,
  total: extra.total ?? data.length,
});
const LOG = on(statusLogsContract.list, { programId: 1 });

async function openLog(path: string, log: MockHandler) {
  const api = mockFetch({
    [on(userContract.me)]: { body: makeUser() },
    [on(platformContract.config)]: { body: CONFIG },
    [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
    [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
    [on(tenancyContract.programAdmins, { programId: 1 })]: {
      body: {
        data: [
          { id: 3, given_name: 'Nina', family_name: 'Nurse', name: 'Nina Nurse', title: null, roles: [] },
          { id: 4, given_name: 'Omar', family_name: 'Admin', name: 'Omar Admin', title: null, roles: [] },
        ],
      },
    },
    [LOG]: log,
  });
  signInForTest();
  const { router } = renderRoutes(path);
  return { api, router };
}
const lastQuery = (api: Awaited<ReturnType<typeof openLog>>['api']) =>
  Object.fromEntries(api.callsTo(LOG).at(-1)!.url.searchParams);

describe('/status-logs', () => {
  it('lists the last 30 days of status changes, each row leading to the patient', async () => {
    const { api, router } = await openLog('/status-logs', () => ({
      body: page(
        [
          entry(2, {
            patient: { id: 12, name: 'Grace Hopper', mrn: null },
            from: 'pending',
            to: 'discharged',
            source: 'bulk_action',
            reason: 'Waiting for a device',
            changed_by: { id: 4, name: 'Omar Admin' },
          }),
          entry(1, { from: null, to: 'active', source: 'enrolment', changed_by: null }),
        ],
        { total: 2 },
      ),
    }));
    const table = await screen.findByTestId('status-log');
    const [grace, ada] = within(table).getAllByTestId('status-log-row');
    expect(grace).toHaveTextContent('Pending to Discharged');
    expect(grace).toHaveTextContent('Bulk action');
    expect(grace).toHaveTextContent('Reason: Waiting for a device');
    expect(grace).toHaveTextContent('Omar Admin');
    // The MRN as recorded, without a label before it (demo MRNs start with "MRN-" themselves).
    expect(within(ada!).getByText('HF-0042')).toBeInTheDocument();
    expect(ada).toHaveTextContent('Enrolled as Active');
    expect(ada).toHaveTextContent('Enrolment');
    expect(ada).toHaveTextContent('System');
    expect(screen.getByText('Page 1 of 1 · 2 changes')).toBeInTheDocument();
    // The default period: the last 30 days, up to today.
    const query = lastQuery(api);
    expect(Date.parse(query.end!) - Date.parse(query.start!)).toBe(29 * 86_400_000);
    expect(query).toMatchObject({ page: '1', per_page: '25' });

    // The patient's name is a link (keyboard and screen readers); a click on the row opens the patient too.
    const link = within(grace!).getByRole('link', { name: 'Grace Hopper' });
    expect(link).toHaveAttribute('href', '/patient/12');
    link.focus();
    expect(link).toHaveFocus();
    await userEvent.click(within(ada!).getByText('Enrolment'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/patient/11'));
  });

  it('shows the reason staff gave with a single or bulk change, and the MRN once', async () => {
    await openLog('/status-logs', () => ({
      body: page([
        entry(4, {
          patient: { id: 13, name: 'Alan Turing', mrn: 'MRN-104073' },
          to: 'discharged',
          source: 'bulk',
          reason: 'Programme year ended',
        }),
        entry(3, { reason: 'Hospitalised, waiting for discharge papers' }),
        entry(2, { to: 'inactive', reason: null }),
      ]),
    }));
    const [bulk, single, plain] = within(await screen.findByTestId('status-log')).getAllByTestId(
      'status-log-row',
    );
    expect(bulk).toHaveTextContent('Bulk change');
    expect(bulk).toHaveTextContent('Reason: Programme year ended');
    expect(bulk).toHaveTextContent('MRN-104073');
    expect(bulk).not.toHaveTextContent('MRN MRN');
    expect(single).toHaveTextContent('Single change');
    expect(single).toHaveTextContent('Reason: Hospitalised, waiting for discharge papers');
    expect(plain).toHaveTextContent('Single change');
    expect(plain).not.toHaveTextContent('Reason');
  });

  it('sends the filters, keeps them and the page in the URL, and clears them', async () => {
    const { api, router } = await openLog('/status-logs?status=discharged&search=lov', (request) => ({
      body: page([entry(Number(request.url.searchParams.get('page')) || 1)], {
        last_page: 3,
        total: 60,
        current_page: Number(request.url.searchParams.get('page')) || 1,
      }),
    }));
    await screen.findByTestId('status-log');
    expect(lastQuery(api)).toMatchObject({ status: 'discharged', search: 'lov' });
    expect(screen.getByLabelText('Patient (name or MRN)')).toHaveValue('lov');

    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '2', status: 'discharged' }));
    expect(router.state.location.search).toContain('page=2');

    await userEvent.click(screen.getByLabelText('Changed by', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Omar Admin' }));
    // A new filter starts again from page 1.
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ admin_id: '4', page: '1' }));
    expect(router.state.location.search).not.toContain('page=');

    await userEvent.click(screen.getByLabelText('How', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Bulk change' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ source: 'bulk' }));

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastQuery(api)).not.toHaveProperty('status'));
    expect(lastQuery(api)).not.toHaveProperty('admin_id');
    expect(lastQuery(api)).not.toHaveProperty('search');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('says so when nothing matches, and offers a retry when the log cannot be loaded', async () => {
    let fail = true;
    const { api } = await openLog('/status-logs', () =>
      fail ? { status: 500, body: { message: 'Server Error', error_id: 'x' } } : { body: page([]) },
    );
    expect(await screen.findByText('The status log could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No status changes match these filters.')).toBeInTheDocument();
    expect(api.callsTo(LOG).length).toBeGreaterThanOrEqual(2);
  });

  it('reads the enterprise’s programs on enterprise scope, narrowed to one on request', async () => {
    localStorage.setItem('AppLastUserId', '7');
    localStorage.setItem(
      'AppActiveEnterprise',
      JSON.stringify({ id: 1, name: 'Northwind Health', slug: 'northwind' }),
    );
    localStorage.setItem('AppEnterpriseState', 'enterprise');
    const enterpriseLog = on(statusLogsContract.enterpriseList, { enterpriseId: 1 });
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(platformContract.config)]: { body: CONFIG },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
      [on(notificationsContract.staff, { programId: 1 })]: { body: { data: [], unread: 0 } },
      [on(tenancyContract.programAdmins, { programId: 2 })]: { body: { data: [] } },
      [enterpriseLog]: { body: page([entry(1, { program: { id: 2, name: 'Cardio Care' } })]) },
    });
    signInForTest();
    renderRoutes('/status-logs');
    const table = await screen.findByTestId('status-log');
    expect(within(table).getByRole('columnheader', { name: 'Program' })).toBeInTheDocument();
    expect(within(table).getByText('Cardio Care')).toBeInTheDocument();
    expect(screen.queryByLabelText('Changed by', { selector: 'input' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Program', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Cardio Care' }));
    await waitFor(() =>
      expect(Object.fromEntries(api.callsTo(enterpriseLog).at(-1)!.url.searchParams)).toMatchObject({
        program_id: '2',
      }),
    );
    expect(await screen.findByLabelText('Changed by', { selector: 'input' })).toBeInTheDocument();
    expect(api.callsTo(LOG)).toHaveLength(0);
  });
});
