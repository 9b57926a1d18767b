import { memoryContract } from '@caredeck/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

/**
 * The messenger's user-memory default settings (02 §3 "User-memory default settings", module 'messenger'),
 * per program: how the composer sends, and which notices show outside the conversation. Urgent messages
 * always show one.
 */
export type MessengerPrefs = { enter_sends: boolean; notify_mentions: boolean; notify_added: boolean };
export const DEFAULT_MESSENGER_PREFS: MessengerPrefs = {
  enter_sends: true,
  notify_mentions: true,
  notify_added: true,
};

const keyOf = (programId: number) => ['memory', 'messenger', programId] as const;

function prefsOf(stored: Record<string, unknown> | undefined): MessengerPrefs {
  const pick = (k: keyof MessengerPrefs) =>
    typeof stored?.[k] === 'boolean' ? (stored[k] as boolean) : DEFAULT_MESSENGER_PREFS[k];
  return {
    enter_sends: pick('enter_sends'),
    notify_mentions: pick('notify_mentions'),
    notify_added: pick('notify_added'),
  };
}

/** The query of a program's messenger settings (for `useQuery`, or `fetchQuery` when a notice arrives). */
export function messengerPrefsQuery(programId: number) {
  return {
    queryKey: keyOf(programId),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.call(
        memoryContract.get,
        { query: { module_name: 'messenger', program_id: String(programId) } },
        { signal },
      ),
    staleTime: 10 * 60_000,
    retry: 1,
  };
}

/** A program's messenger settings (the defaults until they are loaded, or when the call fails). */
export async function loadMessengerPrefs(
  queryClient: ReturnType<typeof useQueryClient>,
  programId: number,
): Promise<MessengerPrefs> {
  try {
    return prefsOf((await queryClient.fetchQuery(messengerPrefsQuery(programId))).data?.default_settings);
  } catch {
    return DEFAULT_MESSENGER_PREFS;
  }
}

export function useMessengerPrefs(programId: number | null) {
  const queryClient = useQueryClient();
  const memory = useQuery({
    ...messengerPrefsQuery(programId ?? 0),
    enabled: programId !== null && programId > 0,
  });
  return {
    prefs: prefsOf(memory.data?.data?.default_settings),
    loaded: memory.data !== undefined,
    save: async (next: MessengerPrefs) => {
      if (!programId) throw new Error('no program');
      const result = await api.call(memoryContract.save, {
        body: { module_name: 'messenger', program_id: programId, default_settings: next },
      });
      queryClient.setQueryData(keyOf(programId), { data: result.data });
      return result;
    },
  };
}
