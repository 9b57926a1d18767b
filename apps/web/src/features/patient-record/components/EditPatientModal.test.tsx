import type { PatientRecord } from '@caredeck/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetchMock';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { EditPatientModal } from './EditPatientModal';

const PATIENT = {
  id: 11,
  program_id: 1,
  name: 'Ada Lovelace',
  first_name: 'Ada',
  middle_name: null,
  last_name: 'Lovelace',
  mrn: 'MRN-1',
  dob: '1950-03-09',
  sex: 'female',
  status: 'active',
  active: true,
  physician: null,
  assigned_admin: null,
} as unknown as PatientRecord;

function open() {
  signInForTest();
  mockFetch({});
  const onClose = vi.fn();
  renderWithProviders(<EditPatientModal patient={PATIENT} opened onClose={onClose} />);
  return { onClose };
}

describe('editing a patient', () => {
  it('closes at once when nothing was changed', async () => {
    const { onClose } = open();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks before discarding changes: Keep editing keeps them, Discard closes', async () => {
    const { onClose } = open();
    const middle = screen.getByTestId('field-middle_name');
    await userEvent.type(middle, 'Quincy');
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByText('Discard your changes?')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByTestId('field-middle_name')).toHaveValue('Quincy');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(await screen.findByTestId('discard-changes'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('a state name pasted and Enter chooses it; a chosen state stays on Enter', async () => {
    open();
    const state = screen.getByTestId('field-state');
    // Once the dialog has placed its own focus.
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    state.focus();
    await waitFor(() => expect(state).toHaveFocus());
    await userEvent.paste('Penn');
    await screen.findByRole('option', { name: 'Pennsylvania (PA)' });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(state).toHaveValue('Pennsylvania (PA)'));
    // Opening it again and pressing Enter keeps Pennsylvania (not the first state of the list).
    await userEvent.click(state);
    await screen.findByRole('option', { name: 'Alabama (AL)' });
    await userEvent.keyboard('{Enter}');
    expect(state).toHaveValue('Pennsylvania (PA)');
  });
});
