import { type CreateStaffBody, PROGRAM_STAFF_ROLES } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { valueOrNotProvided } from '../../../shared/ui/notProvided';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { email, phone, required } from '../../../shared/ui/validators';
import { useActiveScope } from '../../tenancy/scope';
import { useCreateStaff, useProgramStaffList } from '../api';
import '../i18n';

type Role = (typeof PROGRAM_STAFF_ROLES)[number];

/** /admins: the program's staff and their roles; administrators add people (POST programs/{p}/users/admin). */
export function StaffPage() {
  const { t } = useTranslation('staff');
  const common = useTranslation().t;
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const list = useProgramStaffList(programId);
  const [adding, setAdding] = useState(false);
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
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('add.open')}
        </Button>
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
            {t('empty')}
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
                    <Table.Td>{`${member.family_name}, ${member.given_name}`}</Table.Td>
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
      toast.success(t('created'));
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
