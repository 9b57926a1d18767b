import { Anchor } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSENGER_NOTIFICATION_EVENT, onLiveEvent, reloadLive } from '../../../app/realtime';
import { toast } from '../../../shared/ui/toasts';
import { useActiveScope } from '../../tenancy/scope';
import { loadMessengerPrefs } from '../prefs';

const TEXTS = {
  mention: 'shell.messengerNotice.mention',
  urgent: 'shell.messengerNotice.urgent',
  added: 'shell.messengerNotice.added',
} as const;

type Notice = {
  kind: 'mention' | 'urgent' | 'added';
  conversation_id: number;
  conversation_name: string;
  from_name: string;
};

/**
 * Mounted by the console shell: a toast when someone mentions the user, sends an urgent message or adds
 * them to a conversation, wherever they are. Its texts are the shell's (no messenger bundle on first load).
 */
export function MessengerNotices() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const programId = useActiveScope()?.programId ?? null;
  useEffect(() => {
    const show = (n: Notice) => {
      const text = t(TEXTS[n.kind] ?? TEXTS.mention, {
        from: n.from_name,
        conversation: n.conversation_name,
      });
      // Toasts render outside the router: a plain link opens the conversation.
      const link = (
        <Anchor href={`/messenger?c=${n.conversation_id}`} size="sm">
          {text}
        </Anchor>
      );
      if (n.kind === 'urgent') toast.warning(link);
      else toast.info(link);
    };
    return onLiveEvent(MESSENGER_NOTIFICATION_EVENT, (payload) => {
      const n = payload as Notice;
      void reloadLive(queryClient, { queryKey: ['messenger', 'count'] });
      // On the conversation itself the messages arrive anyway; elsewhere a link opens it.
      const here =
        window.location.pathname === '/messenger' &&
        new URLSearchParams(window.location.search).get('c') === String(n.conversation_id);
      if (here && n.kind !== 'urgent') return;
      if (n.kind === 'urgent' || !programId) {
        show(n);
        return;
      }
      // The user's settings (loaded when the first notice comes, then cached) may silence mention and
      // 'added' notices; urgent ones always show.
      void loadMessengerPrefs(queryClient, programId).then((prefs) => {
        if (n.kind === 'mention' ? prefs.notify_mentions : prefs.notify_added) show(n);
      });
    });
  }, [t, queryClient, programId]);
  return null;
}
