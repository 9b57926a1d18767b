import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import { userQueryKey } from '../features/identity/calls';
import { session } from './auth/session';

/** Sent to a user's private channel when an admin changes their program roles (01 §4). */
export const ROLES_UPDATED_EVENT = 'AdminProgramRolesUpdated';
export const REALTIME_PATH = '/socket.io';

/** Live data events the server sends (modules/devices/gateway/gateway.ts). */
export const PATIENT_DATA_EVENT = 'patient.data';
export const DISPENSER_EVENTS_EVENT = 'dispenser.events';
/** The alert board of a program changed (modules/alerts). */
export const ALERTS_CHANGED_EVENT = 'alerts.changed';
/** To one user: an alert was escalated to their role, or a rule naming their role raised one. */
export const ALERT_ESCALATED_EVENT = 'alerts.escalated';
export const ALERT_RULE_EVENT = 'alerts.rule';
/** The messenger (modules/messenger): ids of what changed; each client reloads what it may see. */
export const MESSENGER_MESSAGE_EVENT = 'messenger.message';
export const MESSENGER_CONVERSATION_EVENT = 'messenger.conversation';
/** To one user: a mention, an urgent message, being added to a conversation. */
export const MESSENGER_NOTIFICATION_EVENT = 'messenger.notification';
/** A patient's notes changed (payload: patient_id). */
export const NOTES_CHANGED_EVENT = 'notes.changed';
/** A patient's texts changed (modules/sms): a text arrived, was queued or changed state. */
export const SMS_CHANGED_EVENT = 'sms.changed';
/** A patient's survey assignments or responses changed (modules/surveys; payload: patient_id when one). */
export const SURVEYS_CHANGED_EVENT = 'surveys.changed';
/** A pipeline or a patient's stage changed (modules/pipelines; the engine's pre-stage rules too). */
export const PIPELINES_CHANGED_EVENT = 'pipelines.changed';
const FORWARDED_EVENTS = [
  PATIENT_DATA_EVENT,
  DISPENSER_EVENTS_EVENT,
  ALERTS_CHANGED_EVENT,
  ALERT_ESCALATED_EVENT,
  ALERT_RULE_EVENT,
  MESSENGER_MESSAGE_EVENT,
  MESSENGER_CONVERSATION_EVENT,
  MESSENGER_NOTIFICATION_EVENT,
  SMS_CHANGED_EVENT,
  NOTES_CHANGED_EVENT,
  SURVEYS_CHANGED_EVENT,
  PIPELINES_CHANGED_EVENT,
] as const;
/**
 * Not the server's: the live connection was made or made again. What was sent while it was down (or before it
 * was first made, after the page's first requests) was missed, so a view that counts on the events reloads.
 */
export const LIVE_CONNECTED_EVENT = 'live.connected';
export type LiveEvent = (typeof FORWARDED_EVENTS)[number] | typeof LIVE_CONNECTED_EVENT;

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

/** Listens to one live event for as long as the returned function is not called (components: useLiveEvent). */
export function onLiveEvent(event: LiveEvent, listener: Listener): () => void {
  const set = listeners.get(event) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(event, set);
  return () => set.delete(listener);
}

/**
 * Reloads the queries a live event says are out of date. A query still on its first load may have read the data
 * before the change (the event can overtake that load's answer), and TanStack Query would only join that load
 * (it cancels and restarts a refetch, not a first load), so the change would not show until the next reload:
 * such a load is cancelled first and made again. Every live listener reloads through this.
 */
export async function reloadLive(client: QueryClient, filters: InvalidateQueryFilters = {}): Promise<void> {
  const matches = filters.predicate;
  await client.cancelQueries({
    ...filters,
    predicate: (query) =>
      query.state.data === undefined &&
      query.state.fetchStatus === 'fetching' &&
      (matches ? matches(query) : true),
  });
  await client.invalidateQueries(filters);
}

/** Hands a live event to its listeners (the socket does; tests may). */
export function deliverLiveEvent(event: string, payload: unknown): void {
  for (const listener of listeners.get(event) ?? []) listener(payload);
}

/** Makes the socket (tests hand one over at once; the console loads the socket library first). */
export type SocketFactory = (options: {
  path: string;
  auth: (callback: (data: { token: string | null }) => void) => void;
}) => Socket | Promise<Socket>;

// The socket library loads once signed in, after the first screen: the sign-in page never needs it.
const defaultFactory: SocketFactory = async (options) => {
  const { io } = await import('socket.io-client');
  return io({ ...options, transports: ['websocket', 'polling'] });
};

export interface RealtimeOptions {
  /** Reload the user's details, menu and roles. */
  onRolesUpdated: () => void;
  /** The connection came back after a break (a network drop, a server restart): what was sent meanwhile was
   * missed, so what is on screen is reloaded. Not called for a session's first connection. */
  onReconnected?: () => void;
  createSocket?: SocketFactory;
}

/**
 * The live connection (01 §4): opened once the staff session is signed in, closed when it ends. The server
 * puts the socket in the user's private channel from the access token; reconnections read the current token.
 */
export function startRealtime({
  onRolesUpdated,
  onReconnected,
  createSocket = defaultFactory,
}: RealtimeOptions): () => void {
  let socket: Socket | null = null;
  // Bumped by every disconnect: a socket still being made for an ended session is closed as it arrives.
  let generation = 0;
  let connecting = false;

  const attach = (created: Socket) => {
    socket = created;
    created.on(ROLES_UPDATED_EVENT, onRolesUpdated);
    for (const event of FORWARDED_EVENTS)
      created.on(event, (payload: unknown) => deliverLiveEvent(event, payload));
    let connectedBefore = false;
    created.on('connect', () => {
      deliverLiveEvent(LIVE_CONNECTED_EVENT, null);
      if (connectedBefore) onReconnected?.();
      connectedBefore = true;
    });
    created.on('connect_error', (error: Error) => {
      // Logged only (01 §8): the console works without live updates.
      console.warn('Live connection failed', error.message);
    });
  };
  const connect = () => {
    if (socket || connecting) return;
    const made = createSocket({
      path: REALTIME_PATH,
      auth: (callback) => callback({ token: session.token() }),
    });
    if (!(made instanceof Promise)) return attach(made);
    connecting = true;
    const mine = generation;
    made.then(
      (created) => {
        connecting = false;
        if (mine === generation) attach(created);
        else created.disconnect();
      },
      (error: unknown) => {
        connecting = false;
        console.warn('Live connection failed', error instanceof Error ? error.message : error);
      },
    );
  };
  const disconnect = () => {
    generation++;
    connecting = false;
    socket?.removeAllListeners();
    socket?.disconnect();
    socket = null;
  };
  const sync = () => {
    if (session.get().status === 'signedIn') connect();
    else disconnect();
  };

  sync();
  const unsubscribe = session.store.subscribe(sync);
  return () => {
    unsubscribe();
    disconnect();
  };
}

/**
 * AdminProgramRolesUpdated: reload the user's details (menu, roles, programs) without a page reload, then
 * re-run the route guards so a page the user may no longer open sends them to not-authorized.
 */
export async function reloadUserAfterRoleChange(
  queryClient: QueryClient,
  router: { revalidate: () => Promise<void> },
): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: userQueryKey });
  await router.revalidate();
}
