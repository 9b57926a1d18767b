import type { Tag, TagFolder } from '@caredeck/contracts';
import {
  ActionIcon,
  Badge,
  Button,
  ColorInput,
  ColorSwatch,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconFolderPlus, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { Loaded } from '../../../shared/ui/Loaded';
import { ConfirmModal, NameModal } from '../../../shared/ui/NameModal';
import { toast } from '../../../shared/ui/toasts';
import { TAGS_KEY, tagCalls, useTagFolders, useTags } from '../api';
import '../i18n';

type Dialog =
  | { kind: 'tag'; tag: Tag | null }
  | { kind: 'folder'; folder: TagFolder | null }
  | { kind: 'deleteFolder'; folder: TagFolder };

/** Colours a tag can take at one click (any #rrggbb can be typed); each keeps dark text readable beside it. */
const TAG_SWATCHES = ['#e03131', '#f08c00', '#2f9e44', '#1971c2', '#7048e8', '#c2255c', '#0c8599', '#495057'];

/** A program's tags, grouped by folder: create, rename, move between folders; folders created, renamed, deleted. */
export function TagsPanel({ programId, canEdit }: { programId: number; canEdit: boolean }) {
  const { t } = useTranslation('tags');
  const tags = useTags(programId);
  const folders = useTagFolders(programId);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const queryClient = useQueryClient();
  const close = () => {
    setDialog(null);
    void queryClient.invalidateQueries({ queryKey: TAGS_KEY });
  };
  const folderList = folders.data?.data ?? [];
  const texts = { loading: t('loading'), error: t('loadError'), retry: t('retry') };
  return (
    <Stack gap="md">
      {canEdit && (
        <Group>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'tag', tag: null })}>
            {t('newTag')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconFolderPlus size={16} />}
            onClick={() => setDialog({ kind: 'folder', folder: null })}
          >
            {t('newFolder')}
          </Button>
        </Group>
      )}
      <Loaded query={tags} texts={texts}>
        {({ data }) => {
          const groups = [
            ...folderList.map((f) => ({
              folder: f as TagFolder | null,
              tags: data.filter((x) => x.folder_id === f.id),
            })),
            { folder: null, tags: data.filter((x) => x.folder_id === null) },
          ].filter((g) => g.folder !== null || g.tags.length > 0);
          return groups.length === 0 ? (
            <Text c="dimmed">{t('empty')}</Text>
          ) : (
            <Stack gap="sm">
              {groups.map((g) => (
                <Paper key={g.folder?.id ?? 'none'} withBorder radius="md" p="sm" data-testid="tag-folder">
                  <Group justify="space-between">
                    <Title order={3} fz="h5">
                      {g.folder?.name ?? t('noFolder')}
                    </Title>
                    {canEdit && g.folder && (
                      <Group gap={4}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={t('renameFolder', { name: g.folder.name })}
                          onClick={() => setDialog({ kind: 'folder', folder: g.folder })}
                        >
                          <IconPencil size={14} />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('deleteFolder', { name: g.folder.name })}
                          onClick={() => setDialog({ kind: 'deleteFolder', folder: g.folder! })}
                        >
                          <IconTrash size={14} />
                        </ActionIcon>
                      </Group>
                    )}
                  </Group>
                  {g.tags.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      {t('folderEmpty')}
                    </Text>
                  ) : (
                    <Table verticalSpacing={4}>
                      <Table.Tbody>
                        {g.tags.map((tag) => (
                          <Table.Tr key={tag.id} data-testid="tag-row">
                            <Table.Td>
                              <Badge
                                variant="light"
                                style={{ color: 'var(--mantine-color-text)' }}
                                leftSection={
                                  tag.color ? <ColorSwatch color={tag.color} size={10} /> : undefined
                                }
                              >
                                {tag.name}
                              </Badge>
                            </Table.Td>
                            <Table.Td>{t('patients', { count: tag.patients })}</Table.Td>
                            <Table.Td w={50}>
                              {canEdit && (
                                <ActionIcon
                                  variant="subtle"
                                  color="gray"
                                  aria-label={t('editTag', { name: tag.name })}
                                  onClick={() => setDialog({ kind: 'tag', tag })}
                                >
                                  <IconPencil size={14} />
                                </ActionIcon>
                              )}
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  )}
                </Paper>
              ))}
            </Stack>
          );
        }}
      </Loaded>
      {dialog?.kind === 'tag' && (
        <TagModal programId={programId} tag={dialog.tag} folders={folderList} onClose={close} />
      )}
      {dialog?.kind === 'folder' && (
        <NameModal
          title={dialog.folder ? t('renameFolderTitle') : t('newFolder')}
          label={t('folderName')}
          initial={dialog.folder?.name ?? ''}
          onClose={close}
          onSave={(name) =>
            dialog.folder
              ? tagCalls.renameFolder(dialog.folder.id, name)
              : tagCalls.createFolder(programId, name)
          }
        />
      )}
      {dialog?.kind === 'deleteFolder' && (
        <ConfirmModal
          title={t('deleteFolderTitle', { name: dialog.folder.name })}
          body={t('deleteFolderBody')}
          confirm={t('deleteFolderConfirm')}
          onClose={close}
          onConfirm={() => tagCalls.deleteFolder(dialog.folder.id)}
        />
      )}
    </Stack>
  );
}

function TagModal({
  programId,
  tag,
  folders,
  onClose,
}: {
  programId: number;
  tag: Tag | null;
  folders: TagFolder[];
  onClose: () => void;
}) {
  const { t } = useTranslation('tags');
  const [name, setName] = useState(tag?.name ?? '');
  const [folder, setFolder] = useState<string>(tag?.folder_id ? String(tag.folder_id) : '');
  const [color, setColor] = useState(tag?.color ?? '');
  const [colorError, setColorError] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  return (
    <Modal opened onClose={onClose} title={tag ? t('editTagTitle') : t('newTag')}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const folderId = folder ? Number(folder) : null;
          const chosenColor = color.trim() ? color.trim().toLowerCase() : null;
          setError(undefined);
          setColorError(undefined);
          try {
            const res = tag
              ? await tagCalls.update(tag.id, { name, folder_id: folderId, color: chosenColor })
              : await tagCalls.create(programId, name, folderId, chosenColor);
            toast.success(res.message);
            onClose();
          } catch (err) {
            const fields = firstFieldErrors(err);
            if (fields) {
              setError(fields.name ?? fields.folder_id);
              setColorError(fields.color);
            } else toast.error(t('backendError'));
          }
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('tagName')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            required
            data-autofocus
          />
          <Select
            label={t('folder')}
            data={[
              { value: '', label: t('noFolder') },
              ...folders.map((f) => ({ value: String(f.id), label: f.name })),
            ]}
            value={folder}
            onChange={(v) => setFolder(v ?? '')}
            allowDeselect={false}
          />
          <ColorInput
            label={t('colour')}
            description={t('colourHint')}
            placeholder={t('noColour')}
            format="hex"
            swatches={TAG_SWATCHES}
            swatchesPerRow={8}
            value={color}
            onChange={setColor}
            error={colorError}
            data-testid="tag-colour"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit">{t('save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
