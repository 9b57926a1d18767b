import { SMS_MAX_CHARS, type TempThread } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { MessageText, MessageTime } from '../../../shared/ui/messageText';
import { toast } from '../../../shared/ui/toasts';
import type { ActiveScope } from '../../tenancy/scope';
import { TEMP_KEY, tempCalls, useTempHistory, useTempThreads } from '../api';
import '../i18n';

/**
 * The temp_text_messages list: numbers that belong to no patient and texted the program. Opening one
 * shows the texts both ways, marks the received ones read, and lets staff answer the number.
 */
export function TempMessagesPanel({ scope }: { scope: ActiveScope | null }) {
  const { t, i18n } = useTranslation('alerts');
  const threads = useTempThreads(scope);
  const [open, setOpen] = useState<TempThread | null>(null);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {t('types.temp_text_messages')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('temp.intro')}
        </Text>
        {threads.isError && !threads.data ? (
          <Alert color="red" title={t('temp.loadError')}>
            <Button size="xs" variant="light" onClick={() => void threads.refetch()}>
              {t('retry')}
            </Button>
          </Alert>
        ) : !threads.data ? (
          <Loader size="sm" aria-label={t('loading')} />
        ) : threads.data.data.length === 0 ? (
          <Text size="sm">{t('temp.empty')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" highlightOnHover data-testid="temp-threads">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={170}>{t('temp.number')}</Table.Th>
                  <Table.Th>{t('temp.latest')}</Table.Th>
                  <Table.Th w={180}>{t('temp.when')}</Table.Th>
                  <Table.Th w={120} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {threads.data.data.map((thread) => (
                  <Table.Tr key={`${thread.program_id}-${thread.phone}`}>
                    <Table.Td>
                      <Text size="sm" fw={thread.unread > 0 ? 700 : 400}>
                        {thread.phone}
                      </Text>
                      {thread.unread > 0 && (
                        <Badge size="xs" color="violet.9" variant="filled">
                          {t('temp.unread', { count: thread.unread })}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={2}>
                        {thread.last_direction === 'outbound' ? `${t('temp.you')}: ` : ''}
                        {thread.last_body}
                      </Text>
                    </Table.Td>
                    <Table.Td>{time.format(new Date(thread.last_at))}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => setOpen(thread)}
                        aria-label={t('temp.openNumber', { phone: thread.phone })}
                      >
                        {t('temp.open')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Drawer
        opened={open !== null}
        onClose={() => setOpen(null)}
        position="right"
        size="md"
        title={open ? t('temp.title', { phone: open.phone }) : ''}
      >
        {open && <TempThreadView thread={open} />}
      </Drawer>
    </Paper>
  );
}

function TempThreadView({ thread }: { thread: TempThread }) {
  const { t, i18n } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const history = useTempHistory(thread.phone, thread.program_id);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const unreadIds = (history.data?.data ?? [])
    .filter((m) => m.direction === 'inbound' && !m.is_read)
    .map((m) => m.id)
    .join(',');

  // Opening the number reads its texts: the tile and the list follow.
  useEffect(() => {
    if (!unreadIds) return;
    void tempCalls.markRead(unreadIds.split(',').map(Number)).then(
      () => queryClient.invalidateQueries({ queryKey: TEMP_KEY }),
      () => undefined,
    );
    void queryClient.invalidateQueries({ queryKey: ['alerts', 'tiles'] });
  }, [unreadIds, queryClient]);

  const send = async () => {
    if (!text.trim() || sending) return;
    setSending(true);
    setError(null);
    try {
      const res = await tempCalls.reply(thread.program_id, thread.phone, text);
      toast.success(res.message);
      setText('');
      await queryClient.invalidateQueries({ queryKey: TEMP_KEY });
    } catch (err) {
      setError(
        isApiError(err) ? (Object.values(err.fieldErrors)[0]?.[0] ?? err.message) : t('temp.sendError'),
      );
    } finally {
      setSending(false);
    }
  };

  if (history.isError && !history.data)
    return (
      <Alert color="red" title={t('temp.loadError')}>
        <Button size="xs" variant="light" onClick={() => void history.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  if (!history.data) return <Loader size="sm" aria-label={t('loading')} />;
  const rows = [...history.data.data].reverse();
  return (
    <Stack gap="sm">
      <Stack gap="xs" role="log" aria-label={t('temp.messages')}>
        {rows.map((m) => (
          <Paper
            key={m.id}
            withBorder
            p="xs"
            radius="md"
            ml={m.direction === 'outbound' ? 'xl' : 0}
            mr={m.direction === 'outbound' ? 0 : 'xl'}
          >
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="xs" fw={600}>
                {m.direction === 'inbound' ? thread.phone : (m.sent_by?.name ?? t('temp.you'))}
              </Text>
              <MessageTime at={m.created_at} format={time} />
            </Group>
            <MessageText>{m.body}</MessageText>
          </Paper>
        ))}
      </Stack>
      <Textarea
        label={t('temp.reply')}
        autosize
        minRows={2}
        maxRows={6}
        maxLength={SMS_MAX_CHARS}
        value={text}
        error={error}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <Group justify="flex-end">
        <Button
          leftSection={<IconSend size={16} />}
          loading={sending}
          disabled={!text.trim()}
          onClick={() => void send()}
        >
          {t('temp.send')}
        </Button>
      </Group>
    </Stack>
  );
}
