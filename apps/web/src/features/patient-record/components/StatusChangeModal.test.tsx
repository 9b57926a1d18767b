import { type PatientRecord, patientRecordContract } from '@caredeck/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { StatusChangeModal } from './StatusChangeModal';

const PATIENT = { id: 11, name: 'Ada Lovelace' };
const SET = on(patientRecordContract.setStatus, { id: PATIENT.id });

function start(reply: { status?: number; body?: unknown } = {}) {
  signInForTest();
  const api = mockFetch({
    [SET]: (request) => ({
      status: reply.status ?? 200,
      body: reply.body ?? {
        id: PATIENT.id,
        status: (request.body as { value: string }).value,
        active: true,
        history: [],
      },
    }),
  });
  const closed = vi.fn();
  renderWithProviders(<Harness onClosed={closed} />);
  return { api, closed };
}

/** The record's header as far as the dialog goes: "Discharged" chosen in the menu, closed when done. */
function Harness({ onClosed }: { onClosed: () => void }) {
  const [status, setStatus] = useState<PatientRecord['status'] | null>('discharged');
  return (
    <StatusChangeModal
      patient={PATIENT}
      status={status}
      onClose={() => {
        onClosed();
        setStatus(null);
      }}
    />
  );
}

describe('changing a patient’s status from the record', () => {
  it('asks for an optional reason and sends it with the change', async () => {
    const { api, closed } = start();
    const dialog = await screen.findByRole('dialog', {
      name: 'Change the status of Ada Lovelace to Discharged?',
    });
    expect(dialog).toHaveTextContent('The change and its reason appear in the program’s status log.');
    const reason = screen.getByRole('textbox', { name: 'Reason (optional)' });
    expect(reason).toHaveAttribute('maxlength', '500');
    expect(dialog).toHaveTextContent('0/500 characters');
    await userEvent.type(reason, '  Moved to hospice care ');
    expect(dialog).toHaveTextContent('24/500 characters');
    expect(api.callsTo(SET)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Change status' }));
    expect(await screen.findByText('Status changed to Discharged')).toBeInTheDocument();
    expect(api.callsTo(SET)[0]?.body).toEqual({ value: 'discharged', reason: 'Moved to hospice care' });
    await waitFor(() => expect(closed).toHaveBeenCalled());
  });

  it('sends only the status when no reason is given', async () => {
    const { api } = start();
    await screen.findByRole('dialog');
    await userEvent.type(screen.getByRole('textbox', { name: 'Reason (optional)' }), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Change status' }));
    await screen.findByText('Status changed to Discharged');
    expect(api.callsTo(SET)[0]?.body).toEqual({ value: 'discharged' });
  });

  it('keeps the dialog open when the server refuses the change, and closes on Cancel', async () => {
    const { api, closed } = start({
      status: 422,
      body: { message: 'Invalid', errors: { reason: ['Keep the reason to at most 500 characters.'] } },
    });
    await screen.findByRole('dialog');
    await userEvent.click(screen.getByRole('button', { name: 'Change status' }));
    expect(await screen.findByText('Keep the reason to at most 500 characters.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Reason (optional)' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(closed).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(closed).toHaveBeenCalled();
    expect(api.callsTo(SET)).toHaveLength(1);
  });
});
