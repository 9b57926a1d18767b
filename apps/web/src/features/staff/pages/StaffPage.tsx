import { type CreateStaffBody, PROGRAM_STAFF_ROLES } from '@caredeck/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconUserPlus, IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasAnyRole } from '../../../app/auth/roles';
import { valueOrNotProvided } from '../../../shared/ui/notProvided';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { email, phone, required } from '../../../shared/ui/validators';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { useAdminList, useCreateStaff } from '../api';
import { AssignStaffModal } from './AssignStaffModal';
import { StaffDrawer } from './StaffDrawer';
import '../i18n';

type Role = (typeof PROGRAM_STAFF_ROLES)[number];

/** /admins: the program's staff and their roles; administrators add people, change roles and disable accounts. */
export function StaffPage() {
  const { t } = useTranslation('staff');
  const common = useTranslation().t;
  const scope = useActiveScope();
  const user = useCurrentUser();
  const programId = scope?.programId ?? 0;
  const [status, setStatus] = useState<'active' | 'disabled' | 'all'>('active');
  const [search, setSearch] = useState('');
  const list = useAdminList(programId, { status, search });
  const [adding, setAdding] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const canAdminister = !!user && !!scope && hasAnyRole(user, ['admin', 'enterprise_admin'], scope);
  const enterpriseId = scope?.program?.enterprise_id ?? null;
  const present = new Set((list.data?.data ?? []).map((m) => m.id));
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            {t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('hint', { program: scope?.program?.name ?? '' })}
          </Text>
        </Stack>
        <Group gap="xs">
          {canAdminister && enterpriseId !== null ? (
            <Button
              variant="default"
              leftSection={<IconUsersPlus size={16} aria-hidden />}
              onClick={() => setAssigning(true)}
            >
              {t('assign.open')}
            </Button>
          ) : null}
          <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            {t('add.open')}
          </Button>
        </Group>
      </Group>
      <Group align="flex-end" gap="sm">
        <SearchBox label={t('search')} value={search} onSearch={setSearch} w={260} />
        <SegmentedControl
          aria-label={t('state.label')}
          value={status}
          onChange={(v) => setStatus(v as typeof status)}
          data={[
            { value: 'active', label: t('state.active') },
            { value: 'disabled', label: t('state.disabled') },
            { value: 'all', label: t('state.all') },
          ]}
        />
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
          <Text c="dimmed" ta="center" py="xl">
            {search || status !== 'active' ? t('noMatch') : t('empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table striped verticalSpacing="xs" aria-label={t('title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('columns.name')}</Table.Th>
                  <Table.Th>{t('columns.title')}</Table.Th>
                  <Table.Th>{t('columns.roles')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.data.map((member) => (
                  <Table.Tr key={member.id} data-testid="staff-row">
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Anchor component="button" type="button" onClick={() => setOpen(member.id)}>
                          {`${member.family_name}, ${member.given_name}`}
                        </Anchor>
                        {member.disabled ? (
                          <Badge color="danger" variant="light" size="sm">
                            {t('state.disabled')}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>{valueOrNotProvided(member.title)}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {member.roles.map((role) => (
                          <Badge key={role} variant="light">
                            {t(`roles.${role}`)}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('add.title')}>
        {adding ? <StaffForm programId={programId} onDone={() => setAdding(false)} /> : null}
      </Modal>
      {assigning && enterpriseId !== null ? (
        <AssignStaffModal
          enterpriseId={enterpriseId}
          programId={programId}
          present={present}
          onClose={() => setAssigning(false)}
        />
      ) : null}
      <StaffDrawer
        id={open}
        programId={programId}
        canAdminister={canAdminister}
        selfId={user?.id ?? 0}
        onClose={() => setOpen(null)}
      />
    </Stack>
  );
}

function StaffForm({ programId, onDone }: { programId: number; onDone: () => void }) {
  const { t } = useTranslation('staff');
  const [role, setRole] = useState<Role>('care_coordinator');
  const form = useForm(
    { email: '', phone_number: '', given_name: '', family_name: '', title: '' },
    { email: [required, email], phone_number: [phone], given_name: [required], family_name: [required] },
  );
  const create = useCreateStaff(programId);
  const submit = form.onSubmit(async (values) => {
    const body: CreateStaffBody = { ...values, title: values.title || null, role };
    try {
      await create.mutateAsync(body);
      toast.success(t('created'), { title: t('adminCreated') });
      onDone();
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('add.hint')}
        </Text>
        <TextField
          label={t('add.email')}
          required
          data-autofocus
          {...form.field('email')}
          data-testid="staff-email"
        />
        <Group grow>
          <TextField
            label={t('add.givenName')}
            required
            {...form.field('given_name')}
            data-testid="staff-given"
          />
          <TextField
            label={t('add.familyName')}
            required
            {...form.field('family_name')}
            data-testid="staff-family"
          />
        </Group>
        <TextField label={t('add.jobTitle')} {...form.field('title')} />
        <TextField label={t('add.phone')} {...form.field('phone_number')} />
        <Select
          label={t('add.role')}
          data={PROGRAM_STAFF_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          value={role}
          onChange={(value) => value && setRole(value as Role)}
          allowDeselect={false}
          data-testid="staff-role"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('add.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending} data-testid="staff-save">
            {t('add.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
