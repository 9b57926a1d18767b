import { type AdherenceReport, dataViewsContract } from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deliverLiveEvent, PATIENT_DATA_EVENT } from '../../../app/realtime';
import { mockFetch, on } from '../../../test/fetchMock';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { AdherencePanel, todayIn } from './AdherencePanel';

const ZONE = 'America/New_York';
const today = todayIn(ZONE);
const month = today.slice(0, 7);
const [y, m] = month.split('-').map(Number) as [number, number];
const end = `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
const day1 = `${month}-01`;
const day2 = `${month}-02`;

const totals = (over: Partial<AdherenceReport['total']> = {}) => ({
  due: 0,
  on_time: 0,
  late: 0,
  missed: 0,
  skipped: 0,
  partial: 0,
  pending: 0,
  adherence: null,
  compliance: null,
  ...over,
});

function report(extraDose = false): AdherenceReport {
  const dose = (
    date: string,
    time: string,
    state: AdherenceReport['doses'][number]['state'],
    taken: string | null,
  ) => ({
    regimen_id: 5,
    date,
    time,
    scheduled_at: `${date}T${time === '08:00' ? '12' : '00'}:00:00.000Z`,
    window_open: `${date}T11:30:00.000Z`,
    window_close: `${date}T15:00:00.000Z`,
    state,
    taken_at: taken,
    event_ids: taken ? [1] : [],
  });
  const doses = [
    dose(day1, '08:00', 'on_time', `${day1}T12:05:00.000Z`),
    dose(day2, '08:00', 'missed', null),
  ];
  if (extraDose) doses.push(dose(`${month}-03`, '08:00', 'late', `${month}-03T14:00:00.000Z`));
  return {
    patient_id: 7,
    time_zone: ZONE,
    start: day1,
    end,
    on_time_minutes: 60,
    generated_at: new Date().toISOString(),
    total: totals({ due: doses.length, on_time: 1, missed: 1, adherence: 50, compliance: 50 }),
    regimens: [{ regimen_id: 5, name: 'Lisinopril 10 mg', ...totals({ due: 2 }) }],
    days: [
      { date: day1, ...totals({ due: 1, on_time: 1, adherence: 100, compliance: 100 }) },
      { date: day2, ...totals({ due: 1, missed: 1, adherence: 0, compliance: 0 }) },
    ],
    doses,
    extra: [{ id: 9, regimen_id: 5, at: `${day1}T16:00:00.000Z`, kind: 'taken', source: 'dispenser' }],
    as_needed: [],
  };
}

describe('AdherencePanel', () => {
  it('shows the month figures, colours each day and lists the doses of the chosen day', async () => {
    mockFetch({
      [on(dataViewsContract.adherenceRange, { programId: 1, id: 7, start: day1, end })]: { body: report() },
    });
    signInForTest();
    renderWithProviders(<AdherencePanel patientId={7} programId={1} timeZone={ZONE} />);
    expect(await screen.findByTestId('figure-adherence')).toHaveTextContent('50.00 %');
    expect(screen.getByTestId('figure-extra')).toHaveTextContent('1');
    const first = screen.getByRole('button', { name: /100 % adherence/ });
    expect(first).toHaveAttribute('data-date', day1);
    expect(first.querySelector('[data-state="on_time"]')).not.toBeNull();
    expect(
      screen.getByRole('button', { name: /: 0 % adherence/ }).querySelector('[data-state="missed"]'),
    ).not.toBeNull();
    await userEvent.click(first);
    const table = await screen.findByTestId('day-doses');
    expect(within(table).getAllByText('Lisinopril 10 mg')).toHaveLength(2); // the dose and the extra dose
    expect(within(table).getByText('On time')).toBeInTheDocument();
    expect(within(table).getByText('Extra doses')).toBeInTheDocument();
  });

  it('refetches when the server says the patient has new doses', async () => {
    let calls = 0;
    mockFetch({
      [on(dataViewsContract.adherenceRange, { programId: 1, id: 7, start: day1, end })]: () => {
        calls++;
        return { body: report(calls > 1) };
      },
    });
    signInForTest();
    renderWithProviders(<AdherencePanel patientId={7} programId={1} timeZone={ZONE} />);
    expect(await screen.findByTestId('figure-due')).toHaveTextContent('2');
    deliverLiveEvent(PATIENT_DATA_EVENT, { patient_id: 8, kinds: ['doses'] });
    deliverLiveEvent(PATIENT_DATA_EVENT, { patient_id: 7, kinds: ['doses'] });
    await waitFor(() => expect(screen.getByTestId('figure-due')).toHaveTextContent('3'));
    expect(calls).toBe(2);
  });

  it('offers a retry when the report cannot be loaded', async () => {
    mockFetch({
      [on(dataViewsContract.adherenceRange, { programId: 1, id: 7, start: day1, end })]: {
        status: 500,
        body: { message: 'Server error' },
      },
    });
    signInForTest();
    renderWithProviders(<AdherencePanel patientId={7} programId={1} timeZone={ZONE} />);
    expect(await screen.findByText('Adherence could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
