import { notificationsContract as n } from '@caredeck/contracts';
import { ActionIcon, type ActionIconProps, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ComponentPropsWithRef, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LIVE_CONNECTED_EVENT,
  MESSENGER_NOTIFICATION_EVENT,
  onLiveEvent,
  reloadLive,
} from '../../../app/realtime';
import { api } from '../../../shared/api-client';
import { deferredControl, type PlaceholderProps } from '../../../shared/ui/deferred';

export const BELL_KEY = ['messenger', 'bell'] as const;

/** One's notifications in the program and their unread count, kept live. */
export function useBell(programId: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const reload = () => void reloadLive(queryClient, { queryKey: BELL_KEY });
    // A mention made while the live connection was not (yet) up counts as soon as it is.
    const stops = [
      onLiveEvent(MESSENGER_NOTIFICATION_EVENT, reload),
      onLiveEvent(LIVE_CONNECTED_EVENT, reload),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, [queryClient]);
  return useQuery({
    queryKey: [...BELL_KEY, programId],
    queryFn: ({ signal }) => api.call(n.staff, { params: { programId: String(programId) } }, { signal }),
    retry: 1,
    refetchInterval: 5 * 60_000,
  });
}

/** The bell with its unread count. */
export function BellButton({
  unread,
  ...props
}: { unread: number } & ActionIconProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <ActionIcon
      variant="subtle"
      aria-label={unread > 0 ? t('shell.bell.labelUnread', { count: unread }) : t('shell.bell.label')}
      {...props}
    >
      <Indicator
        label={unread > 99 ? '99+' : unread}
        size={16}
        offset={-2}
        color="red.9"
        disabled={unread === 0}
        aria-hidden
      >
        <IconBell size={18} />
      </Indicator>
    </ActionIcon>
  );
}

/** Until the list's code has loaded: the bell and its count, live; a click opens the list once it is there. */
function BellPlaceholder({ programId, onOpen, onFocus, onBlur }: { programId: number } & PlaceholderProps) {
  const bell = useBell(programId);
  return (
    <BellButton
      unread={bell.data?.unread ?? 0}
      onClick={() => {
        void bell.refetch();
        onOpen();
      }}
      onMouseDown={onOpen}
      onFocus={onFocus}
      onBlur={onBlur}
    />
  );
}

/**
 * The staff notification bell in the header: the unread count of one's notifications in the active program,
 * live; opening it lists them (newest first); choosing one marks it read and opens its conversation.
 * Texts are the shell's, so the messenger's bundle is not loaded for it. The list loads after the first screen.
 */
export const NotificationBell = deferredControl<{ programId: number }>(
  () => import('./NotificationBellPopover').then((m) => m.NotificationBellPopover),
  BellPlaceholder,
);
