import { US_DATE_PATTERN } from '@caredeck/domain';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconSearch, IconTrash, IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { usePageTitle } from '../../../app/documentTitle';
import { isApiError } from '../../../shared/api-client';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { dateOrNotProvided, identityDate, valueOrNotProvided } from '../../../shared/ui/notProvided';
import { TextAreaField } from '../../../shared/ui/TextAreaField';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { ThresholdsPanel } from '../../alerts/components/ThresholdsPanel';
import { usePatientSearch } from '../../patients/finder';
import { useActiveScope } from '../../tenancy/scope';
import { useCohort, useCohortMember, useDeleteCohort, useUpdateCohort } from '../api';
import '../i18n';

/** Patients of the cohort shown at once; a larger cohort is paged and can be searched (name or MRN). */
const MEMBERS_PAGE = 50;

/** /group/{id} and /group/{groupId}/group-users: a cohort, its patients, adding and removing them. */
export function CohortPage() {
  const { t } = useTranslation('cohorts');
  const common = useTranslation().t;
  const params = useParams();
  const id = Number(params.id ?? params.groupId);
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const navigate = useNavigate();
  const remove = useDeleteCohort(id);
  // Once it is being deleted the cohort is not asked for again (nothing refreshes it into a 404).
  const cohort = useCohort(id, remove.isIdle || remove.isError);
  const member = useCohortMember(programId, id);
  const [search, setSearch] = useState('');
  const [choice, setChoice] = useState<{ value: string; label: string; name: string } | null>(null);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const [memberFilter, setMemberFilter] = useState('');
  const [memberPage, setMemberPage] = useState(1);
  const found = usePatientSearch(search);
  usePageTitle(cohort.data?.name ?? '');

  if (cohort.isError)
    return (
      <Stack>
        <Anchor component={Link} to="/groups" size="sm">
          {t('back')}
        </Anchor>
        <Alert
          color="danger"
          icon={<IconAlertTriangle size={18} />}
          role="alert"
          title={isApiError(cohort.error) && cohort.error.status === 404 ? t('notFound') : t('loadError')}
        />
      </Stack>
    );
  if (!cohort.data)
    return (
      <Center py="xl">
        <Loader aria-label={common('common.loading')} />
      </Center>
    );
  const group = cohort.data;
  const memberIds = new Set(group.users.map((u) => u.id));
  const options = (found.data?.data ?? [])
    .filter((p) => p.program.id === group.program_id && !memberIds.has(p.id))
    .map((p) => ({
      value: String(p.id),
      label: `${p.name} · ${identityDate(p.dob)}${p.mrn ? ` · ${p.mrn}` : ''}`,
      name: p.name,
    }));
  // The search shows for a large cohort only; it filters only while shown.
  const typed = group.users.length > MEMBERS_PAGE ? memberFilter.trim().toLowerCase() : '';
  const matching = typed
    ? group.users.filter(
        (u) => u.name.toLowerCase().includes(typed) || u.mrn?.toLowerCase().startsWith(typed),
      )
    : group.users;
  const pages = Math.max(1, Math.ceil(matching.length / MEMBERS_PAGE));
  // A removal may shorten the list under the page shown.
  const page = Math.min(memberPage, pages);
  const pageOfMembers = matching.slice((page - 1) * MEMBERS_PAGE, page * MEMBERS_PAGE);
  // The chosen patient stays offered while the search text shows its label.
  const shown = choice && !options.some((o) => o.value === choice.value) ? [choice, ...options] : options;

  const setMember = (patientId: number, name: string, isMember: boolean) =>
    member.mutate(
      { patientId, member: isMember },
      {
        onSuccess: () => {
          toast.success(t(isMember ? 'toasts.added' : 'toasts.removed', { name }));
          setChoice(null);
        },
        onError: (error) => toastErrors(error),
      },
    );

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/groups" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1} fz="h2" data-testid="cohort-title">
              {group.name}
            </Title>
            <Badge variant="light" data-testid="cohort-count">
              {t('count', { count: group.users_count })}
            </Badge>
          </Group>
          {group.description ? <Text c="dimmed">{group.description}</Text> : null}
        </Stack>
        <Group gap="xs">
          <Button
            variant="default"
            component={Link}
            to={`/group/${group.id}/escalation-messages`}
            leftSection={<IconAlertTriangle size={16} aria-hidden />}
          >
            {t('actions.escalations')}
          </Button>
          <Button variant="default" onClick={() => setEditing(true)}>
            {t('actions.edit')}
          </Button>
          <Button
            variant="light"
            color="danger"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setDeleting(true)}
          >
            {t('actions.delete')}
          </Button>
        </Group>
      </Group>
      <Paper withBorder radius="md" p="md">
        <Stack>
          <Group align="flex-end" gap="xs">
            <Select
              label={t('add.label')}
              placeholder={t('add.placeholder')}
              searchable
              searchValue={search}
              onSearchChange={(value) => {
                if (value !== choice?.label) setSearch(value);
              }}
              data={shown}
              value={choice?.value ?? null}
              onChange={(value) => setChoice(shown.find((o) => o.value === value) ?? null)}
              filter={({ options: all }) => all}
              nothingFoundMessage={search.length > 1 && found.data ? t('add.nothing') : undefined}
              // Full width on a phone (a fixed 420 px ran off a 390 px screen).
              w={{ base: '100%', sm: 420 }}
              data-testid="cohort-add-search"
            />
            <Button
              disabled={!choice}
              loading={member.isPending}
              onClick={() => {
                if (choice) setMember(Number(choice.value), choice.name, true);
              }}
              data-testid="cohort-add"
            >
              {t('actions.add')}
            </Button>
          </Group>
          {group.users.length === 0 ? (
            <Text c="dimmed" ta="center" py="md">
              {t('members.empty')}
            </Text>
          ) : (
            <>
              {group.users.length > MEMBERS_PAGE ? (
                <TextInput
                  aria-label={t('members.filter')}
                  placeholder={t('members.filter')}
                  leftSection={<IconSearch size={14} aria-hidden />}
                  value={memberFilter}
                  onChange={(event) => {
                    setMemberFilter(event.currentTarget.value);
                    setMemberPage(1);
                  }}
                  maw={420}
                  data-testid="cohort-members-filter"
                />
              ) : null}
              {matching.length === 0 ? (
                <Text c="dimmed" ta="center" py="md">
                  {t('members.noMatch', { text: memberFilter.trim() })}
                </Text>
              ) : (
                // On a phone: name, birth date and the remove button (the MRN, status and date added from 576 px).
                <Table.ScrollContainer minWidth={300}>
                  <Table data-testid="cohort-members">
                    <Table.Tbody>
                      {pageOfMembers.map((u) => (
                        <Table.Tr key={u.id}>
                          <Table.Td>
                            <Anchor component={Link} to={`/patient/${u.id}`} size="sm" fw={500}>
                              {u.name}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{identityDate(u.dob)}</Table.Td>
                          <Table.Td visibleFrom="sm">{valueOrNotProvided(u.mrn)}</Table.Td>
                          <Table.Td visibleFrom="sm">{common(`patients.status.${u.status}`)}</Table.Td>
                          <Table.Td visibleFrom="sm">
                            <Text size="xs" c="dimmed">
                              {t('members.added')} {dateOrNotProvided(u.added_at, US_DATE_PATTERN)}
                            </Text>
                          </Table.Td>
                          <Table.Td w={40}>
                            <ActionIcon
                              variant="subtle"
                              color="danger"
                              aria-label={t('actions.remove', { name: u.name })}
                              onClick={() => setRemoving({ id: u.id, name: u.name })}
                            >
                              <IconUserMinus size={16} />
                            </ActionIcon>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
              {pages > 1 ? (
                <Pagination
                  total={pages}
                  value={page}
                  onChange={setMemberPage}
                  size="sm"
                  aria-label={t('members.pages')}
                  data-testid="cohort-members-pages"
                />
              ) : null}
            </>
          )}
        </Stack>
      </Paper>
      {programId ? <ThresholdsPanel programId={programId} level={{ cohort_id: group.id }} /> : null}
      {removing ? (
        // Removing forgets when the patient joined; it is asked first, like deleting the cohort.
        <ConfirmModal
          title={t('confirm.removeTitle', { name: removing.name })}
          body={<Text size="sm">{t('confirm.removeBody')}</Text>}
          confirm={t('confirm.remove')}
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await member.mutateAsync({ patientId: removing.id, member: false });
            return { message: t('toasts.removed', { name: removing.name }) };
          }}
        />
      ) : null}
      <Modal opened={editing} onClose={() => setEditing(false)} title={t('actions.edit')}>
        {editing ? (
          <EditCohort
            programId={programId}
            id={group.id}
            name={group.name}
            description={group.description ?? ''}
            onClose={() => setEditing(false)}
          />
        ) : null}
      </Modal>
      <Modal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={t('confirm.deleteTitle', { name: group.name })}
      >
        <Stack>
          <Text size="sm">{t('confirm.deleteBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              color="danger"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => {
                    toast.success(t('toasts.deleted'));
                    navigate('/groups');
                  },
                  onError: (error) => toastErrors(error),
                })
              }
            >
              {t('actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function EditCohort(props: {
  programId: number;
  id: number;
  name: string;
  description: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('cohorts');
  const form = useForm({ name: props.name, description: props.description }, { name: [required] });
  const update = useUpdateCohort(props.programId, props.id);
  const submit = form.onSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast.success(t('toasts.updated'));
      props.onClose();
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextField label={t('fields.name')} required {...form.field('name')} />
        <TextAreaField label={t('fields.description')} autosize minRows={2} {...form.field('description')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
