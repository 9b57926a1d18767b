import { SMS_MAX_CHARS, type SmsMessage } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Divider,
  FileButton,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { IconPhoto, IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { MessageText, MessageTime } from '../../../shared/ui/messageText';
import { localDay } from '../../../shared/ui/period';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { fillTemplate, type TemplateValues } from '../../content/api';
import { TemplatePicker } from '../../content/components/TemplatePicker';
import { noteCalls } from '../../notes/api';
import { SMS_KEY, sms, useSmsThread } from '../api';
import '../i18n';

const STATUS_COLORS: Record<SmsMessage['status'], string> = {
  queued: 'gray.8',
  sent: 'blue.9',
  delivered: 'teal.9',
  failed: 'red.9',
  received: 'violet.9',
  blocked: 'red.9',
};

/**
 * A patient's texts, both ways, grouped by day (in the viewer's zone), with their delivery state, and a
 * composer. Opening it marks the patient's replies read; new ones arrive live.
 */
export function SmsPanel({
  programId,
  patientId,
  fill = {},
}: {
  programId: number;
  patientId: number;
  /** The patient's values for a template's placeholders. */
  fill?: TemplateValues;
}) {
  const { t, i18n } = useTranslation('sms');
  const queryClient = useQueryClient();
  const [perPage, setPerPage] = useState(50);
  const thread = useSmsThread(programId, patientId, perPage);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unread = thread.data?.unread ?? 0;
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' });
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full' });

  useEffect(() => {
    if (unread > 0)
      void sms.markRead(programId, patientId).then(
        () => queryClient.invalidateQueries({ queryKey: SMS_KEY }),
        () => undefined,
      );
  }, [unread, programId, patientId, queryClient]);

  const send = async () => {
    if (!text.trim() || sending) return;
    setSending(true);
    setError(null);
    try {
      const res = await sms.send(programId, patientId, text);
      toast.success(res.message);
      setText('');
      await queryClient.invalidateQueries({ queryKey: SMS_KEY });
    } catch (err) {
      setError(isApiError(err) ? (Object.values(err.fieldErrors)[0]?.[0] ?? err.message) : t('sendError'));
    } finally {
      setSending(false);
    }
  };

  if (thread.isLoading) return <Loader size="sm" aria-label={t('loading')} />;
  if (thread.isError)
    return (
      <Alert color="red" title={t('loadError')}>
        <Button size="xs" variant="light" onClick={() => void thread.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  const rows = [...(thread.data?.data ?? [])].reverse();
  const days: { day: string; messages: SmsMessage[] }[] = [];
  for (const m of rows) {
    const key = localDay(m.created_at);
    const last = days.at(-1);
    if (last?.day === key) last.messages.push(m);
    else days.push({ day: key, messages: [m] });
  }

  return (
    <Stack gap="sm">
      {thread.data?.opted_out && (
        <Alert color="orange" title={t('optedOutTitle')}>
          {t('optedOut')}
        </Alert>
      )}
      {(thread.data?.total ?? 0) > rows.length && (
        <Button size="xs" variant="subtle" w="fit-content" onClick={() => setPerPage(perPage + 50)}>
          {t('older')}
        </Button>
      )}
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      )}
      <Stack gap="xs" role="log" aria-label={t('label')}>
        {days.map((d) => (
          <Stack key={d.day} gap="xs">
            <Divider label={day.format(new Date(`${d.day}T12:00:00`))} labelPosition="center" />
            {d.messages.map((m) => (
              <Paper
                key={m.id}
                withBorder
                p="xs"
                radius="md"
                ml={m.direction === 'outbound' ? 'xl' : 0}
                mr={m.direction === 'outbound' ? 0 : 'xl'}
                data-sms-id={m.id}
              >
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="xs" fw={600}>
                    {m.direction === 'inbound' ? t('fromPatient') : (m.sent_by?.name ?? t('careTeam'))}
                  </Text>
                  <Group gap={4}>
                    <Badge size="xs" variant="outline" color={STATUS_COLORS[m.status]}>
                      {t(`status.${m.status}`)}
                    </Badge>
                    <MessageTime at={m.created_at} format={time} />
                  </Group>
                </Group>
                <MessageText>{m.body}</MessageText>
              </Paper>
            ))}
          </Stack>
        ))}
      </Stack>
      <Textarea
        label={t('message')}
        autosize
        minRows={2}
        maxRows={6}
        maxLength={SMS_MAX_CHARS}
        value={text}
        error={error}
        description={t('count', { count: text.length, max: SMS_MAX_CHARS })}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <Group justify="space-between">
        <Group gap="xs">
          <TemplatePicker
            programId={programId}
            onPick={(body) => {
              const filled = fillTemplate(body, fill);
              setText((current) => (current.trim() ? `${current.trimEnd()} ${filled}` : filled));
            }}
          />
          <FileButton
            accept="image/png,image/jpeg,image/gif,image/webp,image/heic"
            onChange={(image) => {
              if (!image) return;
              void noteCalls.imageNote(programId, patientId, image).then(
                (res) => toast.success(res.message),
                (error) => toastErrors(error),
              );
            }}
          >
            {(props) => (
              <Button {...props} variant="default" size="sm" leftSection={<IconPhoto size={16} />}>
                {t('imageNote')}
              </Button>
            )}
          </FileButton>
        </Group>
        <Button
          leftSection={<IconSend size={16} />}
          loading={sending}
          disabled={!text.trim()}
          onClick={() => void send()}
        >
          {t('send')}
        </Button>
      </Group>
    </Stack>
  );
}
