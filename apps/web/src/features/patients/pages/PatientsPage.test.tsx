import {
  groupsContract,
  patientRecordContract,
  patientsContract,
  platformContract,
  summariesContract,
  tenancyContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n';
import { type MockReply, mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makePatient, makeUser, pageOf } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';
import { patientSearch } from '../searchStore';

function patientsServer(
  list: (url: URL) => MockReply,
  user = makeUser(),
  extra: Parameters<typeof mockFetch>[0] = {},
  bulkReply?: MockReply,
) {
  return mockFetch({
    ...extra,
    [on(userContract.me)]: { body: user },
    [on(platformContract.config)]: { body: CONFIG },
    [on(patientsContract.list, { programId: 1 })]: (request) => list(request.url),
    [on(patientsContract.enterpriseList, { enterpriseId: 1 })]: (request) => list(request.url),
    [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
    [on(groupsContract.list, { programId: 1 })]: {
      body: pageOf([
        {
          id: 5,
          program_id: 1,
          name: 'Morning calls',
          description: null,
          queryTo: null,
          users_count: 2,
          created_by: null,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      ]),
    },
    [on(patientRecordContract.bulkStatus)]: (request) =>
      bulkReply ?? { body: { updated: (request.body as { users_id: number[] }).users_id.length } },
  });
}

const PATIENTS = [
  makePatient(1, {
    first_name: 'Ada',
    last_name: 'Lovelace',
    name: 'Ada Lovelace',
    dob: '1950-03-09',
    sex: 'female',
    status: 'active',
  }),
  makePatient(2, {
    first_name: 'Alan',
    last_name: 'Turing',
    name: 'Alan Turing',
    dob: null,
    sex: 'male',
    status: 'pending',
    assigned_admin: null,
  }),
];

function lastQuery(api: ReturnType<typeof mockFetch>, key = on(patientsContract.list, { programId: 1 })) {
  const calls = api.callsTo(key);
  return Object.fromEntries(calls[calls.length - 1]?.url.searchParams ?? []);
}

async function openPatients(
  path = '/patients',
  list: (url: URL) => MockReply = () => ({ body: pageOf(PATIENTS, 1, 10, 42) }),
  extra: Parameters<typeof mockFetch>[0] = {},
) {
  const api = patientsServer(list, undefined, extra);
  signInForTest();
  const view = renderRoutes(path);
  return { api, ...view };
}

describe('the patient list', () => {
  it('shows name (family name first, as sorted), MRN, birth date with age, sex, status, alerts, adherence, last reading and assignee', async () => {
    const { api } = await openPatients();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByTestId('patient-row');
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '',
      'Lovelace, Ada',
      'MRN-1',
      '03/09/1950 (76 y)',
      'Female',
      'Active',
      '–',
      '–',
      '–',
      'Ada Admin',
    ]);
    expect(
      within(rows[1] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['', 'Turing, Alan', 'MRN-2', 'Not Provided', 'Male', 'Pending', '–', '–', '–', 'Unassigned']);
    expect(screen.getByTestId('patients-total')).toHaveTextContent('Total: 42');
    expect(lastQuery(api)).toEqual({ page: '1', per_page: '10', sort_by: 'name', sort_direction: 'ASC' });
  });

  it('shows open alerts (escalated ones stand out) and the created date when the list is sorted by it', async () => {
    const summary = (patientId: number, openAlerts: number, escalated: boolean) => ({
      patient_id: patientId,
      adherence: 87.5,
      compliance: 80,
      due: 8,
      missed: 1,
      last_reading: null,
      open_alerts: openAlerts,
      escalated,
    });
    patientsServer(() => ({ body: pageOf(PATIENTS, 1, 10, 42) }), makeUser(), {
      [on(summariesContract.summaries, { programId: 1 })]: {
        body: { data: [summary(1, 2, true), summary(2, 0, false)] },
      },
    });
    signInForTest();
    renderRoutes('/patients?sort_by=created_at&sort_direction=DESC');
    await screen.findAllByTestId('patient-row');
    // The columns beside the rows load right after the list.
    const alerts = await screen.findByText('2 open alerts, one or more escalated');
    expect(alerts.closest('td')).toHaveTextContent(/^2/);
    const rows = screen.getAllByTestId('patient-row');
    const cells = within(rows[1] as HTMLElement)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[6]).toBe('0');
    expect(cells[7]).toBe('88 %');
    expect(cells[10]).toBe('02/01/2026');
    expect(screen.getByRole('columnheader', { name: /Created/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('gives the birth date room for its month name and the age outside English, in the same total width', async () => {
    await i18n.changeLanguage('de');
    patientsServer(
      () => ({ body: pageOf(PATIENTS, 1, 10, 42) }),
      makeUser({ settings: { language: 'de', theme: 'light' } }),
    );
    signInForTest();
    renderRoutes('/patients');
    // The whole date and the age: '9. März 1950 (76 J.)', not '9. März 1950 (7…'.
    const dob = await screen.findByText('9. März 1950', { exact: false });
    expect(dob.closest('td')).toHaveTextContent('9. März 1950 (76 J.)');
    // Mantine writes `w={175}` as calc(10.9375rem * var(--mantine-scale)).
    const widths = screen
      .getAllByRole('columnheader')
      .map((th) => Number(/([\d.]+)rem/.exec((th as HTMLElement).style.width)?.[1] ?? 0) * 16);
    // Columns: selection, name, MRN, date of birth, sex, status, alerts, adherence, last reading, assignee.
    expect(widths[3]).toBeGreaterThanOrEqual(175);
    // The fixed columns take no more than English's 934 pixels, so the list still fits a 1440-pixel screen.
    expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(934);
  });

  it("shows 'N/A' for a date that cannot be read, and both texts in the interface language", async () => {
    await i18n.changeLanguage('de');
    patientsServer(
      () => ({
        body: pageOf([makePatient(3, { name: 'Grace Hopper', dob: 'unknown', assigned_admin: null })]),
      }),
      makeUser({ settings: { language: 'de', theme: 'light' } }),
    );
    signInForTest();
    renderRoutes('/patients?sort_by=created_at&sort_direction=DESC');
    const row = await screen.findByTestId('patient-row');
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[3]).toBe('k. A.');
    expect(cells[9]).toBe('Niemand');
    // A cell that a long value may cut off carries its whole text.
    expect(within(row).getAllByRole('cell')[9]).toHaveAttribute('title', 'Niemand');
  });

  it('shows the last page when the page asked for is beyond it', async () => {
    const { api, router } = await openPatients('/patients?page=9', (url) => {
      const page = Number(url.searchParams.get('page'));
      return { body: { ...pageOf(page === 1 ? PATIENTS : [], page, 10, 2), last_page: 1 } };
    });
    expect(await screen.findAllByTestId('patient-row')).toHaveLength(2);
    expect(router.state.location.search).toBe('?page=1');
    expect(lastQuery(api).page).toBe('1');
    expect(screen.queryByTestId('patients-empty')).toBeNull();
  });

  it('searches by name after the debounce, from page 1', async () => {
    const { api } = await openPatients('/patients?page=3');
    await screen.findByRole('table');
    expect(lastQuery(api).page).toBe('3');
    await userEvent.type(screen.getByLabelText('Search patients'), 'lov');
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ name: 'lov', page: '1' }));
    expect(patientSearch.get()).toBe('lov');
  });

  it('clears the search when the box is cleared: the list is asked again unfiltered and no later filter brings it back', async () => {
    const { api, router } = await openPatients('/patients?name=lov');
    await screen.findByRole('table');
    expect(lastQuery(api).name).toBe('lov');
    const calls = api.callsTo(on(patientsContract.list, { programId: 1 })).length;
    await userEvent.clear(screen.getByLabelText('Search patients'));
    await waitFor(() =>
      expect(api.callsTo(on(patientsContract.list, { programId: 1 })).length).toBe(calls + 1),
    );
    expect(lastQuery(api).name).toBeUndefined();
    expect(router.state.location.search).not.toContain('name=');
    expect(patientSearch.get()).toBe('');
    await userEvent.click(screen.getByLabelText('Assigned to me'));
    await waitFor(() => expect(lastQuery(api).assignedAdmin).toBe('me'));
    expect(lastQuery(api).name).toBeUndefined();
    expect(screen.getByLabelText('Search patients')).toHaveValue('');
  });

  it('opened without a search, brings back the one the patient pages kept, once', async () => {
    patientSearch.set('tur');
    const { api, router } = await openPatients('/patients');
    await screen.findByRole('table');
    expect(lastQuery(api).name).toBe('tur');
    await waitFor(() => expect(router.state.location.search).toContain('name=tur'));
    await userEvent.clear(screen.getByLabelText('Search patients'));
    await waitFor(() => expect(lastQuery(api).name).toBeUndefined());
    expect(patientSearch.get()).toBe('');
  });

  it('sorts by a column, then the other way round', async () => {
    const { api } = await openPatients();
    await screen.findByRole('table');
    const header = screen.getByRole('columnheader', { name: /Date of birth/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    await userEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ sort_by: 'dob', sort_direction: 'ASC' }));
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'ascending'));
    await userEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ sort_by: 'dob', sort_direction: 'DESC' }));
  });

  it('pages, and changes the page size', async () => {
    const { api, router } = await openPatients('/patients', (url) => ({
      body: pageOf(
        PATIENTS,
        Number(url.searchParams.get('page')),
        Number(url.searchParams.get('per_page')),
        42,
      ),
    }));
    await screen.findByRole('table');
    const pages = screen.getByRole('navigation', { name: 'Patient list pages' });
    await userEvent.click(within(pages).getByRole('button', { name: '2' }));
    // The next page is sought from the last row of this one (keyset), not counted.
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '2', after: '2' }));
    // The arrow buttons have names too.
    await userEvent.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '3' }));
    await waitFor(() =>
      expect(within(pages).getByRole('button', { name: '3' })).toHaveAttribute('aria-current', 'page'),
    );
    await userEvent.click(within(pages).getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(router.state.location.search).toContain('before=1'));
    // Page 2 is still in the cache: the URL says where the list is.
    await waitFor(() => expect(router.state.location.search).toContain('page=2'));
    await userEvent.click(screen.getByLabelText('Rows per page', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: '25' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '1', per_page: '25' }));
  });

  it('says so when there are no patients', async () => {
    await openPatients('/patients', () => ({ body: pageOf([]) }));
    expect(await screen.findByTestId('patients-empty')).toHaveTextContent('No patients yet.');
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    let fail = true;
    const { api } = await openPatients('/patients', () =>
      fail ? { status: 404, body: { message: 'Not Found' } } : { body: pageOf(PATIENTS) },
    );
    expect(await screen.findByText('The patients could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(api.callsTo(on(patientsContract.list, { programId: 1 })).length).toBeGreaterThanOrEqual(2);
  });

  it('lists the enterprise’s patients on enterprise scope', async () => {
    localStorage.setItem('AppLastUserId', '7');
    localStorage.setItem(
      'AppActiveEnterprise',
      JSON.stringify({ id: 1, name: 'Northwind Health', slug: 'northwind' }),
    );
    localStorage.setItem('AppEnterpriseState', 'enterprise');
    const { api } = await openPatients();
    await screen.findByRole('table');
    expect(api.callsTo(on(patientsContract.enterpriseList, { enterpriseId: 1 }))).toHaveLength(1);
    expect(api.callsTo(on(patientsContract.list, { programId: 1 }))).toHaveLength(0);
  });
});

