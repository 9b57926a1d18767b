import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ApiError } from '../api-client';
import { errorMessagesOf, toast, toastErrors, toastErrorsOr } from './toasts';

describe('toasts', () => {
  it('shows the first message of each field of a 422 errors object, as 2.5 s error toasts', async () => {
    const show = vi.spyOn(notifications, 'show');
    renderWithProviders(null);
    const error = new ApiError(422, {
      message: 'The given data was invalid.',
      errors: {
        email: ['The email must be a valid email address.', 'The email is taken.'],
        phone_number: ['The phone number is not valid.'],
        empty: [],
      },
    });
    act(() => toastErrors(error));
    expect(await screen.findByText('The email must be a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('The phone number is not valid.')).toBeInTheDocument();
    expect(screen.queryByText('The email is taken.')).toBeNull();
    expect(screen.queryByText('The given data was invalid.')).toBeNull();
    expect(show).toHaveBeenCalledTimes(2);
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ autoClose: 2_500, color: 'danger' }));
  });

  it('falls back to the error message, and to translated texts for network, rate-limit and server failures', () => {
    expect(errorMessagesOf(new ApiError(401, { message: 'Incorrect username or password.' }))).toEqual([
      'Incorrect username or password.',
    ]);
    expect(errorMessagesOf(new ApiError(0, null, 'Failed to fetch'))[0]).toMatch(/could not be reached/);
    expect(errorMessagesOf(new ApiError(429, { message: 'Too Many Requests' }))[0]).toMatch(
      /Too many attempts/,
    );
    expect(errorMessagesOf(new ApiError(500, { message: 'boom', error_id: 'e1' }))[0]).toMatch(
      /could not complete/,
    );
    expect(errorMessagesOf(new TypeError('x'))[0]).toMatch(/unexpected/);
  });

  it("shows the action's own failure message unless the server named fields", async () => {
    renderWithProviders(null);
    act(() =>
      toastErrorsOr(new ApiError(500, { message: 'boom' }), 'Unable to Add users! Please Try Again Later.'),
    );
    expect(await screen.findByText('Unable to Add users! Please Try Again Later.')).toBeInTheDocument();
    expect(screen.queryByText('boom')).toBeNull();
    act(() =>
      toastErrorsOr(new ApiError(422, { message: 'x', errors: { name: ['Give a name.'] } }), 'Not this one'),
    );
    expect(await screen.findByText('Give a name.')).toBeInTheDocument();
    expect(screen.queryByText('Not this one')).toBeNull();
  });

  it('uses 4 s for other toasts and puts the newest on top', async () => {
    const show = vi.spyOn(notifications, 'show');
    renderWithProviders(null);
    act(() => {
      toast.success('first');
      toast.warning('second');
    });
    const second = await screen.findByText('second');
    const first = screen.getByText('first');
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: 'first', autoClose: 4_000 }));
    expect(second.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('gives each toast a named close button', async () => {
    renderWithProviders(null);
    act(() => {
      toast.success('Saved');
    });
    await screen.findByText('Saved');
    await userEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    await waitFor(() => expect(screen.queryByText('Saved')).toBeNull());
  });

  it('keeps the toasts asked for before its container loaded, and shows them in order once it is up', async () => {
    act(() => {
      toast.error('too early');
      toast.success('early too');
    });
    expect(screen.queryByText('too early')).toBeNull();
    renderWithProviders(null);
    const second = await screen.findByText('early too');
    const first = screen.getByText('too early');
    expect(second.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('keeps at most 20 on screen, the newest ones', async () => {
    renderWithProviders(null);
    act(() => {
      for (let index = 1; index <= 22; index += 1) toast.info(`toast ${index}`);
    });
    expect(await screen.findByText('toast 22')).toBeInTheDocument();
    expect(screen.getByText('toast 3')).toBeInTheDocument();
    expect(screen.queryByText('toast 2')).toBeNull();
    expect(screen.queryByText('toast 1')).toBeNull();
  });
});
