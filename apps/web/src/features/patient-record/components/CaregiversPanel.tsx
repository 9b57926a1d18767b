import { CAREGIVER_RELATIONSHIPS, type PatientRecord } from '@caredeck/contracts';
import {
  ActionIcon,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconUnlink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { ScrollTable, STICKY_ACTIONS } from '../../../shared/ui/ScrollTable';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { useCaregiverLink, useCreateCaregiver, usePatientCaregivers, useProgramCaregivers } from '../api';

type CaregiverValues = {
  first_name: string;
  last_name: string;
  relationship: string;
  phone_number: string;
  email: string;
};

/** The patient's caregivers: link one of the program's, add a new one, unlink (ADR 020). */
export function CaregiversPanel({ patient, programId }: { patient: PatientRecord; programId: number }) {
  const { t } = useTranslation('patientRecord');
  const linked = usePatientCaregivers(programId, patient.id);
  const [search, setSearch] = useState('');
  const [choice, setChoice] = useState<string | null>(null);
  const [unlinking, setUnlinking] = useState<{ id: number; name: string } | null>(null);
  const candidates = useProgramCaregivers(programId, search);
  const link = useCaregiverLink(patient.id);
  const create = useCreateCaregiver(programId);
  const form = useForm<CaregiverValues>(
    { first_name: '', last_name: '', relationship: '', phone_number: '', email: '' },
    { first_name: [required], last_name: [required], relationship: [required] },
  );

  const setLink = (caregiverId: number, isLinked: boolean) =>
    link.mutate(
      { caregiverId, linked: isLinked },
      {
        onSuccess: () =>
          toast.success(isLinked ? t('toasts.caregiverLinked') : t('toasts.caregiverUnlinked')),
        onError: (error) => toastErrors(error),
      },
    );

  const add = form.onSubmit(async (values) => {
    try {
      const created = await create.mutateAsync({
        first_name: values.first_name,
        last_name: values.last_name,
        relationship: values.relationship,
        phone_number: values.phone_number,
        email: values.email,
      });
      toast.success(t('toasts.caregiverAdded'));
      form.setValues({ first_name: '', last_name: '', relationship: '', phone_number: '', email: '' });
      // One toast for one action: the new caregiver is linked without a second "linked" toast.
      link.mutate({ caregiverId: created.id, linked: true }, { onError: (error) => toastErrors(error) });
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });

  const rows = linked.data?.data ?? [];
  const linkedIds = new Set(rows.map((c) => c.id));
  return (
    <Stack gap="lg">
      {!linked.data ? (
        <Center>
          <Loader size="sm" />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t('caregivers.empty')}</Text>
      ) : (
        <ScrollTable label={t('caregivers.tableLabel')} minWidth={480}>
          <Table data-testid="caregivers">
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{t(`caregivers.relationships.${c.relationship}`)}</Table.Td>
                  <Table.Td>{[c.phone_number, c.email].filter(Boolean).join(' · ')}</Table.Td>
                  <Table.Td w={40} style={STICKY_ACTIONS}>
                    <ActionIcon
                      variant="subtle"
                      color="danger"
                      aria-label={t('caregivers.unlink', { name: c.name })}
                      onClick={() => setUnlinking({ id: c.id, name: c.name })}
                    >
                      <IconUnlink size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {unlinking && (
        <ConfirmModal
          title={t('caregivers.unlinkTitle', { name: unlinking.name })}
          body={<Text size="sm">{t('caregivers.unlinkBody', { name: unlinking.name })}</Text>}
          confirm={t('caregivers.unlinkConfirm')}
          onClose={() => setUnlinking(null)}
          onConfirm={async () => {
            await link.mutateAsync({ caregiverId: unlinking.id, linked: false });
            return { message: t('toasts.caregiverUnlinked') };
          }}
        />
      )}
      <Group align="flex-end" gap="xs">
        <Select
          label={t('caregivers.link')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={(candidates.data?.data ?? [])
            .filter((c) => !linkedIds.has(c.id))
            .map((c) => ({
              value: String(c.id),
              label: `${c.name} (${t(`caregivers.relationships.${c.relationship}`)})`,
            }))}
          value={choice}
          onChange={setChoice}
          w={360}
        />
        <Button variant="default" disabled={!choice} onClick={() => choice && setLink(Number(choice), true)}>
          {t('caregivers.linkAction')}
        </Button>
      </Group>
      <Paper withBorder p="sm" radius="md">
        <form onSubmit={add} noValidate>
          <Stack gap="xs">
            <Title order={2} fz="h6">
              {t('caregivers.add')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              <TextField label={t('fields.first_name')} required {...form.field('first_name')} />
              <TextField label={t('fields.last_name')} required {...form.field('last_name')} />
              <Select
                label={t('caregivers.relationship')}
                required
                data={CAREGIVER_RELATIONSHIPS.map((r) => ({
                  value: r,
                  label: t(`caregivers.relationships.${r}`),
                }))}
                value={form.values.relationship || null}
                onChange={(value) => form.setValue('relationship', value ?? '')}
                error={form.errors.relationship}
              />
              <TextField label={t('fields.phone_number')} type="tel" {...form.field('phone_number')} />
              <TextField label={t('fields.email')} type="email" {...form.field('email')} />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" variant="light" loading={create.isPending}>
                {t('actions.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
