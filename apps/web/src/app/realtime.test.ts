import { userContract } from '@caredeck/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import { describe, expect, it, vi } from 'vitest';
import { userQuery } from '../features/identity/calls';
import { mockFetch, on } from '../test/fetchMock';
import { makeUser } from '../test/fixtures';
import '../test/render';
import { session } from './auth/session';
import {
  LIVE_CONNECTED_EVENT,
  onLiveEvent,
  REALTIME_PATH,
  ROLES_UPDATED_EVENT,
  reloadUserAfterRoleChange,
  type SocketFactory,
  startRealtime,
} from './realtime';

function fakeSocketFactory() {
  const sockets: {
    handlers: Map<string, (...args: unknown[]) => void>;
    disconnect: ReturnType<typeof vi.fn>;
  }[] = [];
  const options: Parameters<SocketFactory>[0][] = [];
  const factory: SocketFactory = (socketOptions) => {
    options.push(socketOptions);
    const handlers = new Map<string, (...args: unknown[]) => void>();
    const socket = {
      handlers,
      on: (event: string, handler: (...args: unknown[]) => void) => {
        handlers.set(event, handler);
        return socket;
      },
      removeAllListeners: () => handlers.clear(),
      disconnect: vi.fn(),
    };
    sockets.push(socket);
    return socket as unknown as Socket;
  };
  return { factory, sockets, options };
}

describe('the live connection', () => {
  it('tells its listeners each time it connects, and reloads the screen when it comes back after a break', () => {
    const { factory, sockets } = fakeSocketFactory();
    const onReconnected = vi.fn();
    const connected = vi.fn();
    const stopListening = onLiveEvent(LIVE_CONNECTED_EVENT, connected);
    const stop = startRealtime({ onRolesUpdated: vi.fn(), onReconnected, createSocket: factory });
    session.start('live-token', 'signedIn');
    const connect = () => sockets[0]?.handlers.get('connect')?.();
    connect();
    expect(connected).toHaveBeenCalledTimes(1);
    expect(onReconnected).not.toHaveBeenCalled();
    connect();
    expect(connected).toHaveBeenCalledTimes(2);
    expect(onReconnected).toHaveBeenCalledTimes(1);
    session.end('signOut');
    stopListening();
    stop();
  });

  it('opens once signed in with the access token, reacts to role changes and closes at sign-out', () => {
    const { factory, sockets, options } = fakeSocketFactory();
    const onRolesUpdated = vi.fn();
    const stop = startRealtime({ onRolesUpdated, createSocket: factory });
    expect(sockets).toHaveLength(0);

    session.start('live-token', 'signedIn');
    expect(sockets).toHaveLength(1);
    expect(options[0]?.path).toBe(REALTIME_PATH);
    const auth = vi.fn();
    options[0]?.auth(auth);
    expect(auth).toHaveBeenCalledWith({ token: 'live-token' });

    sockets[0]?.handlers.get(ROLES_UPDATED_EVENT)?.();
    expect(onRolesUpdated).toHaveBeenCalledTimes(1);

    session.end('signOut');
    expect(sockets[0]?.disconnect).toHaveBeenCalled();
    stop();
  });

  it('closes a socket that arrives after the session ended, and opens one for the next sign-in', async () => {
    const { factory, sockets } = fakeSocketFactory();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // As in the console: the socket library is still loading when the session changes.
    const slow: SocketFactory = async (options) => {
      await gate;
      return factory(options);
    };
    const stop = startRealtime({ onRolesUpdated: vi.fn(), createSocket: slow });
    session.start('first-token', 'signedIn');
    session.end('signOut');
    release();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    await vi.waitFor(() => expect(sockets[0]?.disconnect).toHaveBeenCalled());

    session.start('second-token', 'signedIn');
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(sockets[1]?.disconnect).not.toHaveBeenCalled();
    expect(sockets[1]?.handlers.has(ROLES_UPDATED_EVENT)).toBe(true);
    session.end('signOut');
    expect(sockets[1]?.disconnect).toHaveBeenCalled();
    stop();
  });

  it('reloads the user and re-runs the route guards when roles change', async () => {
    const queryClient = new QueryClient();
    session.start('token', 'signedIn');
    let programId = 1;
    const api = mockFetch({
      [on(userContract.me)]: () => ({
        body: makeUser({ roles: [{ name: 'admin', program_id: programId, enterprise_id: 1 }] }),
      }),
    });
    // The console shell observes the user query while it is on screen.
    const unsubscribe = new QueryObserver(queryClient, userQuery).subscribe(() => {});
    await vi.waitFor(() => expect(queryClient.getQueryData(userQuery.queryKey)).toBeDefined());
    programId = 2;
    const router = { revalidate: vi.fn(async () => {}) };
    await reloadUserAfterRoleChange(queryClient, router);
    expect(queryClient.getQueryData(userQuery.queryKey)?.roles[0]?.program_id).toBe(2);
    expect(api.callsTo(on(userContract.me))).toHaveLength(2);
    expect(router.revalidate).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
