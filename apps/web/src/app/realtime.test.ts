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
  reloadLive,
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

describe('reloading on a live event', () => {
  // The bell's race (issue 29): the event of a change overtook the answer of a first load that read the data
  // before it; invalidating alone joined that load and the change never showed.
  it('remakes a first load still on its way, so a change the event announces shows', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let stored = 0;
    const answers: ((value: number) => void)[] = [];
    const observer = new QueryObserver(client, {
      queryKey: ['bell', 1],
      queryFn: ({ signal }) =>
        new Promise<number>((resolve, reject) => {
          const read = stored;
          answers.push(() => resolve(read));
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    });
    const seen: (number | undefined)[] = [];
    const stop = observer.subscribe((result) => seen.push(result.data));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    stored = 1; // the change commits, its event arrives before the first load's answer
    const reloading = reloadLive(client, { queryKey: ['bell'] });
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    for (const answer of answers) answer(0);
    await reloading;
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(1));
    expect(seen.filter((d) => d !== undefined)).toEqual([1]);
    stop();
    client.clear();
  });

  it('lets a refetch of data already shown be restarted as before, and leaves other queries alone', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let stored = 5;
    client.setQueryData(['bell', 1], 4);
    client.setQueryData(['other'], 'kept');
    const observer = new QueryObserver(client, {
      queryKey: ['bell', 1],
      queryFn: () => Promise.resolve(stored),
      staleTime: Number.POSITIVE_INFINITY,
    });
    const stop = observer.subscribe(() => undefined);
    stored = 6;
    await reloadLive(client, { queryKey: ['bell'] });
    expect(client.getQueryData(['bell', 1])).toBe(6);
    expect(client.getQueryState(['other'])?.isInvalidated).toBe(false);
    stop();
    client.clear();
  });
});
