import type { Conversation } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconAt, IconBellOff, IconPin, IconPlus, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { toast } from '../../../shared/ui/toasts';
import { useActiveScope } from '../../tenancy/scope';
import { MESSENGER_KEY, messenger, useConversations, useLiveMessenger } from '../api';
import { ConversationView } from '../components/ConversationView';
import { NewConversationModal } from '../components/NewConversationModal';
import { SettingsModal } from '../components/SettingsModal';
import { ThreadDrawer } from '../components/ThreadDrawer';
import '../i18n';

function ConversationRow({ c, active, onOpen }: { c: Conversation; active: boolean; onOpen: () => void }) {
  const { t } = useTranslation('messenger');
  return (
    <UnstyledButton
      onClick={onOpen}
      aria-current={active ? 'true' : undefined}
      p="xs"
      style={{
        borderRadius: 'var(--mantine-radius-sm)',
        background: active ? 'var(--mantine-color-default-hover)' : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap={4} wrap="nowrap">
            {c.is_pinned && <IconPin size={12} aria-label={t('list.pinned')} />}
            {c.muted && <IconBellOff size={12} aria-label={t('list.muted')} />}
            <Text size="sm" fw={c.unreadCount > 0 ? 700 : 500} truncate>
              {c.name}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {c.last_message
              ? `${c.last_message.sender_name}: ${c.last_message.body || '📎'}`
              : t('list.noMessages')}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          {c.urgent && (
            <Badge size="sm" color="red.9" variant="filled">
              {t('urgent')}
            </Badge>
          )}
          {c.mentionedUnreadAdmin && (
            <Badge size="sm" color="violet.9" variant="filled" aria-label={t('list.mentioned')}>
              <IconAt size={10} />
            </Badge>
          )}
          {c.unreadCount > 0 && (
            <Badge size="sm" circle aria-label={t('list.unread', { count: c.unreadCount })}>
              {c.unreadCount > 99 ? '99+' : c.unreadCount}
            </Badge>
          )}
          {c.threads_unread_count > 0 && (
            <Badge
              size="sm"
              variant="light"
              aria-label={t('list.threadsUnread', { count: c.threads_unread_count })}
            >
              {`↳ ${c.threads_unread_count}`}
            </Badge>
          )}
        </Group>
      </Group>
    </UnstyledButton>
  );
}

/**
 * /messenger (02 §2): the user's conversations of the active program (pinned first, then by name, then most
 * unread), one conversation with its messages, and a thread beside it. The open conversation and thread
 * live in the URL (?c=, ?thread=). Everything reloads live.
 */
export function MessengerPage() {
  const { t, i18n } = useTranslation('messenger');
  const scope = useActiveScope();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [settings, setSettings] = useState(false);
  useLiveMessenger();
  const archived = params.get('archived') === '1';
  const programId = scope && !scope.enterpriseScope ? scope.programId : null;
  const list = useConversations(programId, { search, archived });
  const openId = Number(params.get('c')) || null;
  const threadId = Number(params.get('thread')) || null;
  const me = scope?.userId ?? 0;
  const rows = list.data?.data ?? [];
  const open = (id: number | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (id) next.set('c', String(id));
      else next.delete('c');
      next.delete('thread');
      return next;
    });
  const openThread = (id: number | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (id) next.set('thread', String(id));
      else next.delete('thread');
      return next;
    });
  const openConversation = rows.find((c) => c.id === openId) ?? null;

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {i18n.t('nav.messenger')}
        </Title>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() =>
              void messenger.readAll().then(
                (res) => {
                  toast.success(res.message);
                  void queryClient.invalidateQueries({ queryKey: MESSENGER_KEY });
                },
                () => toast.error(t('errors.action')),
              )
            }
          >
            {t('list.readAll')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconSettings size={14} />}
            disabled={programId === null}
            onClick={() => setSettings(true)}
          >
            {t('settings.title')}
          </Button>
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            disabled={programId === null}
            title={programId === null ? t('list.chooseProgram') : undefined}
            onClick={() => setCreating(true)}
          >
            {t('new.title')}
          </Button>
        </Group>
      </Group>
      <Grid gap="md">
        <Grid.Col
          span={{ base: 12, md: 4, lg: 3 }}
          display={openId ? { base: 'none', md: 'block' } : 'block'}
        >
          <Paper withBorder p="xs" radius="md">
            <Stack gap="xs">
              <SearchBox value={search} onSearch={setSearch} label={t('list.search')} />
              <SegmentedControl
                size="xs"
                fullWidth
                value={archived ? '1' : '0'}
                onChange={(v) =>
                  setParams((p) => {
                    const next = new URLSearchParams(p);
                    if (v === '1') next.set('archived', '1');
                    else next.delete('archived');
                    return next;
                  })
                }
                data={[
                  { value: '0', label: t('list.active') },
                  { value: '1', label: t('list.archived') },
                ]}
              />
              {list.isLoading && <Loader size="sm" aria-label={t('loading')} />}
              {list.isError && (
                <Alert color="red" title={t('errors.list')}>
                  <Button size="xs" variant="light" onClick={() => void list.refetch()}>
                    {t('retry')}
                  </Button>
                </Alert>
              )}
              {!list.isLoading && !list.isError && rows.length === 0 && (
                <Text size="sm" c="dimmed">
                  {search ? t('list.noMatch') : archived ? t('list.noArchived') : t('list.empty')}
                </Text>
              )}
              <Stack gap={2} component="nav" aria-label={t('list.label')}>
                {rows.map((c) => (
                  <ConversationRow key={c.id} c={c} active={c.id === openId} onOpen={() => open(c.id)} />
                ))}
              </Stack>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <Paper withBorder p="md" radius="md" mih={320}>
            {openId ? (
              <Stack gap="xs">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  hiddenFrom="md"
                  onClick={() => open(null)}
                  w="fit-content"
                >
                  {t('back')}
                </Button>
                <ConversationView
                  key={openId}
                  conversationId={openId}
                  me={me}
                  onOpenThread={(id) => openThread(id)}
                  onLeft={() => open(null)}
                />
              </Stack>
            ) : (
              <Text c="dimmed" size="sm">
                {t('pick')}
              </Text>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
      {openConversation && (
        <ThreadDrawer
          conversation={openConversation}
          messageId={threadId}
          me={me}
          onClose={() => openThread(null)}
        />
      )}
      {programId !== null && (
        <NewConversationModal
          opened={creating}
          programId={programId}
          me={me}
          onClose={() => setCreating(false)}
          onDone={(id) => {
            setCreating(false);
            void queryClient.invalidateQueries({ queryKey: MESSENGER_KEY });
            open(id);
          }}
        />
      )}
      {programId !== null && settings && (
        <SettingsModal programId={programId} onClose={() => setSettings(false)} />
      )}
    </Stack>
  );
}
