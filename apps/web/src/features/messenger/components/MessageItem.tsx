import type { MessengerMessage } from '@caredeck/contracts';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPaperclip, IconShieldLock, IconThumbUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MessageText, MessageTime } from '../../../shared/ui/messageText';
import { toast } from '../../../shared/ui/toasts';
import { type MessengerStep, messenger } from '../api';
import { FileLink } from './FileLink';
import '../i18n';

type Props = {
  message: MessengerMessage;
  me: number;
  /** Names of the conversation's members, to show whom a message mentions. */
  names?: ReadonlyMap<number, string>;
  onReply?: (messageId: number) => void;
  onChanged: () => void;
};

const sizeOf = (bytes: number) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** One message: sender, time, text, files (PHI ones confirmed by their sender), thumbs-up, thread link. */
export function MessageItem({ message: m, me, names, onReply, onChanged }: Props) {
  const { t, i18n } = useTranslation('messenger');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const mine = m.sender.kind === 'staff' && m.sender.id === me;
  const liked = m.thumbs_up.includes(me);
  const waiting = mine ? m.attachments.filter((a) => a.phi && !a.confirmed).length : 0;

  const run = async (action: MessengerStep) => {
    try {
      await action();
      onChanged();
    } catch {
      toast.error(t('errors.action'));
    }
  };

  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      bg={m.urgent && m.acknowledged_by.length === 0 ? 'var(--mantine-color-red-light)' : undefined}
      data-message-id={m.id}
    >
      <Stack gap={4}>
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Text fw={600} size="sm">
              {m.sender.name}
            </Text>
            {m.sender.kind === 'guest' && (
              <Badge size="xs" variant="outline" color="grape.9">
                {t('guest')}
              </Badge>
            )}
            {m.urgent && (
              <Badge size="xs" color="red.9">
                {t('urgent')}
              </Badge>
            )}
          </Group>
          <MessageTime at={m.created_at} format={time} />
        </Group>
        {m.mentions.length > 0 && (
          <Group gap={4}>
            {m.mentions.map((id) => (
              <Badge key={id} size="xs" variant={id === me ? 'filled' : 'outline'} color="violet.9" tt="none">
                {`@${names?.get(id) ?? t('someone')}`}
              </Badge>
            ))}
          </Group>
        )}
        {m.body && <MessageText>{m.body}</MessageText>}
        {m.attachments.map((a) => (
          <Group key={a.id} gap="xs">
            <IconPaperclip size={14} aria-hidden />
            <FileLink conversationId={m.conversation_id} file={a} />
            <Text size="xs" c="dimmed">
              {sizeOf(a.size)}
            </Text>
            {a.phi && (
              <Badge
                size="xs"
                variant="outline"
                color={a.confirmed ? 'teal.9' : 'red.9'}
                leftSection={<IconShieldLock size={10} />}
              >
                {a.confirmed ? t('phi.confirmed') : t('phi.waiting')}
              </Badge>
            )}
          </Group>
        ))}
        {m.pending_attachments > 0 && (
          <Text size="xs" c="dimmed">
            {t('phi.hidden', { count: m.pending_attachments })}
          </Text>
        )}
        {m.acknowledged_by.length > 0 && (
          <Text size="xs" c="teal.9">
            {t('acknowledgedBy', { names: m.acknowledged_by.map((a) => a.name).join(', ') })}
          </Text>
        )}
        <Group gap="xs">
          <Button
            size="compact-xs"
            variant={liked ? 'light' : 'subtle'}
            leftSection={<IconThumbUp size={14} />}
            aria-pressed={liked}
            onClick={() => void run(() => messenger.thumbsUp(m.conversation_id, me, m.id))}
          >
            {m.thumbs_up.length > 0 ? String(m.thumbs_up.length) : t('thumbsUp')}
          </Button>
          {onReply && (
            <Button size="compact-xs" variant="subtle" onClick={() => onReply(m.id)}>
              {m.threads_count > 0 ? t('replies', { count: m.threads_count }) : t('reply')}
            </Button>
          )}
          {waiting > 0 && (
            <Button
              size="compact-xs"
              color="red.9"
              variant="filled"
              onClick={() =>
                void run(async () => {
                  await messenger.confirmPhi(m.conversation_id, m.id);
                  toast.success(t('phi.done'));
                })
              }
            >
              {t('phi.confirm')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
