import { authContract, userContract } from '@caredeck/contracts';
import { describe, expect, it, vi } from 'vitest';
import { scopeStore } from '../../features/tenancy/scope';
import { api } from '../../shared/api-client';
import { mockFetch, on } from '../../test/fetchMock';
import { spyOnBrowserNavigation } from '../../test/render';
import { startIdleTimer } from './idleTimer';
import { session } from './session';
import { signOut } from './signOut';

function fillBrowserData() {
  const keys = {
    userInfo: '{"id":7}',
    MedRecAccess: '1',
    AppActiveProgramId: '2',
    AppActiveProgram: '{"id":2}',
    AppActiveEnterprise: '{"id":1}',
    AppEnterpriseState: 'program',
    AppLastActiveProgramId: '2',
    AppLastActiveEnterprise: '{"id":1}',
    AppLastEnterpriseState: 'program',
    AppLastUserId: '7',
    'caredeck.language': 'de',
    'caredeck.loginLogId': '55',
  };
  for (const [key, value] of Object.entries(keys)) localStorage.setItem(key, value);
}

describe('the session', () => {
  it('gets its access token from the refresh cookie on page load, and keeps it in memory only', async () => {
    const server = mockFetch({
      [on(authContract.refresh)]: { body: { access_token: 'fresh', expires_in: 900 } },
    });
    await session.ready();
    expect(session.get()).toMatchObject({ status: 'signedIn', accessToken: 'fresh' });
    expect(server.calls[0]?.credentials).toBe('include');
    expect(JSON.stringify({ ...localStorage })).not.toContain('fresh');
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('fresh');
  });

  it('is signed out when the refresh cookie is refused', async () => {
    mockFetch({ [on(authContract.refresh)]: { status: 401, body: { message: 'Unauthenticated.' } } });
    await session.ready();
    expect(session.get().status).toBe('signedOut');
  });

  it('renews the token once on a 401 and retries the call with the new token', async () => {
    session.start('stale', 'signedIn');
    const server = mockFetch({
      [on(userContract.me)]: (request) =>
        request.headers.get('Authorization') === 'Bearer renewed'
          ? { body: { ok: true } }
          : { status: 401, body: { message: 'Unauthenticated.' } },
      [on(authContract.refresh)]: { body: { access_token: 'renewed', expires_in: 900 } },
    });
    await expect(api.get(userContract.me.path)).resolves.toEqual({ ok: true });
    expect(server.callsTo(on(userContract.me))).toHaveLength(2);
    expect(server.callsTo(on(authContract.refresh))).toHaveLength(1);
  });

  it('ends when the renewal fails', async () => {
    session.start('stale', 'signedIn');
    mockFetch({
      [on(userContract.me)]: { status: 401, body: { message: 'Unauthenticated.' } },
      [on(authContract.refresh)]: { status: 401, body: { message: 'Unauthenticated.' } },
    });
    await expect(api.get(userContract.me.path)).rejects.toMatchObject({ status: 401 });
    expect(session.get()).toMatchObject({ status: 'signedOut', endReason: 'expired' });
  });
});

