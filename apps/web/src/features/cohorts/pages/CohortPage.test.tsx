import { groupsContract, platformContract, userContract } from '@caredeck/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { CONFIG, makeUser } from '../../../test/fixtures';
import { renderRoutes, signInForTest } from '../../../test/render';

const pad = (n: number) => String(n).padStart(3, '0');
const MEMBERS = Array.from({ length: 120 }, (_, i) => ({
  id: 100 + i,
  name: `Pat Member${pad(i)}`,
  first_name: 'Pat',
  last_name: `Member${pad(i)}`,
  mrn: `MRN-${pad(i)}`,
  dob: '1950-03-09',
  status: 'active' as const,
  added_at: '2026-11-01T14:00:00.000Z',
}));

function open() {
  signInForTest();
  mockFetch({
    [on(userContract.me)]: { body: makeUser() },
    [on(platformContract.config)]: { body: CONFIG },
    [on(groupsContract.get, { id: 9 })]: {
      body: {
        id: 9,
        program_id: 1,
        name: 'Heart failure',
        description: null,
        queryTo: null,
        users_count: MEMBERS.length,
        created_by: null,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
        users: MEMBERS,
      },
    },
  });
  renderRoutes('/group/9');
}

describe('a large cohort', () => {
  it('shows its patients 50 at a time, pages through them, and finds one by name or MRN', async () => {
    open();
    const table = await screen.findByTestId('cohort-members');
    expect(within(table).getAllByRole('row')).toHaveLength(50);
    expect(screen.getByTestId('cohort-count')).toHaveTextContent('120 patients');
    await userEvent.click(
      within(screen.getByTestId('cohort-members-pages')).getByRole('button', { name: '3' }),
    );
    const last = within(screen.getByTestId('cohort-members')).getAllByRole('row');
    expect(last).toHaveLength(20);
    expect(last[0]).toHaveTextContent('Pat Member100');

    const filter = screen.getByTestId('cohort-members-filter');
    await userEvent.type(filter, 'member07');
    const found = within(screen.getByTestId('cohort-members')).getAllByRole('row');
    expect(found.map((row) => within(row).getByRole('link').textContent)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Pat Member07${i}`),
    );
    expect(screen.queryByTestId('cohort-members-pages')).toBeNull();
    await userEvent.clear(filter);
    await userEvent.type(filter, 'MRN-119');
    expect(within(screen.getByTestId('cohort-members')).getAllByRole('row')).toHaveLength(1);
    await userEvent.type(filter, 'x');
    expect(screen.getByText('No patient of this cohort matches “MRN-119x”.')).toBeInTheDocument();
  });
});
