import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  FileButton,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { MessageText, MessageTime, sendOnEnter } from '../../../shared/ui/messageText';
import { guestApi, readGuestSession, useGuestConversation, useGuestLive } from '../api';
import '../i18n';

/**
 * /guest/messenger: the guest's one conversation, made for a phone. Messages arrive live; the guest writes
 * text and attaches files. Without the link's token (a new tab) it asks for the invitation link again.
 */
export function GuestMessengerPage() {
  const { t, i18n } = useTranslation('guest');
  const [params] = useSearchParams();
  const conversationId = Number(params.get('conversation'));
  const session = useMemo(() => {
    const kept = readGuestSession();
    return kept && kept.conversation === conversationId ? kept : null;
  }, [conversationId]);
  const query = useGuestConversation(session);
  const refetch = query.refetch;
  const onMessage = useCallback(() => void refetch(), [refetch]);
  useGuestLive(session, onMessage);
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const messages = query.data?.messages ?? [];
  const lastId = messages.at(-1)?.id ?? 0;
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });

  useEffect(() => {
    if (!session || !lastId) return;
    bottom.current?.scrollIntoView?.({ block: 'end' });
    void guestApi.read(session).catch(() => undefined);
  }, [session, lastId]);

  if (!session)
    return (
      <Container size="xs" py="xl">
        <Alert color="orange" title={t('title')}>
          {t('reopen')}
        </Alert>
      </Container>
    );
  if (query.isError)
    return (
      <Container size="xs" py="xl">
        <Alert color="red" role="alert" title={t('title')}>
          {isApiError(query.error, 401) ? t('invalid') : t('loadError')}
        </Alert>
      </Container>
    );

  const send = async () => {
    if (sending || (!body.trim() && files.length === 0)) return;
    setSending(true);
    setError(null);
    try {
      await guestApi.send(session, body, files);
      setBody('');
      setFiles([]);
      await refetch();
    } catch (err) {
      setError(isApiError(err) ? (Object.values(err.fieldErrors)[0]?.[0] ?? err.message) : t('sendError'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Container size="sm" px="xs" py="md">
      <Stack gap="sm">
        <div>
          <Title order={1} fz="h3">
            {query.data?.data.name ?? t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {query.data ? t('as', { name: query.data.data.guest_name }) : t('loading')}
          </Text>
        </div>
        <Stack gap="xs" role="log" aria-label={t('messages')} aria-live="polite">
          {query.data && messages.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('empty')}
            </Text>
          )}
          {messages.map((m) => (
            <Paper
              key={m.id}
              withBorder
              p="sm"
              radius="md"
              ml={m.sender.you ? 'xl' : 0}
              mr={m.sender.you ? 0 : 'xl'}
              bg={m.sender.you ? 'var(--mantine-color-default-hover)' : undefined}
            >
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Group gap={4}>
                  <Text size="sm" fw={600}>
                    {m.sender.you ? t('you') : m.sender.name}
                  </Text>
                  {m.sender.kind === 'staff' && (
                    <Badge size="xs" variant="outline" color="primary">
                      {t('careTeam')}
                    </Badge>
                  )}
                </Group>
                <MessageTime at={m.created_at} format={time} />
              </Group>
              {m.body && <MessageText>{m.body}</MessageText>}
              {m.attachments.map((a) => (
                <Anchor
                  key={a.id}
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() =>
                    void guestApi.download(session, a.id).catch(() => setError(t('downloadError')))
                  }
                >
                  {a.file_name}
                </Anchor>
              ))}
            </Paper>
          ))}
          <div ref={bottom} />
        </Stack>
        <Textarea
          label={t('message')}
          autosize
          minRows={2}
          maxRows={6}
          value={body}
          error={error}
          onChange={(e) => setBody(e.currentTarget.value)}
          onKeyDown={sendOnEnter(() => void send())}
        />
        {files.length > 0 && <Text size="xs">{files.map((f) => f.name).join(', ')}</Text>}
        <Group justify="space-between">
          <FileButton multiple onChange={(picked) => setFiles(picked.slice(0, 5))}>
            {(props) => (
              <Button {...props} variant="default" size="sm" leftSection={<IconPaperclip size={16} />}>
                {t('attach')}
              </Button>
            )}
          </FileButton>
          <Button
            size="sm"
            leftSection={<IconSend size={16} />}
            loading={sending}
            disabled={!body.trim() && files.length === 0}
            onClick={() => void send()}
          >
            {t('send')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
