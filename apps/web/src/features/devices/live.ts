import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { controllerSession } from '../../app/auth/controllerSession';
import { REALTIME_PATH } from '../../app/realtime';

/** Sent to the controller realm when the fleet changed (modules/devices/gateway/gateway.ts). */
export const FLEET_CHANGED_EVENT = 'fleet.changed';

/**
 * Keeps /controller live: a socket of the controller realm (its own token) hears `fleet.changed` — a device
 * connected, went away or sent events; the server sends it at most once a second — and the fleet, the
 * gateway's counters and the open dispenser reload. The queries' slow polling stays as a fallback.
 */
export function useControllerLive(): void {
  const client = useQueryClient();
  useEffect(() => {
    const token = controllerSession.token();
    if (!token) return;
    const socket = io({
      path: REALTIME_PATH,
      auth: (callback) => callback({ controller: controllerSession.token() }),
      transports: ['websocket', 'polling'],
    });
    socket.on(FLEET_CHANGED_EVENT, () => void client.invalidateQueries({ queryKey: ['controller'] }));
    socket.on('connect_error', (error: Error) => console.warn('Live connection failed', error.message));
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [client]);
}
