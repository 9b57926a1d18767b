import { groupsContract } from '@caredeck/contracts';
import { US_DATE_PATTERN } from '@caredeck/domain';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMayCall } from '../../../app/auth/allowed';
import { dateOrNotProvided } from '../../../shared/ui/notProvided';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { TextAreaField } from '../../../shared/ui/TextAreaField';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { useCohorts, useCreateCohort } from '../api';
import '../i18n';

/** /groups: the program's cohorts, searchable, with their patient counts (01 §7 Cohorts, 02 §7 Groups). */
export function CohortsPage() {
  const { t } = useTranslation('cohorts');
  const common = useTranslation().t;
  const scope = useActiveScope();
  const zone = useCurrentUser()?.tz ?? null;
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const keyword = searchParams.get('keyword') ?? '';
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const programId = scope?.programId ?? 0;
  // Offered to the roles that may create one (ADR 065).
  const mayCreate = useMayCall(groupsContract.create, scope);
  const list = useCohorts(programId, { page, keyword });
  const [creating, setCreating] = useState(false);

  const setParam = (changes: Record<string, string>) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes))
        if (value) next.set(key, value);
        else next.delete(key);
      return next;
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          {t('title')}
        </Title>
        <Group gap="xs" align="flex-end">
          <SearchBox
            label={t('search')}
            value={keyword}
            onSearch={(value) => setParam({ keyword: value, page: '' })}
            w={280}
          />
          {mayCreate ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              {t('actions.create')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Paper withBorder radius="md" p="md">
        {list.isPending ? (
          <Center py="xl">
            <Loader aria-label={common('common.loading')} />
          </Center>
        ) : list.isError ? (
          <Alert color="danger" icon={<IconAlertTriangle size={18} />} title={t('loadError')} role="alert">
            <Button size="xs" variant="light" color="danger" onClick={() => void list.refetch()}>
              {common('common.retry')}
            </Button>
          </Alert>
        ) : list.data.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl" data-testid="cohorts-empty">
            {keyword ? t('emptySearch', { search: keyword }) : t('empty')}
          </Text>
        ) : (
          <Stack>
            <Table.ScrollContainer minWidth={560}>
              <Table highlightOnHover aria-label={t('title')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('columns.name')}</Table.Th>
                    <Table.Th>{t('columns.description')}</Table.Th>
                    <Table.Th>{t('columns.patients')}</Table.Th>
                    <Table.Th>{t('columns.updated')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.data.map((group) => (
                    <Table.Tr
                      key={group.id}
                      data-testid="cohort-row"
                      style={{ cursor: 'pointer' }}
                      onClick={(event) => {
                        if (!(event.target as HTMLElement).closest('a')) navigate(`/group/${group.id}`);
                      }}
                    >
                      <Table.Td>
                        <Anchor component={Link} to={`/group/${group.id}`} fw={500} size="sm">
                          {group.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed" lineClamp={1}>
                          {group.description ?? ''}
                        </Text>
                      </Table.Td>
                      <Table.Td>{group.users_count}</Table.Td>
                      <Table.Td>{dateOrNotProvided(group.updated_at, US_DATE_PATTERN, zone)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {list.data.last_page > 1 ? (
              <Group justify="flex-end">
                <Pagination
                  total={list.data.last_page}
                  value={page}
                  onChange={(p) => setParam({ page: String(p) })}
                />
              </Group>
            ) : null}
          </Stack>
        )}
      </Paper>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('actions.create')}>
        {creating ? (
          <CohortForm
            programId={programId}
            onDone={(id) => navigate(`/group/${id}`)}
            onCancel={() => setCreating(false)}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}

function CohortForm({
  programId,
  onDone,
  onCancel,
}: {
  programId: number;
  onDone: (id: number) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('cohorts');
  const form = useForm({ name: '', description: '' }, { name: [required] });
  const create = useCreateCohort(programId);
  const submit = form.onSubmit(async (values) => {
    try {
      const group = await create.mutateAsync({ name: values.name, description: values.description });
      toast.success(t('toasts.created'));
      onDone(group.id);
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextField
          label={t('fields.name')}
          required
          data-autofocus
          {...form.field('name')}
          data-testid="cohort-name"
        />
        <TextAreaField label={t('fields.description')} autosize minRows={2} {...form.field('description')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending} data-testid="cohort-save">
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
