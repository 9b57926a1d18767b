import type { Conversation } from '@caredeck/contracts';
import { Alert, Divider, Drawer, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSENGER_KEY, messenger, useThread } from '../api';
import { Composer } from './Composer';
import { MessageItem } from './MessageItem';
import '../i18n';

type Props = { conversation: Conversation; messageId: number | null; me: number; onClose: () => void };

/** A message's thread beside the conversation; opening it marks the conversation's replies read. */
export function ThreadDrawer({ conversation, messageId, me, onClose }: Props) {
  const { t } = useTranslation('messenger');
  const queryClient = useQueryClient();
  const thread = useThread(messageId === null ? null : conversation.id, messageId);
  const reload = () => void queryClient.invalidateQueries({ queryKey: MESSENGER_KEY });
  const replies = thread.data?.replies.length ?? 0;
  const names = new Map(conversation.users.map((u) => [u.id, u.name]));

  // Replies read while the thread is open (also those arriving live) clear the conversation's thread count.
  useEffect(() => {
    if (messageId === null || conversation.threads_unread_count === 0) return;
    void messenger.clearThreads(conversation.id, messageId).then(
      () => queryClient.invalidateQueries({ queryKey: MESSENGER_KEY }),
      () => undefined,
    );
  }, [messageId, conversation.id, conversation.threads_unread_count, queryClient]);

  return (
    <Drawer
      opened={messageId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('thread.title')}
    >
      {thread.isLoading && <Loader size="sm" aria-label={t('loading')} />}
      {thread.isError && <Alert color="red">{t('errors.thread')}</Alert>}
      {thread.data && (
        <Stack gap="sm">
          <MessageItem message={thread.data.data} me={me} names={names} onChanged={reload} />
          <Divider label={t('replies', { count: replies })} labelPosition="left" />
          {replies === 0 && (
            <Text size="sm" c="dimmed">
              {t('thread.empty')}
            </Text>
          )}
          {thread.data.replies.map((m) => (
            <MessageItem key={m.id} message={m} me={me} names={names} onChanged={reload} />
          ))}
          <Composer conversation={conversation} me={me} parentId={thread.data.data.id} onSent={reload} />
        </Stack>
      )}
    </Drawer>
  );
}