describe('sign-out', () => {
  it('records the logout log, signs out, clears the listed data but keeps the last context, and reloads at /login', async () => {
    session.start('token', 'signedIn');
    fillBrowserData();
    const navigation = spyOnBrowserNavigation();
    const server = mockFetch({
      [on(userContract.logoutLog, { id: 55 })]: { status: 204 },
      [on(authContract.signOut)]: { status: 204 },
    });
    await signOut();
    expect(server.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      on(userContract.logoutLog, { id: 55 }),
      on(authContract.signOut),
    ]);
    for (const key of [
      'userInfo',
      'MedRecAccess',
      'AppActiveProgramId',
      'AppActiveProgram',
      'AppActiveEnterprise',
      'AppEnterpriseState',
    ]) {
      expect(localStorage.getItem(key), key).toBeNull();
    }
    expect(localStorage.getItem('AppLastActiveProgramId')).toBe('2');
    expect(localStorage.getItem('AppLastActiveEnterprise')).toBe('{"id":1}');
    expect(localStorage.getItem('AppLastEnterpriseState')).toBe('program');
    expect(localStorage.getItem('AppLastUserId')).toBe('7');
    expect(localStorage.getItem('caredeck.language')).toBe('de');
    expect(localStorage.getItem('caredeck.loginLogId')).toBeNull();
    expect(session.get()).toMatchObject({ status: 'signedOut', accessToken: null, endReason: 'signOut' });
    expect(scopeStore.get()).toBeNull();
    expect(navigation.reloadAt).toHaveBeenCalledWith('/login');
  });

  it('records the logout log in a tab that did not sign in itself (the session came from the refresh cookie)', async () => {
    localStorage.setItem('caredeck.loginLogId', '77');
    spyOnBrowserNavigation();
    const server = mockFetch({
      [on(authContract.refresh)]: { body: { access_token: 'from-cookie', expires_in: 900 } },
      [on(userContract.logoutLog, { id: 77 })]: { status: 204 },
      [on(authContract.signOut)]: { status: 204 },
    });
    await session.ready();
    await signOut();
    expect(server.callsTo(on(userContract.logoutLog, { id: 77 }))).toHaveLength(1);
    expect(server.callsTo(on(userContract.logoutLog, { id: 77 }))[0]?.headers.get('Authorization')).toBe(
      'Bearer from-cookie',
    );
    expect(localStorage.getItem('caredeck.loginLogId')).toBeNull();
  });

  it('does not close the login log of an earlier session that expired without a sign-out', async () => {
    localStorage.setItem('caredeck.loginLogId', '12');
    session.start('new-session', 'hipaa');
    spyOnBrowserNavigation();
    const server = mockFetch({ [on(authContract.signOut)]: { status: 204 } });
    await signOut();
    expect(server.calls.map((call) => `${call.method} ${call.path}`)).toEqual([on(authContract.signOut)]);
  });

  it('keeps MedRecAccess when the sign-out call fails, and does not sign back in silently', async () => {
    session.start('token', 'signedIn');
    fillBrowserData();
    spyOnBrowserNavigation();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({
      [on(userContract.logoutLog, { id: 55 })]: { status: 204 },
      [on(authContract.signOut)]: { status: 500, body: { message: 'Server Error', error_id: 'x' } },
    });
    await signOut();
    expect(localStorage.getItem('MedRecAccess')).toBe('1');
    expect(localStorage.getItem('userInfo')).toBeNull();
    expect(localStorage.getItem('AppActiveProgramId')).toBeNull();

    session.reset();
    const server = mockFetch({
      [on(authContract.refresh)]: { body: { access_token: 'x', expires_in: 900 } },
    });
    await session.ready();
    expect(session.get().status).toBe('signedOut');
    expect(server.calls).toHaveLength(0);
  });
});

describe('the inactivity timer', () => {
  it('fires after the timeout without activity, and activity postpones it', () => {
    vi.useFakeTimers();
    try {
      const onIdle = vi.fn();
      const stop = startIdleTimer({ timeoutMs: 10_000, onIdle });
      vi.advanceTimersByTime(6_000);
      window.dispatchEvent(new KeyboardEvent('keydown'));
      vi.advanceTimersByTime(6_000);
      expect(onIdle).not.toHaveBeenCalled();
      window.dispatchEvent(new MouseEvent('mousemove'));
      vi.advanceTimersByTime(9_999);
      expect(onIdle).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(onIdle).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(60_000);
      expect(onIdle).toHaveBeenCalledTimes(1);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the server session alive while the user is active, and signs out before the server would', () => {
    vi.useFakeTimers();
    try {
      let contact = Date.now();
      const onIdle = vi.fn();
      const onKeepAlive = vi.fn(() => {
        contact = Date.now();
      });
      const stop = startIdleTimer({
        timeoutMs: 100_000,
        onIdle,
        serverContactAt: () => contact,
        onKeepAlive,
        keepAliveMs: 20_000,
        marginMs: 5_000,
      });
      vi.advanceTimersByTime(10_000);
      window.dispatchEvent(new KeyboardEvent('keydown'));
      expect(onKeepAlive).not.toHaveBeenCalled();
      vi.advanceTimersByTime(15_000);
      window.dispatchEvent(new KeyboardEvent('keydown'));
      expect(onKeepAlive).toHaveBeenCalledTimes(1);
      // Last activity and server contact at t=25 s: the server would end the session at 125 s.
      vi.advanceTimersByTime(94_999);
      expect(onIdle).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(onIdle).toHaveBeenCalledTimes(1);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('signs out when the server would, if the keep-alive could not reach it', () => {
    vi.useFakeTimers();
    try {
      const contact = Date.now();
      const onIdle = vi.fn();
      const stop = startIdleTimer({
        timeoutMs: 100_000,
        onIdle,
        serverContactAt: () => contact,
        marginMs: 5_000,
      });
      vi.advanceTimersByTime(50_000);
      window.dispatchEvent(new KeyboardEvent('keydown'));
      vi.advanceTimersByTime(44_999);
      expect(onIdle).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(onIdle).toHaveBeenCalledTimes(1);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
