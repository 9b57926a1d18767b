import { type ChatRole, messengerContract as c } from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  MESSENGER_CONVERSATION_EVENT,
  MESSENGER_MESSAGE_EVENT,
  onLiveEvent,
  reloadLive,
} from '../../app/realtime';
import { api } from '../../shared/api-client';

export const MESSENGER_KEY = ['messenger'] as const;
/** Mute lengths offered, in minutes (-1: until unmuted). */
export const MUTE_CHOICES = [
  { minutes: 60, label: 'mute.m60' },
  { minutes: 480, label: 'mute.m480' },
  { minutes: 1440, label: 'mute.m1440' },
  { minutes: -1, label: 'mute.forever' },
] as const;

/** An action a button runs (then the view reloads). */
export type MessengerStep<T = unknown> = () => Promise<T>;

export function useConversations(programId: number | null, filter: { search: string; archived: boolean }) {
  return useQuery({
    queryKey: [...MESSENGER_KEY, 'list', programId, filter],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          query: {
            ...(programId ? { program_id: String(programId) } : {}),
            ...(filter.search ? { search: filter.search } : {}),
            archived: filter.archived ? '1' : '0',
          },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

/** Opening a conversation marks it read on the server (02 §4), so the list reloads after it. */
export function useConversation(id: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...MESSENGER_KEY, 'conversation', id],
    queryFn: async ({ signal }) => {
      const res = await api.call(c.get, { params: { id: String(id) }, query: {} }, { signal });
      void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'list'] });
      void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'count'] });
      return res;
    },
    enabled: id !== null,
    retry: 1,
  });
}

export function useThread(conversationId: number | null, messageId: number | null) {
  return useQuery({
    queryKey: [...MESSENGER_KEY, 'thread', conversationId, messageId],
    queryFn: ({ signal }) =>
      api.call(
        c.thread,
        { params: { id: String(conversationId), messageId: String(messageId) } },
        { signal },
      ),
    enabled: conversationId !== null && messageId !== null,
    retry: 1,
  });
}

export function useMessageCount() {
  return useQuery({
    queryKey: [...MESSENGER_KEY, 'count'],
    queryFn: ({ signal }) => api.call(c.count, {}, { signal }),
    staleTime: 30_000,
  });
}

export function useMentionable(scope: { conversationId?: number; programId?: number }, search: string) {
  return useQuery({
    queryKey: [...MESSENGER_KEY, 'mentionable', scope, search],
    queryFn: ({ signal }) =>
      api.call(
        c.mentionable,
        {
          query: {
            ...(scope.conversationId ? { conversation_id: String(scope.conversationId) } : {}),
            ...(scope.programId ? { program_id: String(scope.programId) } : {}),
            ...(search ? { search } : {}),
          },
        },
        { signal },
      ),
    enabled: Boolean(scope.conversationId || scope.programId),
    placeholderData: keepPreviousData,
  });
}

/** Reloads the messenger's queries when the server says a conversation or message changed. */
export function useLiveMessenger() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const reload = () => void reloadLive(queryClient, { queryKey: MESSENGER_KEY });
    const offMessage = onLiveEvent(MESSENGER_MESSAGE_EVENT, reload);
    const offConversation = onLiveEvent(MESSENGER_CONVERSATION_EVENT, reload);
    return () => {
      offMessage();
      offConversation();
    };
  }, [queryClient]);
}

const id = (n: number) => String(n);

export type NewMessage = {
  body: string;
  parentId?: number | null;
  urgent?: boolean;
  phi?: boolean;
  mentions?: number[];
  files?: File[];
};

export const messenger = {
  /** Messages before `beforeId` (older history), 50 at a time. */
  older: (id: number, beforeId: number) =>
    api.call(c.get, { params: { id: String(id) }, query: { before_id: String(beforeId) } }),
  create: (programId: number, name: string, users: number[]) =>
    api.call(c.create, { body: { program_id: programId, name, users } }),
  send: (conversationId: number, m: NewMessage) => {
    const form = new FormData();
    form.append('body', m.body);
    if (m.parentId) form.append('parent_id', String(m.parentId));
    if (m.urgent) form.append('urgent', '1');
    if (m.phi) form.append('phi', '1');
    form.append('mentions', JSON.stringify(m.mentions ?? []));
    for (const file of m.files ?? []) form.append('files', file, file.name);
    return api.upload(c.post, { params: { id: id(conversationId) } }, form);
  },
  rename: (conversationId: number, name: string) =>
    api.call(c.rename, { params: { id: id(conversationId) }, body: { name } }),
  addUsers: (conversationId: number, users: number[]) =>
    api.call(c.addUsers, { params: { id: id(conversationId) }, body: { users } }),
  leave: (conversationId: number, userId: number) =>
    api.call(c.removeUser, {
      params: { id: id(conversationId), userId: id(userId) },
      query: { isLeaving: '1' },
    }),
  remove: (conversationId: number, userId: number) =>
    api.call(c.removeUser, { params: { id: id(conversationId), userId: id(userId) }, query: {} }),
  settings: (
    conversationId: number,
    userId: number,
    set: { is_pinned?: boolean; is_archived?: boolean; chat_role?: ChatRole },
  ) => api.call(c.updateUser, { params: { id: id(conversationId), userId: id(userId) }, body: set }),
  mute: (conversationId: number, userId: number, minutes: number) =>
    api.call(c.mute, {
      params: { id: id(conversationId), userId: id(userId) },
      body: { muteValue: minutes },
    }),
  unread: (conversationId: number) => api.call(c.unread, { params: { id: id(conversationId) } }),
  readAll: () => api.call(c.readAll),
  clearThreads: (conversationId: number, messageId: number) =>
    api.call(c.clearThreads, { params: { id: id(conversationId), messageId: id(messageId) } }),
  acknowledge: (conversationId: number, userId: number, parentId: number) =>
    api.call(c.acknowledge, {
      params: { conversationId: id(conversationId), userId: id(userId) },
      body: { parent_id: parentId },
    }),
  thumbsUp: (conversationId: number, userId: number, parentId: number) =>
    api.call(c.thumbsUp, {
      params: { conversationId: id(conversationId), userId: id(userId) },
      body: { parent_id: parentId },
    }),
  confirmPhi: (conversationId: number, messageId: number) =>
    api.call(c.confirmPhi, { params: { id: id(conversationId) }, body: { message_id: messageId } }),
  download: (conversationId: number, fileId: number) =>
    api.download(c.download, { params: { id: id(conversationId), fileId: id(fileId) } }),
};
