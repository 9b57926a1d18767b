import type { Conversation, MessengerMessage } from '@caredeck/contracts';
import {
  Alert,
  Avatar,
  Button,
  Group,
  Loader,
  Menu,
  Modal,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconDots } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { toast } from '../../../shared/ui/toasts';
import { MESSENGER_KEY, type MessengerStep, MUTE_CHOICES, messenger, useConversation } from '../api';
import { Composer } from './Composer';
import { FindDrawer } from './FindDrawer';
import { GuestsModal } from './GuestsModal';
import { MessageItem } from './MessageItem';
import { NewConversationModal } from './NewConversationModal';
import '../i18n';

type Props = {
  conversationId: number;
  me: number;
  onOpenThread: (messageId: number) => void;
  onLeft: () => void;
};

/** One conversation: header with its actions, urgent banner until acknowledged, messages, composer. */
export function ConversationView({ conversationId, me, onOpenThread, onLeft }: Props) {
  const { t } = useTranslation('messenger');
  const queryClient = useQueryClient();
  const query = useConversation(conversationId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [guests, setGuests] = useState(false);
  const [finding, setFinding] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: MESSENGER_KEY });
  // Older history, loaded on demand above the latest page (which live updates refetch).
  const [older, setOlder] = useState<{ messages: MessengerMessage[]; hasMore: boolean; boundary: number }>({
    messages: [],
    hasMore: false,
    boundary: 0,
  });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const latest = query.data?.messages ?? [];
  const messages = older.messages.length > 0 ? [...older.messages, ...latest] : latest;
  const lastId = messages.at(-1)?.id ?? 0;
  const firstLatest = latest[0]?.id ?? 0;

  // Another conversation, or so many new messages that the latest page no longer meets the older ones:
  // start again from the latest page rather than show a gap.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the conversation changes
  useEffect(() => setOlder({ messages: [], hasMore: false, boundary: 0 }), [conversationId]);
  useEffect(() => {
    if (older.boundary && firstLatest > older.boundary && query.data?.has_more)
      setOlder({ messages: [], hasMore: false, boundary: 0 });
  }, [firstLatest, older.boundary, query.data?.has_more]);

  const loadOlder = async () => {
    const first = messages[0]?.id;
    if (!first || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const res = await messenger.older(conversationId, first);
      setOlder((o) => ({
        messages: [...res.messages, ...o.messages],
        hasMore: res.has_more,
        boundary: o.boundary || firstLatest,
      }));
    } catch {
      toast.error(t('errors.older'));
    } finally {
      setLoadingOlder(false);
    }
  };
  const hasOlder = older.messages.length > 0 ? older.hasMore : (query.data?.has_more ?? false);

  useEffect(() => {
    if (lastId) bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [lastId]);

  if (query.isLoading) return <Loader size="sm" aria-label={t('loading')} />;
  if (query.isError || !query.data)
    return (
      <Alert color="red" title={t('errors.conversation')}>
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  const c: Conversation = query.data.data;
  const owner = c.chat_role === 'owner';
  const names = new Map(c.users.map((u) => [u.id, u.name]));
  const urgent = messages.filter(
    (m) => m.urgent && m.acknowledged_by.length === 0 && !(m.sender.kind === 'staff' && m.sender.id === me),
  );

  const run = async (action: MessengerStep<{ message: string }>) => {
    try {
      const res = await action();
      toast.success(res.message);
      reload();
    } catch (err) {
      toast.error(isApiError(err) && err.status !== 500 ? err.message : t('errors.action'));
    }
  };

  return (
    <Stack gap="sm" h="100%">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Title order={2} fz="h3">
            {c.name}
          </Title>
          <Tooltip label={c.users.map((u) => u.name).join(', ')} multiline maw={320}>
            <Avatar.Group spacing="xs">
              {c.users.slice(0, 6).map((u) => (
                <Avatar key={u.id} size="sm" name={u.name} color="primary" variant="filled" />
              ))}
            </Avatar.Group>
          </Tooltip>
        </div>
        <Menu position="bottom-end">
          <Menu.Target>
            <Button variant="default" size="xs" rightSection={<IconDots size={14} />}>
              {t('actions.label')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              onClick={() => void run(() => messenger.settings(c.id, me, { is_pinned: !c.is_pinned }))}
            >
              {c.is_pinned ? t('actions.unpin') : t('actions.pin')}
            </Menu.Item>
            <Menu.Item
              onClick={() => void run(() => messenger.settings(c.id, me, { is_archived: !c.is_archived }))}
            >
              {c.is_archived ? t('actions.unarchive') : t('actions.archive')}
            </Menu.Item>
            <Menu.Item onClick={() => void run(() => messenger.unread(c.id))}>
              {t('actions.markUnread')}
            </Menu.Item>
            <Menu.Item onClick={() => setFinding(true)}>{t('actions.find')}</Menu.Item>
            <Menu.Divider />
            <Menu.Label>{t('actions.mute')}</Menu.Label>
            {c.muted ? (
              <Menu.Item onClick={() => void run(() => messenger.mute(c.id, me, 0))}>
                {t('actions.unmute')}
              </Menu.Item>
            ) : (
              MUTE_CHOICES.map((m) => (
                <Menu.Item
                  key={m.minutes}
                  onClick={() => void run(() => messenger.mute(c.id, me, m.minutes))}
                >
                  {t(m.label)}
                </Menu.Item>
              ))
            )}
            <Menu.Divider />
            <Menu.Item onClick={() => setAdding(true)}>{t('actions.addPeople')}</Menu.Item>
            <Menu.Item onClick={() => setGuests(true)}>{t('actions.guests')}</Menu.Item>
            {owner && <Menu.Item onClick={() => setRenaming(c.name)}>{t('actions.rename')}</Menu.Item>}
            <Menu.Item color="red" onClick={() => setLeaving(true)}>
              {t('actions.leave')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>

      {urgent.length > 0 && (
        <Alert color="red" icon={<IconAlertTriangle />} title={t('urgentBanner.title')} role="alert">
          <Stack gap="xs">
            {urgent.map((m) => (
              <Group key={m.id} justify="space-between" wrap="nowrap">
                <Text size="sm" lineClamp={2}>
                  {t('urgentBanner.from', { name: m.sender.name, text: m.body })}
                </Text>
                <Button
                  size="compact-sm"
                  color="red"
                  onClick={() => void run(() => messenger.acknowledge(c.id, me, m.parent_id ?? m.id))}
                >
                  {t('urgentBanner.acknowledge')}
                </Button>
              </Group>
            ))}
          </Stack>
        </Alert>
      )}

      <ScrollArea.Autosize mah="calc(100dvh - 22rem)" type="auto" offsetScrollbars>
        <Stack gap="xs" aria-live="polite" aria-label={t('messagesLabel')} role="log">
          {hasOlder && (
            <Button
              size="xs"
              variant="subtle"
              w="fit-content"
              mx="auto"
              loading={loadingOlder}
              onClick={() => void loadOlder()}
            >
              {t('older')}
            </Button>
          )}
          {messages.length === 0 && (
            <Text c="dimmed" size="sm">
              {t('emptyConversation')}
            </Text>
          )}
          {messages.map((m) => (
            <MessageItem
              key={m.id}
              message={m}
              me={me}
              names={names}
              onReply={onOpenThread}
              onChanged={reload}
            />
          ))}
          <div ref={bottom} />
        </Stack>
      </ScrollArea.Autosize>

      <Composer conversation={c} me={me} onSent={reload} />

      <Modal opened={renaming !== null} onClose={() => setRenaming(null)} title={t('actions.rename')}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => messenger.rename(c.id, renaming ?? '')).then(() => setRenaming(null));
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('new.name')}
              data-autofocus
              value={renaming ?? ''}
              maxLength={120}
              onChange={(e) => setRenaming(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button type="submit" disabled={!renaming?.trim()}>
                {t('save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal opened={leaving} onClose={() => setLeaving(false)} title={t('leave.title', { name: c.name })}>
        <Stack gap="sm">
          <Text size="sm">{t('leave.body')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setLeaving(false)}>
              {t('cancel')}
            </Button>
            <Button
              color="red"
              onClick={() =>
                void run(async () => {
                  const res = await messenger.leave(c.id, me);
                  setLeaving(false);
                  onLeft();
                  return res;
                })
              }
            >
              {t('actions.leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <FindDrawer
        conversation={c}
        opened={finding}
        onClose={() => setFinding(false)}
        onOpenThread={(id) => {
          setFinding(false);
          onOpenThread(id);
        }}
      />

      <GuestsModal
        opened={guests}
        conversationId={c.id}
        programId={c.program_id}
        onClose={() => setGuests(false)}
      />

      <NewConversationModal
        opened={adding}
        programId={c.program_id}
        me={me}
        addTo={{ id: c.id, members: c.users.map((u) => u.id) }}
        onClose={() => setAdding(false)}
        onDone={() => {
          setAdding(false);
          reload();
        }}
      />
    </Stack>
  );
}
