import type { Conversation } from '@caredeck/contracts';
import { MESSENGER_MAX_FILES } from '@caredeck/contracts';
import {
  Button,
  Checkbox,
  CloseButton,
  FileButton,
  Group,
  MultiSelect,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { sendOnEnter } from '../../../shared/ui/messageText';
import { toast } from '../../../shared/ui/toasts';
import { messenger } from '../api';
import { useMessengerPrefs } from '../prefs';
import '../i18n';

type Props = {
  conversation: Conversation;
  me: number;
  parentId?: number;
  onSent: () => void;
};

/**
 * Writes a message: Enter sends, Shift+Enter starts a new line (or Ctrl+Enter sends, by the user's setting). Mentions are chosen from the members;
 * files (up to 5) may be marked as PHI, which keeps them from the others until confirmed.
 * What was typed stays in the box when sending fails.
 */
export function Composer({ conversation, me, parentId, onSent }: Props) {
  const { t } = useTranslation('messenger');
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [mentions, setMentions] = useState<string[]>([]);
  const [urgent, setUrgent] = useState(false);
  const [phi, setPhi] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const others = conversation.users.filter((u) => u.id !== me);
  const { prefs } = useMessengerPrefs(conversation.program_id);

  const send = async () => {
    if (sending || (!body.trim() && files.length === 0)) return;
    setSending(true);
    setError(null);
    try {
      await messenger.send(conversation.id, {
        body,
        parentId: parentId ?? null,
        urgent,
        phi: phi && files.length > 0,
        mentions: mentions.map(Number),
        files,
      });
      setBody('');
      setFiles([]);
      setMentions([]);
      setUrgent(false);
      setPhi(false);
      onSent();
    } catch (err) {
      const message = isApiError(err)
        ? (Object.values(err.fieldErrors)[0]?.[0] ?? err.message)
        : t('errors.send');
      setError(message);
      toast.error(message);
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="xs">
      <Textarea
        label={parentId ? t('composer.replyLabel') : t('composer.label')}
        placeholder={prefs.enter_sends ? t('composer.placeholder') : t('composer.placeholderCtrl')}
        autosize
        minRows={2}
        maxRows={8}
        value={body}
        error={error}
        onChange={(e) => setBody(e.currentTarget.value)}
        onKeyDown={sendOnEnter(() => void send(), prefs.enter_sends)}
      />
      {files.length > 0 && (
        <Group gap="xs">
          {files.map((f, i) => (
            <Group key={`${f.name}-${f.size}-${f.lastModified}`} gap={2}>
              <Text size="xs">{f.name}</Text>
              <CloseButton
                size="xs"
                aria-label={t('composer.removeFile', { name: f.name })}
                onClick={() => setFiles(files.filter((_, j) => j !== i))}
              />
            </Group>
          ))}
        </Group>
      )}
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <FileButton
            multiple
            onChange={(picked) => setFiles([...files, ...picked].slice(0, MESSENGER_MAX_FILES))}
          >
            {(props) => (
              <Button {...props} size="xs" variant="default" leftSection={<IconPaperclip size={14} />}>
                {t('composer.attach')}
              </Button>
            )}
          </FileButton>
          {others.length > 0 && (
            <MultiSelect
              size="xs"
              aria-label={t('composer.mention')}
              placeholder={mentions.length === 0 ? t('composer.mention') : undefined}
              data={others.map((u) => ({ value: String(u.id), label: u.name }))}
              value={mentions}
              onChange={setMentions}
              searchable
              clearable
              w={220}
            />
          )}
          <Checkbox
            size="xs"
            label={t('composer.urgent')}
            checked={urgent}
            onChange={(e) => setUrgent(e.currentTarget.checked)}
          />
          {files.length > 0 && (
            <Checkbox
              size="xs"
              label={t('composer.phi')}
              checked={phi}
              onChange={(e) => setPhi(e.currentTarget.checked)}
            />
          )}
        </Group>
        <Button
          size="xs"
          leftSection={<IconSend size={14} />}
          loading={sending}
          disabled={!body.trim() && files.length === 0}
          onClick={() => void send()}
        >
          {t('composer.send')}
        </Button>
      </Group>
    </Stack>
  );
}
