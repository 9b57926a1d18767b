import { type MessengerNotification, notificationsContract as n } from '@caredeck/contracts';
import {
  Button,
  Group,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../shared/api-client';
import type { DeferredProps } from '../../../shared/ui/deferred';
import { toastErrors } from '../../../shared/ui/toasts';
import { BELL_KEY, BellButton, useBell } from './NotificationBell';

const TEXTS = {
  mention: 'shell.messengerNotice.mention',
  urgent: 'shell.messengerNotice.urgent',
  added: 'shell.messengerNotice.added',
} as const;

/** The bell's list of notifications (NotificationBell draws the bell alone until this has loaded). */
export function NotificationBellPopover({
  programId,
  opening,
  focused,
}: { programId: number } & DeferredProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const bell = useBell(programId);
  const [opened, setOpened] = useState(opening);
  const params = { programId: String(programId) };
  const unread = bell.data?.unread ?? 0;
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const markRead = async (ids: number[]) => {
    if (ids.length === 0) return;
    try {
      await api.call(n.readAt, { params, query: { notification_ids: ids.join(',') } });
    } catch (error) {
      toastErrors(error);
    } finally {
      void queryClient.invalidateQueries({ queryKey: BELL_KEY });
    }
  };
  const open = (item: MessengerNotification) => {
    setOpened(false);
    if (!item.read) void markRead([item.id]);
    navigate(`/messenger?c=${item.conversation_id}`);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" withinPortal>
      <Popover.Target>
        <BellButton
          autoFocus={focused}
          unread={unread}
          onClick={() => {
            // Opening it shows the current state (a conversation read elsewhere reads its notifications).
            if (!opened) void bell.refetch();
            setOpened(!opened);
          }}
        />
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Group justify="space-between" px="sm" py="xs">
          <Text fw={600} size="sm">
            {t('shell.bell.title')}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={unread === 0}
            onClick={() => void markRead((bell.data?.data ?? []).filter((x) => !x.read).map((x) => x.id))}
          >
            {t('shell.bell.markAll')}
          </Button>
        </Group>
        {bell.isError && !bell.data ? (
          <Text size="sm" c="red.9" px="sm" pb="sm">
            {t('shell.bell.loadError')}
          </Text>
        ) : !bell.data ? (
          <Loader size="sm" m="sm" aria-label={t('shell.bell.title')} />
        ) : bell.data.data.length === 0 ? (
          <Text size="sm" c="dimmed" px="sm" pb="sm">
            {t('shell.bell.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={420}>
            <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {bell.data.data.map((item) => (
                <li key={item.id}>
                  <UnstyledButton
                    onClick={() => open(item)}
                    px="sm"
                    py={6}
                    w="100%"
                    style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                    data-notification-id={item.id}
                  >
                    <Text size="sm" fw={item.read ? 400 : 700}>
                      {!item.read && <VisuallyHidden>{`${t('shell.bell.unread')}: `}</VisuallyHidden>}
                      {t(TEXTS[item.kind], { from: item.from_name, conversation: item.conversation_name })}
                    </Text>
                    {item.preview && (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {item.preview}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {time.format(new Date(item.created_at))}
                    </Text>
                  </UnstyledButton>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
