import { CARE_ROLES, contentContract } from '@caredeck/contracts';
import { Anchor, Badge, Button, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconExternalLink, IconFolderPlus, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useMayCall } from '../../../app/auth/allowed';
import { hasAnyRole } from '../../../app/auth/roles';
import { Loaded } from '../../../shared/ui/Loaded';
import { MessageText } from '../../../shared/ui/messageText';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useCurrentUser } from '../../identity/api';
import { TagsPanel } from '../../tags/components/TagsPanel';
import { useActiveScope } from '../../tenancy/scope';
import { CONTENT_KEY, useCategories, useFolders } from '../api';
import { ContentDialogs, type Dialog } from '../components/ContentDialogs';
import '../i18n';

const TABS = ['library', 'templates', 'tags'] as const;

/**
 * /content: the program's content library (categories of material the care team shares) and the signed-in
 * person's own folders of text-message templates, used from a patient's Messages tab; and the program's tags.
 */
export function ContentPage() {
  const { t, i18n } = useTranslation('content');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((x) => x === params.get('tab')) ?? 'library';
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const user = useCurrentUser();
  const canEdit = Boolean(user && scope && hasAnyRole(user, CARE_ROLES, scope));
  const queryClient = useQueryClient();
  const reload = () => void queryClient.invalidateQueries({ queryKey: CONTENT_KEY });
  const close = () => {
    setDialog(null);
    reload();
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {i18n.t('nav.content')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('scope', { name: scope?.program?.name ?? '' })}
        </Text>
      </div>
      <Tabs
        value={tab}
        onChange={(value) => {
          const next = new URLSearchParams(params);
          next.set('tab', value ?? 'library');
          setParams(next);
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="library">{t('library.tab')}</Tabs.Tab>
          <Tabs.Tab value="templates">{t('templates.tab')}</Tabs.Tab>
          <Tabs.Tab value="tags">{t('tagsTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="library" pt="md">
          {programId > 0 && <Library programId={programId} open={setDialog} />}
        </Tabs.Panel>
        <Tabs.Panel value="templates" pt="md">
          {programId > 0 && <Templates programId={programId} open={setDialog} />}
        </Tabs.Panel>
        <Tabs.Panel value="tags" pt="md">
          {programId > 0 && <TagsPanel programId={programId} canEdit={canEdit} />}
        </Tabs.Panel>
      </Tabs>
      {dialog && <ContentDialogs dialog={dialog} programId={programId} close={close} />}
    </Stack>
  );
}

function Library({ programId, open }: { programId: number; open: (d: Dialog) => void }) {
  const { t, i18n } = useTranslation('content');
  // The library is read-only for the roles that may not add to it (ADR 033, ADR 065).
  const scope = useActiveScope();
  const mayAddCategory = useMayCall(contentContract.createCategory, scope);
  const mayAddContent = useMayCall(contentContract.createContent, scope);
  const mayChangeCategory = useMayCall(contentContract.updateCategory, scope);
  const categories = useCategories(programId);
  const [search, setSearch] = useState('');
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const needle = search.trim().toLowerCase();
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <SearchBox label={t('library.search')} value={search} onSearch={setSearch} />
        {mayAddCategory ? (
          <Button leftSection={<IconPlus size={16} />} onClick={() => open({ kind: 'category' })}>
            {t('library.newCategory')}
          </Button>
        ) : null}
      </Group>
      <Loaded
        query={categories}
        texts={{ loading: t('loading'), error: t('backendError'), retry: t('retry') }}
      >
        {(res) =>
          res.data.length === 0 ? (
            <Text c="dimmed">{t('library.empty')}</Text>
          ) : (
            res.data.map((category) => {
              const items = needle
                ? category.contents.filter((c) => `${c.title}\n${c.body}`.toLowerCase().includes(needle))
                : category.contents;
              if (needle && items.length === 0) return null;
              return (
                <Paper
                  key={category.id}
                  withBorder
                  radius="md"
                  p="md"
                  component="section"
                  aria-labelledby={`category-${category.id}`}
                >
                  <Group justify="space-between" mb="xs">
                    <Title order={2} fz="h4" id={`category-${category.id}`}>
                      {category.name}{' '}
                      <Text span c="dimmed" size="sm">
                        {t('library.count', { count: category.contents.length })}
                      </Text>
                    </Title>
                    <Group gap={4}>
                      {mayAddContent ? (
                        <Button
                          size="xs"
                          variant="light"
                          leftSection={<IconPlus size={14} />}
                          onClick={() => open({ kind: 'content', category })}
                        >
                          {t('library.addContent')}
                        </Button>
                      ) : null}
                      {mayChangeCategory ? (
                        <>
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => open({ kind: 'renameCategory', category })}
                          >
                            {t('library.rename')}
                          </Button>
                          <Button
                            size="xs"
                            variant="light"
                            color="danger"
                            onClick={() => open({ kind: 'deleteCategory', category })}
                          >
                            {t('delete')}
                          </Button>
                        </>
                      ) : null}
                    </Group>
                  </Group>
                  {items.length === 0 ? (
                    <Text c="dimmed" size="sm">
                      {t('library.categoryEmpty')}
                    </Text>
                  ) : (
                    <Stack gap="sm">
                      {items.map((item) => (
                        <div key={item.id} data-content-id={item.id}>
                          <Group gap="xs">
                            <Text fw={600}>{item.title}</Text>
                            {item.url && (
                              <Anchor href={item.url} target="_blank" rel="noopener noreferrer" size="sm">
                                <Group gap={2} component="span">
                                  {t('library.open')}
                                  <IconExternalLink size={14} aria-hidden />
                                </Group>
                              </Anchor>
                            )}
                          </Group>
                          {item.body && <MessageText>{item.body}</MessageText>}
                          <Text size="xs" c="dimmed">
                            {t('library.added', {
                              name: item.created_by?.name ?? t('someone'),
                              date: date.format(new Date(item.created_at)),
                            })}
                          </Text>
                        </div>
                      ))}
                    </Stack>
                  )}
                </Paper>
              );
            })
          )
        }
      </Loaded>
    </Stack>
  );
}

function Templates({ programId, open }: { programId: number; open: (d: Dialog) => void }) {
  const { t } = useTranslation('content');
  const folders = useFolders(programId);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {t('templates.intro')}
        </Text>
        <Button leftSection={<IconFolderPlus size={16} />} onClick={() => open({ kind: 'folder' })}>
          {t('templates.newFolder')}
        </Button>
      </Group>
      <Loaded query={folders} texts={{ loading: t('loading'), error: t('backendError'), retry: t('retry') }}>
        {(res) =>
          res.data.length === 0 ? (
            <Text c="dimmed">{t('templates.empty')}</Text>
          ) : (
            res.data.map((folder) => (
              <Paper
                key={folder.id}
                withBorder
                radius="md"
                p="md"
                component="section"
                aria-labelledby={`folder-${folder.id}`}
              >
                <Group justify="space-between" mb="xs" wrap="wrap">
                  <Title order={2} fz="h4" id={`folder-${folder.id}`}>
                    {folder.name}
                  </Title>
                  <Group gap={4}>
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconPlus size={14} />}
                      onClick={() => open({ kind: 'template', folder, template: null })}
                    >
                      {t('templates.new')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => open({ kind: 'renameFolder', folder })}
                    >
                      {t('templates.rename')}
                    </Button>
                    <Button
                      size="xs"
                      variant="light"
                      color="danger"
                      onClick={() => open({ kind: 'deleteFolder', folder })}
                    >
                      {t('delete')}
                    </Button>
                  </Group>
                </Group>
                {folder.text_messages.length === 0 ? (
                  <Text c="dimmed" size="sm">
                    {t('templates.folderEmpty')}
                  </Text>
                ) : (
                  <Stack gap="sm">
                    {folder.text_messages.map((template) => (
                      <Group
                        key={template.id}
                        justify="space-between"
                        align="flex-start"
                        wrap="nowrap"
                        data-template-id={template.id}
                      >
                        <div style={{ minWidth: 0 }}>
                          <Group gap="xs">
                            <Text fw={600}>{template.name}</Text>
                            {template.question && (
                              <Badge size="xs" variant="outline" color="violet.9">
                                {t('templates.questionBadge')}
                              </Badge>
                            )}
                          </Group>
                          <MessageText>{template.body}</MessageText>
                        </div>
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => open({ kind: 'template', folder, template })}
                          >
                            {t('templates.editShort')}
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="danger"
                            onClick={() => open({ kind: 'deleteTemplate', template })}
                          >
                            {t('delete')}
                          </Button>
                        </Group>
                      </Group>
                    ))}
                  </Stack>
                )}
              </Paper>
            ))
          )
        }
      </Loaded>
    </Stack>
  );
}
