import { type PatientRecord, patientRecordContract, userContract } from '@caredeck/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n';
import { mockFetch, on } from '../../../test/fetchMock';
import { makeUser, pageOf } from '../../../test/fixtures';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { HistoryPanel } from './HistoryPanel';

const PATIENT = { id: 11, name: 'Ada Lovelace' } as PatientRecord;
const COORDINATOR = { id: 3, name: 'Grace Hopper' };

function start(audit: { id: number; action: string }[] = []) {
  signInForTest();
  mockFetch({
    [on(userContract.me)]: { body: makeUser({ tz: 'UTC' }) },
    [on(patientRecordContract.status, { id: PATIENT.id })]: {
      body: {
        id: PATIENT.id,
        status: 'active',
        active: true,
        history: [
          { status: 'active', at: '2026-11-28T15:00:00.000Z', by: COORDINATOR, source: 'bulk', reason: null },
          {
            status: 'pending',
            at: '2026-11-27T09:30:00.000Z',
            by: { id: 4, name: 'Mary Seacole' },
            source: 'single',
            reason: 'Hospitalised\nback next week',
          },
          { status: 'active', at: '2026-11-02T08:00:00.000Z', by: null, source: 'enrolment', reason: null },
        ],
      },
    },
    [on(patientRecordContract.auditHistory, { programId: 1, patientId: PATIENT.id })]: {
      body: pageOf(
        audit.map((a) => ({
          ...a,
          actor: COORDINATOR,
          details: null,
          created_at: '2026-11-28T15:00:00.000Z',
        })),
      ),
    },
  });
  renderWithProviders(<HistoryPanel patient={PATIENT} programId={1} />);
}

describe('the record’s status history', () => {
  it('shows each change with how it was made, who made it, and its reason only when one was given', async () => {
    start();
    const rows = await screen.findAllByTestId('status-history-row');
    expect(rows).toHaveLength(3);
    const [bulk, single, enrolment] = rows.map((row) => within(row));
    expect(bulk?.getByText('Bulk change')).toBeInTheDocument();
    expect(bulk?.getByText('by Grace Hopper')).toBeInTheDocument();
    expect(rows[0]).not.toHaveTextContent(/Reason|Not Provided/);
    expect(single?.getByText('Single change')).toBeInTheDocument();
    expect(single?.getByText('by Mary Seacole')).toBeInTheDocument();
    // The reason as written, its line break kept.
    expect(single?.getByText(/^Reason: Hospitalised/)).toHaveTextContent(
      'Reason: Hospitalised back next week',
      {
        normalizeWhitespace: true,
      },
    );
    expect(single?.getByText(/^Reason: Hospitalised/).textContent).toBe(
      'Reason: Hospitalised\nback next week',
    );
    expect(enrolment?.getByText('Enrolment')).toBeInTheDocument();
    expect(enrolment?.getByText('by the system')).toBeInTheDocument();
    expect(rows[2]).not.toHaveTextContent(/Reason|Not Provided/);
  });

  it('says how and why in the interface language', async () => {
    await i18n.changeLanguage('fr');
    start();
    const rows = await screen.findAllByTestId('status-history-row');
    expect(rows[1]).toHaveTextContent('Changement individuel');
    expect(rows[1]).toHaveTextContent('Motif : Hospitalised');
  });
});

describe('the record’s audit history', () => {
  const entries = [
    { id: 3, action: 'order_form.list_view' },
    { id: 2, action: 'billing.patient_view' },
    { id: 1, action: 'an.unknown_action' },
  ];

  it('names each action in words, never by its code', async () => {
    start(entries);
    const table = await screen.findByTestId('audit-history');
    expect(table).toHaveTextContent('Order forms viewed');
    expect(table).toHaveTextContent("Patient's billing viewed");
    expect(table).toHaveTextContent('Other activity');
    expect(table).not.toHaveTextContent(/order_form|billing\.|an\.unknown/);
  });

  it('in the interface language', async () => {
    await i18n.changeLanguage('de');
    start(entries);
    const table = await screen.findByTestId('audit-history');
    expect(table).toHaveTextContent('Bestellformulare angesehen');
    expect(table).toHaveTextContent('Sonstige Aktivität');
  });
});
