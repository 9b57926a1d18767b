import {
  platformContract,
  STAFF_MESSAGES,
  staffContract,
  tenancyContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const STAFF = [
  { id: 3, given_name: 'Ada', family_name: 'Admin', name: 'Ada Admin', title: 'Manager', roles: ['admin'] },
  {
    id: 4,
    given_name: 'Paul',
    family_name: 'Physician',
    name: 'Paul Physician',
    title: null,
    roles: ['physician'],
  },
];

function staffServer() {
  return mockFetch({
    [on(userContract.me)]: { body: makeUser() },
    [on(platformContract.config)]: { body: CONFIG },
    [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
    [on(tenancyContract.programAdmins, { programId: 1 })]: { body: { data: STAFF } },
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
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(on(staffContract.create, { programId: 1 })).at(-1)?.body).toMatchObject({
      email: 'nora@example.com',
      given_name: 'Nora',
      family_name: 'Newcomer',
      role: 'physician',
    });
  });
});