describe('the worklist', () => {
  it('filters by assignment and status: sent to the API, kept in the URL, Back undoes them', async () => {
    const { api, router } = await openPatients();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Assigned to me' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ assignedAdmin: 'me', page: '1' }));
    await userEvent.click(screen.getByLabelText('Status', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Pending' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ assignedAdmin: 'me', statuses: 'pending' }));
    expect(router.state.location.search).toContain('statuses=pending');
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).not.toContain('statuses'));
    expect(router.state.location.search).toContain('assignedAdmin=me');
  });

  it('restores filters, cohort and search from the URL (a reload or a shared link)', async () => {
    const { api } = await openPatients('/patients?statuses=pending,discharged&group=5&name=lov&sex=female');
    await screen.findByRole('table');
    expect(lastQuery(api)).toMatchObject({
      statuses: 'pending,discharged',
      group: '5',
      name: 'lov',
      sex: 'female',
    });
    expect(screen.getByLabelText('Search patients')).toHaveValue('lov');
    expect(await screen.findByDisplayValue('Morning calls')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastQuery(api)).not.toHaveProperty('statuses'));
    expect(lastQuery(api)).not.toHaveProperty('group');
  });

  it('says so when no patient matches the filters', async () => {
    await openPatients('/patients?statuses=discharged', () => ({ body: pageOf([]) }));
    expect(await screen.findByTestId('patients-empty')).toHaveTextContent('No patients match these filters.');
  });

  it('changes the status of the selected patients after a confirmation', async () => {
    const { api } = await openPatients();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Alan Turing' }));
    expect(screen.getByTestId('bulk-bar')).toHaveTextContent('2 selected');
    await userEvent.click(screen.getByLabelText('New status', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await userEvent.click(screen.getByTestId('bulk-apply'));
    expect(await screen.findByText('Change the status of the selected patients?')).toBeInTheDocument();
    expect(api.callsTo(on(patientRecordContract.bulkStatus))).toHaveLength(0);
    await userEvent.click(screen.getByTestId('bulk-confirm'));
    expect(await screen.findByText('2 patients set to Inactive')).toBeInTheDocument();
    expect(api.callsTo(on(patientRecordContract.bulkStatus))[0]?.body).toEqual({
      users_id: [1, 2],
      value: 'inactive',
    });
    await waitFor(() => expect(screen.queryByTestId('bulk-bar')).toBeNull());
  });

  it('adds the selected patients to a cohort of the program at once', async () => {
    const summary = { id: 5, program_id: 1, name: 'Morning calls', description: null, queryTo: null };
    const { api } = await openPatients('/patients', undefined, {
      [on(groupsContract.addUsers, { id: 5 })]: {
        body: {
          ...summary,
          users_count: 4,
          created_by: null,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      },
    });
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Alan Turing' }));
    await userEvent.click(await screen.findByLabelText('Add to cohort…', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Morning calls' }));
    await userEvent.click(screen.getByTestId('bulk-cohort-add'));
    expect(await screen.findByText('2 patients added to Morning calls')).toBeInTheDocument();
    expect(api.callsTo(on(groupsContract.addUsers, { id: 5 }))[0]?.body).toEqual({ users: [1, 2] });
    await waitFor(() => expect(screen.queryByTestId('bulk-bar')).toBeNull());
  });

  it('a cohort name pasted into the picker and Enter chooses that cohort', async () => {
    await openPatients();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    const picker = await screen.findByLabelText('Add to cohort…', { selector: 'input' });
    picker.focus();
    await userEvent.paste('Morning');
    await screen.findByRole('option', { name: 'Morning calls' });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(picker).toHaveValue('Morning calls'));
    expect(screen.getByTestId('bulk-cohort-add')).toBeEnabled();
  });

  it('sends the reason given in the confirmation with the bulk change', async () => {
    const { api } = await openPatients();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Alan Turing' }));
    await userEvent.click(screen.getByLabelText('New status', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Discharged' }));
    await userEvent.click(screen.getByTestId('bulk-apply'));
    const dialog = await screen.findByRole('dialog', { name: 'Change the status of the selected patients?' });
    const reason = within(dialog).getByRole('textbox', { name: 'Reason (optional)' });
    expect(reason).toHaveAttribute('maxlength', '500');
    expect(dialog).toHaveTextContent('0/500 characters');
    await userEvent.type(reason, 'Programme year ended ');
    expect(dialog).toHaveTextContent('21/500 characters');
    await userEvent.click(screen.getByTestId('bulk-confirm'));
    expect(await screen.findByText('2 patients set to Discharged')).toBeInTheDocument();
    expect(api.callsTo(on(patientRecordContract.bulkStatus))[0]?.body).toEqual({
      users_id: [1, 2],
      value: 'discharged',
      reason: 'Programme year ended',
    });
  });

  it('speaks of one patient in the singular, in every language', async () => {
    const { api } = await openPatients();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    expect(screen.getByTestId('bulk-bar')).toHaveTextContent('1 selected');
    await userEvent.click(screen.getByLabelText('New status', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Pending' }));
    await userEvent.click(screen.getByTestId('bulk-apply'));
    const dialog = await screen.findByRole('dialog', { name: 'Change the status of the selected patients?' });
    expect(dialog).toHaveTextContent('1 patient will be set to Pending. The change is recorded');
    await userEvent.click(screen.getByTestId('bulk-confirm'));
    expect(await screen.findByText('1 patient set to Pending')).toBeInTheDocument();
    expect(api.callsTo(on(patientRecordContract.bulkStatus))[0]?.body).toEqual({
      users_id: [1],
      value: 'pending',
    });
    // The other languages' own plural rules, through i18next's count (French counts 0 and 1 as one).
    const done = (count: number, lng: string) => i18n.t('patients.bulk.done', { count, status: 'X', lng });
    expect(done(1, 'de')).toBe('1 Patient auf X gesetzt');
    expect(done(2, 'de')).toBe('2 Patienten auf X gesetzt');
    expect(done(0, 'fr')).toBe('0 patient passé au statut X');
    expect(done(2, 'fr')).toBe('2 patients passés au statut X');
    expect(done(1_000_000, 'fr')).toBe('1000000 patients passés au statut X');
    expect(done(1, 'pt')).toBe('1 doente passou a X');
    expect(done(1_000_000, 'pt')).toBe('1000000 doentes passaram a X');
    expect(i18n.t('patients.bulk.selected', { count: 1, lng: 'fr' })).toBe('1 sélectionné');
    expect(i18n.t('patients.bulk.selected', { count: 3, lng: 'pt' })).toBe('3 selecionados');
  });

  it('shows the server’s message when it refuses the reason, and keeps the confirmation open', async () => {
    patientsServer(
      () => ({ body: pageOf(PATIENTS, 1, 10, 42) }),
      makeUser(),
      {},
      {
        status: 422,
        body: { message: 'Invalid', errors: { reason: ['Keep the reason to at most 500 characters.'] } },
      },
    );
    signInForTest();
    renderRoutes('/patients');
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await userEvent.click(screen.getByLabelText('New status', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Pending' }));
    await userEvent.click(screen.getByTestId('bulk-apply'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), 'Too long');
    await userEvent.click(screen.getByTestId('bulk-confirm'));
    expect(await screen.findByText('Keep the reason to at most 500 characters.')).toBeInTheDocument();
    expect(screen.queryByText(/could not be changed/)).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: 'Reason (optional)' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('moves between patients with the arrow keys', async () => {
    await openPatients();
    await screen.findByRole('table');
    const ada = screen.getByRole('link', { name: 'Lovelace, Ada' });
    ada.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Turing, Alan' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(ada).toHaveFocus();
  });
});

const summaryOf = (patientId: number, adherence: number) => ({
  patient_id: patientId,
  adherence,
  compliance: adherence,
  due: 8,
  missed: 1,
  last_reading: null,
  open_alerts: 1,
  escalated: false,
});

describe('the worklist on enterprise scope and on a phone, and its other filters', () => {
  it('shows adherence and alerts on enterprise scope too, each patient from their own program', async () => {
    localStorage.setItem('AppLastUserId', '7');
    localStorage.setItem(
      'AppActiveEnterprise',
      JSON.stringify({ id: 1, name: 'Northwind Health', slug: 'northwind' }),
    );
    localStorage.setItem('AppEnterpriseState', 'enterprise');
    const api = patientsServer(
      () => ({ body: pageOf([makePatient(1), makePatient(2, { program_id: 2 }), makePatient(3)], 1, 10, 3) }),
      makeUser(),
      {
        [on(summariesContract.summaries, { programId: 1 })]: (request) => ({
          body: {
            data: (request.url.searchParams.get('ids') ?? '')
              .split(',')
              .map((id) => summaryOf(Number(id), 50)),
          },
        }),
        [on(summariesContract.summaries, { programId: 2 })]: { body: { data: [summaryOf(2, 90)] } },
      },
    );
    signInForTest();
    renderRoutes('/patients');
    await screen.findAllByTestId('patient-row');
    await waitFor(() => expect(screen.getAllByText('50 %')).toHaveLength(2));
    expect(screen.getByText('90 %')).toBeInTheDocument();
    const one = api.callsTo(on(summariesContract.summaries, { programId: 1 }));
    expect(one.at(-1)?.url.searchParams.get('ids')).toBe('1,3');
    expect(
      api
        .callsTo(on(summariesContract.summaries, { programId: 2 }))
        .at(-1)
        ?.url.searchParams.get('ids'),
    ).toBe('2');
  });

  it("shows a step count once ('5276 steps', not '5276 steps steps')", async () => {
    patientsServer(() => ({ body: pageOf([PATIENTS[0]!]) }), makeUser(), {
      [on(summariesContract.summaries, { programId: 1 })]: {
        body: {
          data: [
            {
              ...summaryOf(1, 80),
              last_reading: {
                type: 'steps',
                value: 5276,
                unit: 'steps',
                measured_at: '2026-11-27T09:00:00Z',
              },
            },
          ],
        },
      },
    });
    signInForTest();
    renderRoutes('/patients');
    const row = await screen.findByTestId('patient-row');
    await waitFor(() => expect(within(row).getAllByRole('cell')[8]).toHaveTextContent(/^5276 steps$/));
  });

  it('offers race, ethnicity, income, state, physician, disease state, patient type and account behind More filters', async () => {
    const api = patientsServer(() => ({ body: pageOf(PATIENTS, 1, 10, 42) }), makeUser(), {
      [on(tenancyContract.programAdmins, { programId: 1 })]: {
        body: {
          data: [
            {
              id: 31,
              given_name: 'Paula',
              family_name: 'Park',
              name: 'Paula Park',
              title: 'MD',
              roles: ['physician'],
            },
            {
              id: 32,
              given_name: 'Carl',
              family_name: 'Coord',
              name: 'Carl Coord',
              title: null,
              roles: ['admin'],
            },
          ],
        },
      },
    });
    signInForTest();
    const { router } = renderRoutes('/patients');
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'More filters' }));
    const more = await screen.findByRole('group', { name: 'More filters' });
    await userEvent.click(await within(more).findByLabelText('Race', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Asian' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ race: 'Asian', page: '1' }));
    await userEvent.click(within(more).getByLabelText('Household income', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Under $25,000' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ race: 'Asian', income: 'under_25k' }));
    await userEvent.click(within(more).getByLabelText('Physician', { selector: 'input' }));
    // Only the program's physicians are offered.
    expect(screen.queryByRole('option', { name: 'Carl Coord' })).toBeNull();
    await userEvent.click(await screen.findByRole('option', { name: 'Paula Park' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ physicians: '31' }));
    await userEvent.type(within(more).getByLabelText('Disease state'), 'E11{Enter}');
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ disease_state: 'E11' }));
    await userEvent.click(within(more).getByLabelText('Account', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deactivated' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ active: '0' }));
    expect(router.state.location.search).toContain('disease_state=E11');
    // Back undoes the last one; Clear filters clears them all.
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).not.toContain('active'));
    expect(router.state.location.search).toContain('disease_state=E11');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=1'));
    await waitFor(() => expect(screen.getByLabelText('Disease state')).toHaveValue(''));
  });

  it('opens More filters by itself when the URL sets one of them (a shared link, a saved view)', async () => {
    const { api } = await openPatients(
      '/patients?states=PA,NY&patientType=enrolled&ethnicity=Hispanic%20or%20Latino',
    );
    await screen.findByRole('table');
    expect(lastQuery(api)).toMatchObject({
      states: 'PA,NY',
      patientType: 'enrolled',
      ethnicity: 'Hispanic or Latino',
    });
    expect(await screen.findByRole('group', { name: 'More filters' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Fewer filters/ })).toHaveAttribute('aria-expanded', 'true');
  });

  it('folds the filters behind one button on a phone, so the list starts on the first screen', async () => {
    vi.mocked(window.matchMedia).mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('max-width: 48em'),
          media: query,
          onchange: null,
          addListener: vi.fn(),
          removeListener: vi.fn(),
          addEventListener: vi.fn(),
          removeEventListener: vi.fn(),
          dispatchEvent: vi.fn(),
        }) as unknown as MediaQueryList,
    );
    const { api } = await openPatients('/patients?statuses=pending&sex=female');
    await screen.findByRole('table');
    expect(screen.queryByLabelText('Status', { selector: 'input' })).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Filters: 2 active' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByLabelText('Status', { selector: 'input' })).toBeInTheDocument();
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastQuery(api)).not.toHaveProperty('statuses'));
    expect(screen.getByRole('button', { name: 'Filters' })).toBeInTheDocument();
  });
});

describe('a user without a program', () => {
  it('is told so, and no patient list is requested', async () => {
    const api = patientsServer(
      () => ({ status: 404, body: { message: 'Not found.' } }),
      makeUser({ programs: [], enterprises: [], roles: [] }),
    );
    signInForTest();
    renderRoutes('/patients?sort_by=created_at&sort_direction=DESC');
    expect(await screen.findByTestId('patients-empty')).toHaveTextContent(i18n.t('patients.noProgram'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.callsTo(on(patientsContract.list, { programId: 1 }))).toHaveLength(0);
  });
});
