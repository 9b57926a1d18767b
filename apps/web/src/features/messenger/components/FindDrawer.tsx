import type { Conversation } from '@caredeck/contracts';
import { messengerContract as c } from '@caredeck/contracts';
import { Anchor, Drawer, Group, Loader, Stack, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api-client';
import { MessageText, MessageTime } from '../../../shared/ui/messageText';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { MESSENGER_KEY } from '../api';
import { FileLink } from './FileLink';
import '../i18n';

type Props = {
  conversation: Conversation;
  opened: boolean;
  onClose: () => void;
  onOpenThread: (id: number) => void;
};

/** Finds messages of a conversation by text, and lists the files shared in it (those the user may see). */
export function FindDrawer({ conversation, opened, onClose, onOpenThread }: Props) {
  const { t, i18n } = useTranslation('messenger');
  const [query, setQuery] = useState('');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const id = String(conversation.id);
  const found = useQuery({
    queryKey: [...MESSENGER_KEY, 'search', conversation.id, query],
    queryFn: ({ signal }) => api.call(c.search, { params: { id }, query: { query } }, { signal }),
    enabled: opened && query.trim().length > 0,
    placeholderData: keepPreviousData,
  });
  const files = useQuery({
    queryKey: [...MESSENGER_KEY, 'files', conversation.id],
    queryFn: ({ signal }) => api.call(c.files, { params: { id } }, { signal }),
    enabled: opened,
  });

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="md" title={t('find.title')}>
      <Tabs defaultValue="search">
        <Tabs.List>
          <Tabs.Tab value="search">{t('find.search')}</Tabs.Tab>
          <Tabs.Tab value="files">{t('find.files')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="search" pt="sm">
          <Stack gap="xs">
            <SearchBox value={query} onSearch={setQuery} label={t('find.search')} />
            {found.isFetching && <Loader size="xs" aria-label={t('loading')} />}
            {query && found.data?.data.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('find.nothing')}
              </Text>
            )}
            {found.data?.data.map((m) => (
              <Stack key={m.id} gap={2}>
                <Group justify="space-between">
                  <Text size="xs" fw={600}>
                    {m.sender.name}
                  </Text>
                  <MessageTime at={m.created_at} format={time} />
                </Group>
                <MessageText>{m.body}</MessageText>
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  w="fit-content"
                  onClick={() => onOpenThread(m.parent_id ?? m.id)}
                >
                  {t('find.open')}
                </Anchor>
              </Stack>
            ))}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="files" pt="sm">
          <Stack gap="xs">
            {files.data?.data.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('find.noFiles')}
              </Text>
            )}
            {files.data?.data.map((f) => (
              <Group key={f.id} justify="space-between" wrap="nowrap">
                <FileLink conversationId={conversation.id} file={f} />
                <MessageTime at={f.created_at} format={time} />
              </Group>
            ))}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Drawer>
  );
}
