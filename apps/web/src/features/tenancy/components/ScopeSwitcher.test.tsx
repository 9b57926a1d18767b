import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { controlsLoaded, renderWithProviders } from '../../../test/render';
import { resolveScope, scopeStore } from '../scope';
import { ScopeSwitcher } from './ScopeSwitcher';

const northwind = { id: 1, name: 'Northwind Health', slug: 'northwind' };
const twoPrograms = makeUser({
  programs: [
    { id: 1, slug: 'caredeck', name: 'CareDeck Monitoring', type: 'monitoring', enterprise_id: 1 },
    { id: 2, slug: 'cardio', name: 'Northwind Cardiology', type: 'monitoring', enterprise_id: 1 },
  ],
  enterprises: [northwind],
});

describe('the scope control', () => {
  it('offers each program and "all programs" of an enterprise with several, in one list', async () => {
    const scope = resolveScope(twoPrograms);
    renderWithProviders(<ScopeSwitcher user={twoPrograms} scope={scope} />);
    await controlsLoaded();
    const control = screen.getByRole('combobox', { name: 'Working in' });
    expect(control).toHaveValue('CareDeck Monitoring');
    await userEvent.click(control);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All programs of Northwind Health',
      'CareDeck Monitoring',
      'Northwind Cardiology',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'All programs of Northwind Health' }));
    expect(scopeStore.get()).toMatchObject({ enterpriseScope: true, enterprise: { id: 1 } });
  });

  it('is only the program’s name when there is nothing to choose', () => {
    const single = makeUser({
      programs: [
        { id: 1, slug: 'caredeck', name: 'CareDeck Monitoring', type: 'monitoring', enterprise_id: 1 },
      ],
      enterprises: [northwind],
    });
    renderWithProviders(<ScopeSwitcher user={single} scope={resolveScope(single)} />);
    expect(screen.queryByRole('combobox', { name: 'Working in' })).toBeNull();
    expect(screen.getByTestId('scope-current')).toHaveTextContent('CareDeck Monitoring');
  });
});
