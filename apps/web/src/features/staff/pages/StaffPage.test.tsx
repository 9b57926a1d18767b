import {
  ADMINISTRATION_MESSAGES,
  administrationContract,
  platformContract,
  STAFF_MESSAGES,
  staffContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const program = { id: 1, name: 'Northwind Cardiology' };
const STAFF = [
  {
    id: 3,
    email: 'ada@example.com',
    given_name: 'Ada',
    family_name: 'Admin',
    name: 'Ada Admin',
    title: 'Manager',
    disabled: false,
    roles: ['admin'],
    programs: [program],
  },
  {
    id: 4,
    email: 'paul@example.com',
    given_name: 'Paul',
    family_name: 'Physician',
    name: 'Paul Physician',
    title: null,
    disabled: false,
    roles: ['physician'],
    programs: [program],
  },
];
const PAUL = {
  ...STAFF[1],
  phone_number: null,
  must_change_password: false,
  mfa_enabled: true,
  created_at: '2026-11-01T00:00:00.000Z',
  programs: [{ ...program, enterprise_id: null, roles: ['physician'] }],
  enterprises: [],
  can_manage: true,
};

function staffServer() {
  return mockFetch({
    [on(userContract.me)]: { body: makeUser() },
    [on(platformContract.config)]: { body: CONFIG },
    [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
    [on(administrationContract.allAdmins)]: {
      body: { data: STAFF, current_page: 1, last_page: 1, per_page: 100, total: 2 },
    },
    [on(administrationContract.admin, { id: 4 })]: { body: { data: PAUL } },
    [on(administrationContract.updateAdmin, { id: 4 })]: (request) => ({
      body: {
        message: ADMINISTRATION_MESSAGES.adminUpdated,
        id: 4,
        program_id: 1,
        roles: (request.body as { roles?: string[] }).roles ?? null,
        data: { ...PAUL, disabled: (request.body as { disabled?: boolean }).disabled ?? false },
      },
    }),
    [on(staffContract.create, { programId: 1 })]: (request) =>
      (request.body as { email: string }).email === 'taken@example.com'
        ? {
            status: 422,
            body: { message: STAFF_MESSAGES.emailTaken, errors: { email: [STAFF_MESSAGES.emailTaken] } },
          }
        : {
            status: 201,
            body: {
              message: STAFF_MESSAGES.created,
              data: {
                id: 9,
                email: 'nora@example.com',
                given_name: 'Nora',
                family_name: 'Newcomer',
                title: null,
                phone_number: null,
                program_id: 1,
                role: 'physician',
                must_change_password: true,
                created_at: '2026-11-24T00:00:00Z',
              },
            },
          },
  });
}

describe('/admins', () => {
  it('lists the program staff with their roles', async () => {
    staffServer();
    signInForTest();
    renderRoutes('/admins');
    const rows = await screen.findAllByTestId('staff-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Admin, AdaManagerAdministrator',
      'Physician, PaulNot ProvidedPhysician',
    ]);
  });

  it('adds a staff member with a role, showing the server’s field errors in place', async () => {
    const api = staffServer();
    signInForTest();
    renderRoutes('/admins');
    await screen.findAllByTestId('staff-row');
    await userEvent.click(screen.getByRole('button', { name: 'Add staff member' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByTestId('staff-save'));
    expect(api.callsTo(on(staffContract.create, { programId: 1 }))).toHaveLength(0);

    await userEvent.type(within(dialog).getByTestId('staff-email'), 'taken@example.com');
    await userEvent.type(within(dialog).getByTestId('staff-given'), 'Nora');
    await userEvent.type(within(dialog).getByTestId('staff-family'), 'Newcomer');
    await userEvent.click(within(dialog).getByTestId('staff-save'));
    expect(await within(dialog).findByText(STAFF_MESSAGES.emailTaken)).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByTestId('staff-email'));
    await userEvent.type(within(dialog).getByTestId('staff-email'), 'nora@example.com');
    await userEvent.click(within(dialog).getByLabelText('Role in this program', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Physician' }));
    await userEvent.click(within(dialog).getByTestId('staff-save'));
    expect(await screen.findByText(STAFF_MESSAGES.created)).toBeInTheDocument();
    expect(screen.getByText('Admin Created')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(on(staffContract.create, { programId: 1 })).at(-1)?.body).toMatchObject({
      email: 'nora@example.com',
      given_name: 'Nora',
      family_name: 'Newcomer',
      role: 'physician',
    });
  });

  it('opens a member, changes their roles here and disables the account after a confirmation', async () => {
    const api = staffServer();
    signInForTest();
    renderRoutes('/admins');
    await screen.findAllByTestId('staff-row');
    await userEvent.click(screen.getByRole('button', { name: 'Physician, Paul' }));
    const drawer = await screen.findByTestId('staff-drawer');
    expect(within(drawer).getByText('paul@example.com')).toBeInTheDocument();
    await userEvent.click(within(drawer).getByRole('checkbox', { name: 'Care coordinator' }));
    await userEvent.click(within(drawer).getByTestId('staff-roles-save'));
    expect(await screen.findByText(ADMINISTRATION_MESSAGES.adminUpdated)).toBeInTheDocument();
    expect(api.callsTo(on(administrationContract.updateAdmin, { id: 4 })).at(-1)?.body).toEqual({
      program_id: 1,
      roles: ['physician', 'care_coordinator'],
    });

    await userEvent.click(within(drawer).getByTestId('staff-toggle'));
    const confirm = await screen.findByRole('dialog', { name: 'Disable account' });
    expect(api.callsTo(on(administrationContract.updateAdmin, { id: 4 }))).toHaveLength(1);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Disable account' }));
    await waitFor(() =>
      expect(api.callsTo(on(administrationContract.updateAdmin, { id: 4 })).at(-1)?.body).toEqual({
        disabled: true,
      }),
    );
  });
});
