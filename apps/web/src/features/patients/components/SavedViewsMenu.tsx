import { memoryContract } from '@caredeck/contracts';
import { Button, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../../shared/api-client';
import type { DeferredProps } from '../../../shared/ui/deferred';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { SavedViewsButton } from './SavedViews';

export type SavedView = { name: string; query: string };
const MAX_VIEWS = 20;
/** Where the user is in the list is not part of a view: it opens on its first page. */
const POSITION_KEYS = ['page', 'after', 'before'];

function viewsOf(settings: Record<string, unknown> | undefined): SavedView[] {
  const views = settings?.views;
  return Array.isArray(views)
    ? views.filter((v): v is SavedView => typeof v?.name === 'string' && typeof v?.query === 'string')
    : [];
}

/** The saved views' menu and naming dialog (SavedViews draws its button until this has loaded). */
export function SavedViewsMenu({ programId, opening, focused }: { programId: number } & DeferredProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const key = ['memory', 'patients', programId];
  const memory = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.call(
        memoryContract.get,
        { query: { module_name: 'patients', program_id: String(programId) } },
        { signal },
      ),
  });
  const views = viewsOf(memory.data?.data?.default_settings);
  const store = useMutation({
    mutationFn: (next: SavedView[]) =>
      api.call(memoryContract.save, {
        body: { module_name: 'patients', program_id: programId, default_settings: { views: next } },
      }),
    onSuccess: (result) => client.setQueryData(key, { data: result.data }),
  });

  const current = () => {
    const query = new URLSearchParams(params);
    for (const k of POSITION_KEYS) query.delete(k);
    return query.toString();
  };
  const save = () => {
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('patients.views.nameRequired'));
      return;
    }
    const next = [...views.filter((v) => v.name !== trimmed), { name: trimmed, query: current() }].slice(
      -MAX_VIEWS,
    );
    store.mutate(next, {
      onSuccess: () => {
        toast.success(t('patients.views.saved'));
        setNaming(false);
        setName('');
      },
      onError: (err) => toastErrors(err),
    });
  };
  const remove = (view: SavedView) =>
    store.mutate(
      views.filter((v) => v.name !== view.name),
      { onSuccess: () => toast.success(t('patients.views.deleted')), onError: (err) => toastErrors(err) },
    );

  return (
    <>
      <Menu position="bottom-start" withinPortal defaultOpened={opening}>
        <Menu.Target>
          <SavedViewsButton autoFocus={focused} />
        </Menu.Target>
        <Menu.Dropdown>
          {views.length === 0 ? (
            <Text size="sm" c="dimmed" px="sm" py={6}>
              {t('patients.views.none')}
            </Text>
          ) : (
            views.map((v) => (
              <Menu.Item key={v.name} onClick={() => navigate(`/patients${v.query ? `?${v.query}` : ''}`)}>
                {v.name}
              </Menu.Item>
            ))
          )}
          <Menu.Divider />
          <Menu.Item onClick={() => setNaming(true)}>{t('patients.views.save')}</Menu.Item>
          {views.length > 0 && <Menu.Divider />}
          {views.map((v) => (
            <Menu.Item
              key={`delete-${v.name}`}
              color="danger"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => remove(v)}
            >
              {t('patients.views.delete', { name: v.name })}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={naming} onClose={() => setNaming(false)} title={t('patients.views.save')}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <Stack>
            <TextInput
              label={t('patients.views.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              maxLength={60}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button type="submit" loading={store.isPending}>
                {t('patients.views.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
