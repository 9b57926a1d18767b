import { authContract } from '@caredeck/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api-client';
import { attachToastHost } from '../../shared/ui/toasts';
import { mockFetch, on } from '../../test/fetchMock';
import { spyOnBrowserNavigation } from '../../test/render';
import { session } from './session';
import { handleUserFetchFailure } from './userFailure';

function signOutServer() {
  return mockFetch({ [on(authContract.signOut)]: { status: 204 } });
}

/** Stands in for the toasts' container: records what it is asked to show. */
let detachToasts = () => {};
function toastHost() {
  const show = vi.fn();
  detachToasts = attachToastHost(show);
  return show;
}
afterEach(() => detachToasts());

describe('a failed user fetch', () => {
  it('signs out to /login at once when no identity is stored', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const navigation = spyOnBrowserNavigation();
    const show = toastHost();
    signOutServer();
    session.start('token', 'signedIn');
    await handleUserFetchFailure(new ApiError(500, { message: 'Server Error' }));
    expect(navigation.reloadAt).toHaveBeenCalledWith('/login');
    expect(show).not.toHaveBeenCalled();
  });

  it("shows 'Error communicating with backend!' for 2.5 s, then signs out, when an identity is stored", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.useFakeTimers();
    try {
      localStorage.setItem('userInfo', '{"id":7}');
      const navigation = spyOnBrowserNavigation();
      const show = toastHost();
      signOutServer();
      session.start('token', 'signedIn');
      const done = handleUserFetchFailure(new ApiError(0, null, 'Failed to fetch'));
      expect(show).toHaveBeenCalledWith(
        expect.objectContaining({ message: 'Error communicating with backend!', autoClose: 2_500 }),
      );
      await vi.advanceTimersByTimeAsync(2_499);
      expect(navigation.reloadAt).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await done;
      expect(navigation.reloadAt).toHaveBeenCalledWith('/login');
      expect(localStorage.getItem('userInfo')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('treats a 401 as the end of the session (back to /login with the wanted page)', async () => {
    const navigation = spyOnBrowserNavigation();
    mockFetch({});
    session.start('token', 'signedIn');
    await handleUserFetchFailure(new ApiError(401, { message: 'Unauthenticated.' }));
    expect(session.get()).toMatchObject({ status: 'signedOut', endReason: 'expired' });
    expect(navigation.reloadAt).not.toHaveBeenCalled();
  });
});
