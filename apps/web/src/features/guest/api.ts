import { guestContract as g } from '@caredeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { REALTIME_PATH } from '../../app/realtime';
import { api } from '../../shared/api-client';

/** The guest's link token, kept for this browser tab only (sessionStorage), with the conversation it opens. */
const KEY = 'caredeck.guest';
export type GuestSession = { token: string; conversation: number };

export function readGuestSession(): GuestSession | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const value = raw ? (JSON.parse(raw) as GuestSession) : null;
    return value && typeof value.token === 'string' && Number.isInteger(value.conversation) ? value : null;
  } catch {
    return null;
  }
}

export function keepGuestSession(session: GuestSession): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

const as = (token: string) => ({ auth: 'none' as const, headers: { Authorization: `Guest ${token}` } });

export const verifyLink = (token: string) => api.call(g.verify, { query: { token } }, { auth: 'none' });

export function useGuestConversation(session: GuestSession | null) {
  return useQuery({
    queryKey: ['guest', session?.conversation],
    queryFn: ({ signal }) =>
      api.call(
        g.conversation,
        { params: { id: String(session?.conversation) } },
        { ...as(session?.token ?? ''), signal },
      ),
    enabled: session !== null,
    retry: false,
  });
}

export const guestApi = {
  send: (session: GuestSession, body: string, files: File[]) => {
    const form = new FormData();
    form.append('body', body);
    for (const file of files) form.append('files', file, file.name);
    return api.upload(g.post, { params: { id: String(session.conversation) } }, form, as(session.token));
  },
  read: (session: GuestSession) =>
    api.call(g.read, { params: { id: String(session.conversation) } }, as(session.token)),
  download: (session: GuestSession, fileId: number) =>
    api.download(
      g.download,
      { params: { id: String(session.conversation), fileId: String(fileId) } },
      as(session.token),
    ),
};

/** Live messages for the guest: a socket that proves itself with the link token, in the conversation's channel. */
export function useGuestLive(session: GuestSession | null, onMessage: () => void) {
  useEffect(() => {
    if (!session) return;
    const socket = io({
      path: REALTIME_PATH,
      transports: ['websocket', 'polling'],
      auth: { guest: session.token },
    });
    socket.on('messenger.message', onMessage);
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [session, onMessage]);
}
