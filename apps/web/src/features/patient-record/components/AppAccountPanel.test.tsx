import { type PatientRecord, patientRecordContract } from '@caredeck/contracts';
import { notifications } from '@mantine/notifications';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { AppAccountPanel } from './AppAccountPanel';

const PATIENT = { id: 11, name: 'Ada Lovelace', email: 'ada@example.org' } as unknown as PatientRecord;
const SET = on(patientRecordContract.appPassword, { id: PATIENT.id });

describe('the patient-app password', () => {
  it("says 'Passwords do not match' before sending anything, and the message goes once the user types", async () => {
    signInForTest();
    const api = mockFetch({
      [SET]: { body: { message: 'Password updated', action: 'password', sent_to: null } },
    });
    renderWithProviders(<AppAccountPanel patient={PATIENT} />);
    await userEvent.type(screen.getByTestId('app-password'), 'Correct-Horse-42');
    await userEvent.type(screen.getByTestId('app-password-confirm'), 'Correct-Horse-43');
    await userEvent.click(screen.getByTestId('app-password-save'));
    expect(await screen.findByText('Passwords do not match. Please try again.')).toBeInTheDocument();
    expect(api.callsTo(SET)).toHaveLength(0);
    await userEvent.type(screen.getByTestId('app-password-confirm'), '{Backspace}2');
    expect(screen.queryByText('Passwords do not match. Please try again.')).toBeNull();
    await userEvent.click(screen.getByTestId('app-password-save'));
    expect(await screen.findByText('Password updated')).toBeInTheDocument();
    expect(api.callsTo(SET)[0]?.body).toEqual({
      type: '2',
      password: 'Correct-Horse-42',
      password_confirmation: 'Correct-Horse-42',
    });
  });

  it("shows the server's refusal of a password once, under the field, not again as a toast", async () => {
    const show = vi.spyOn(notifications, 'show');
    signInForTest();
    mockFetch({
      [SET]: {
        status: 422,
        body: { message: 'Use at least 8 characters.', errors: { password: ['Use at least 8 characters.'] } },
      },
    });
    renderWithProviders(<AppAccountPanel patient={PATIENT} />);
    await userEvent.type(screen.getByTestId('app-password'), 'short');
    await userEvent.type(screen.getByTestId('app-password-confirm'), 'short');
    await userEvent.click(screen.getByTestId('app-password-save'));
    expect(await screen.findByText('Use at least 8 characters.')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(show).not.toHaveBeenCalled();
    expect(screen.getAllByText('Use at least 8 characters.')).toHaveLength(1);
  });
});
