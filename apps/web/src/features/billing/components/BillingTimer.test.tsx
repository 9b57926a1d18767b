import { billingContract, memoryContract, userContract } from '@caredeck/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch, on } from '../../../test/fetchMock';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { billingTimer, TIMER_STORAGE_KEY } from '../timer';
import { BillingTimer } from './BillingTimer';
import { recordedTime } from './RecordTimeModal';

const patient = { id: 5, name: 'Rosa Diaz' };
const render = () =>
  renderWithProviders(
    <MemoryRouter>
      <BillingTimer patient={patient} programId={1} />
    </MemoryRouter>,
  );

afterEach(() => billingTimer.clear());

describe('billing timer', () => {
  it('starts, survives in the browser, warns past an hour, and records its exact time when stopped', async () => {
    const api = mockFetch({
      [on(userContract.me)]: { body: makeUser() },
      [on(memoryContract.get)]: { body: { data: null } },
      [on(memoryContract.save)]: (request) => ({
        body: {
          message: 'Saved',
          data: { ...(request.body as object), updated_at: new Date().toISOString() },
        },
      }),
      [on(billingContract.record)]: (request) => {
        const body = request.body as { started_at: string; ended_at: string };
        return {
          status: 201,
          body: {
            message: 'Time Recorded',
            data: {
              id: 1,
              patient_id: 5,
              type: 'rpm',
              activity: 'data_review',
              interactive: false,
              billable: true,
              started_at: body.started_at,
              ended_at: body.ended_at,
              seconds: Math.round((Date.parse(body.ended_at) - Date.parse(body.started_at)) / 1000),
              note: null,
              source: 'timer',
              admin: { id: 7, name: 'Ada Admin' },
              created_at: new Date().toISOString(),
            },
          },
        };
      },
    });
    signInForTest();
    render();
    await userEvent.click(await screen.findByTestId('billing-timer-start'));
    expect(screen.getByTestId('billing-timer')).toHaveAttribute('data-warning', 'false');
    expect(JSON.parse(localStorage.getItem(TIMER_STORAGE_KEY)!)).toMatchObject({ adminId: 7, patientId: 5 });

    // The same timer, started 61 minutes ago (as after a reload): the warning flag shows.
    const startedAt = new Date(Date.now() - 61 * 60_000);
    billingTimer.start({ adminId: 7, programId: 1, patientId: 5 }, startedAt);
    expect(await screen.findByTestId('billing-timer-warning')).toHaveTextContent('over 60 minutes');
    expect(screen.getByTestId('billing-timer')).toHaveAttribute('data-warning', 'true');

    await userEvent.click(screen.getByTestId('billing-timer-stop'));
    expect(await screen.findByTestId('record-from-timer')).toHaveTextContent('From the timer: 1:01:');
    await userEvent.click(screen.getByLabelText(/Interactive contact/));
    await userEvent.click(screen.getByRole('button', { name: 'Record time' }));
    // What was recorded, to the second (not '61 minutes', nor '0 minutes' for a few seconds).
    expect(await screen.findByText(/^Recorded 1:01:\d\d$/)).toBeInTheDocument();
    const sent = api.callsTo(on(billingContract.record))[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      user_id: 5,
      program_id: 1,
      source: 'timer',
      interactive: true,
      started_at: startedAt.toISOString(),
    });
    expect(screen.getByTestId('billing-timer-start')).toBeInTheDocument();
    expect(localStorage.getItem(TIMER_STORAGE_KEY)).toBeNull();
  });

  it("says when the user's timer runs on another patient, and ignores another user's timer", async () => {
    mockFetch({ [on(userContract.me)]: { body: makeUser() } });
    signInForTest();
    billingTimer.start({ adminId: 7, programId: 1, patientId: 9 });
    const { unmount } = render();
    expect(await screen.findByTestId('billing-timer-elsewhere')).toHaveTextContent(
      'Your timer is running on another patient',
    );
    expect(screen.getByRole('link', { name: 'Open that patient' })).toHaveAttribute('href', '/patient/9');
    unmount();
    billingTimer.start({ adminId: 99, programId: 1, patientId: 5 });
    render();
    expect(await screen.findByTestId('billing-timer-start')).toBeInTheDocument();
  });
});

describe('recordedTime', () => {
  it('says what was recorded in minutes and seconds', () => {
    expect(recordedTime(3)).toBe('0:03');
    expect(recordedTime(720)).toBe('12:00');
    expect(recordedTime(3665)).toBe('1:01:05');
  });
});
