import { MED_REC_METHODS, type MedRecBody, type MedRecItem } from '@caredeck/contracts';
import {
  Anchor,
  Autocomplete,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { identityDate, valueOrNotProvided } from '../../../shared/ui/notProvided';
import { recordDateTime } from '../../../shared/ui/recordDateTime';
import { TextAreaField } from '../../../shared/ui/TextAreaField';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { useDrugAttribute, useDrugSearch, useMedRec, useMedRecActions, usePatient } from '../api';
import '../i18n';
import { useCanChangePlan } from '../components/planAccess';
import { Missing } from './PatientPage';

const FIELDS = [
  'name',
  'strength',
  'dose',
  'frequency',
  'route',
  'indication',
  'prescriber',
  'source',
] as const;
type Values = Record<(typeof FIELDS)[number] | 'start_date' | 'last_taken' | 'notes', string>;

/** /patient/{patientId}/medication/details: medication reconciliation (02 §2, §7). */
export function MedRecPage() {
  const { t } = useTranslation('patientRecord');
  const scope = useActiveScope();
  const zone = useCurrentUser()?.tz ?? null;
  const id = Number(useParams().patientId);
  const programId = scope?.programId ?? 0;
  const patient = usePatient(programId, id);
  const list = useMedRec(programId, id);
  const actions = useMedRecActions(id);
  const [editing, setEditing] = useState<MedRecItem | 'new' | null>(null);
  // The reconcilers are the care roles and the pharmacy; a pharma user reads the list.
  const canChange = useCanChangePlan();

  if (
    !Number.isInteger(id) ||
    id <= 0 ||
    [patient, list].some((q) => q.isError && isApiError(q.error) && q.error.status === 404)
  )
    return <Missing message={t('notFound')} />;
  if (patient.isError || list.isError)
    return (
      <Missing
        message={t('medRec.loadError')}
        retry={() => {
          if (patient.isError) void patient.refetch();
          if (list.isError) void list.refetch();
        }}
      />
    );
  if (!list.data || !patient.data)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const { data, method, reconciled_at, reconciled_by } = list.data;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={`/patient/${id}?tab=medication`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {patient.data.name}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            {t('medRec.title')}
          </Title>
          <Text c="dimmed">{t('medRec.hint', { name: patient.data.name })}</Text>
        </Stack>
        {canChange ? (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('medRec.add')}
          </Button>
        ) : null}
      </Group>
      <Paper withBorder radius="md" p="md">
        <Group align="flex-end" gap="md">
          <Select
            label={t('medRec.method')}
            data={MED_REC_METHODS.map((m) => ({ value: m, label: t(`medRec.methods.${m}`) }))}
            value={method}
            onChange={(value) =>
              value &&
              actions.method.mutate(value as (typeof MED_REC_METHODS)[number], {
                onSuccess: () => toast.success(t('medRec.toasts.method')),
                onError: (error) => toastErrors(error),
              })
            }
            w={280}
            readOnly={!canChange}
            data-testid="med-rec-method"
          />
          <Text size="sm" c="dimmed" data-testid="med-rec-reconciled">
            {reconciled_at && reconciled_by
              ? t('medRec.reconciled', {
                  at: recordDateTime(reconciled_at, zone),
                  name: reconciled_by.name,
                })
              : t('medRec.never')}
          </Text>
        </Group>
      </Paper>
      <Paper withBorder radius="md" p="md">
        {data.length === 0 ? (
          <Text c="dimmed" ta="center" py="md">
            {t('medRec.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table data-testid="med-rec-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('medRec.name')}</Table.Th>
                  <Table.Th>{t('medRec.dose')}</Table.Th>
                  <Table.Th>{t('medRec.frequency')}</Table.Th>
                  <Table.Th>{t('medRec.source')}</Table.Th>
                  <Table.Th>{t('medRec.last_taken')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((item) => (
                  <Table.Tr key={item.id} opacity={item.archived ? 0.6 : 1}>
                    <Table.Td>
                      <Group gap="xs">
                        <Text size="sm" fw={500}>
                          {[item.name, item.strength].filter(Boolean).join(' ')}
                        </Text>
                        {item.archived ? (
                          <Badge variant="outline" color="gray" size="sm">
                            {t('medRec.archived')}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>{valueOrNotProvided(item.dose)}</Table.Td>
                    <Table.Td>{valueOrNotProvided(item.frequency)}</Table.Td>
                    <Table.Td>{valueOrNotProvided(item.source)}</Table.Td>
                    <Table.Td>
                      {item.last_taken ? identityDate(item.last_taken) : valueOrNotProvided(null)}
                    </Table.Td>
                    <Table.Td>
                      {canChange ? (
                        <Group gap={4} justify="flex-end" wrap="nowrap">
                          <Button size="compact-xs" variant="subtle" onClick={() => setEditing(item)}>
                            {t('medRec.edit')}
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color={item.archived ? 'primary' : 'danger'}
                            onClick={() =>
                              actions.archive.mutate(item.id, {
                                onSuccess: () => toast.success(t('medRec.toasts.archived')),
                                onError: (error) => toastErrors(error),
                              })
                            }
                          >
                            {item.archived ? t('medRec.restore') : t('medRec.archive')}
                          </Button>
                        </Group>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('medRec.add') : t('medRec.edit')}
        size="lg"
      >
        {editing ? (
          <MedicationForm
            item={editing === 'new' ? null : editing}
            patientId={id}
            programId={programId}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}

function MedicationForm({
  item,
  patientId,
  programId,
  onDone,
}: {
  item: MedRecItem | null;
  patientId: number;
  programId: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const actions = useMedRecActions(patientId);
  const initial = {
    name: item?.name ?? '',
    strength: item?.strength ?? '',
    dose: item?.dose ?? '',
    frequency: item?.frequency ?? '',
    route: item?.route ?? '',
    indication: item?.indication ?? '',
    prescriber: item?.prescriber ?? '',
    source: item?.source ?? '',
    start_date: item?.start_date ?? '',
    last_taken: item?.last_taken ?? '',
    notes: item?.notes ?? '',
  } satisfies Values;
  const form = useForm<Values>(initial, { name: [required] });
  // The drug catalogue as the name is typed (free text stays: what the patient takes may be in no catalogue).
  const [query] = useDebouncedValue(form.values.name.trim(), 300);
  const drugs = useDrugSearch(programId, query);
  const drugNames =
    query.length >= 2
      ? [...new Set((drugs.data?.data ?? []).map((d) => d.name.charAt(0).toUpperCase() + d.name.slice(1)))]
      : [];
  const strengths = useDrugAttribute(programId, query, 'strengths').data?.data ?? [];
  const routes = useDrugAttribute(programId, query, 'routes').data?.data ?? [];
  const submit = form.onSubmit(async (values) => {
    const body = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, v.trim() === '' ? null : v]),
    ) as MedRecBody;
    try {
      const changed = item
        ? (Object.keys(values) as (keyof Values)[]).filter((k) => values[k].trim() !== initial[k].trim())
        : [];
      if (item && changed.length === 0) {
        onDone();
        return;
      }
      if (item && changed.length === 1) {
        // One field changed: the key/value update (02 §7 update-input) leaves every other field as it is.
        const key = changed[0]!;
        await actions.input.mutateAsync({ medicationId: item.id, key, value: body[key] ?? null });
        toast.success(t('medRec.toasts.updated'));
      } else if (item) {
        await actions.update.mutateAsync({ medicationId: item.id, body });
        toast.success(t('medRec.toasts.updated'));
      } else {
        await actions.store.mutateAsync(body);
        toast.success(t('medRec.toasts.added'));
      }
      onDone();
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {FIELDS.map((field) =>
            field === 'name' || field === 'strength' || field === 'route' ? (
              <Autocomplete
                key={field}
                label={t(`medRec.${field}`)}
                required={field === 'name'}
                data={field === 'name' ? drugNames : field === 'strength' ? strengths : routes}
                filter={field === 'name' ? ({ options }) => options : undefined}
                limit={20}
                value={form.values[field]}
                onChange={(value) => form.setValue(field, value)}
                error={form.errors[field]}
                data-testid={`med-rec-${field}`}
              />
            ) : (
              <TextField
                key={field}
                label={t(`medRec.${field}`)}
                {...form.field(field)}
                data-testid={`med-rec-${field}`}
              />
            ),
          )}
          <DateField label={t('medRec.start_date')} {...form.field('start_date')} />
          <DateField label={t('medRec.last_taken')} {...form.field('last_taken')} />
        </SimpleGrid>
        <TextAreaField label={t('medRec.notes')} autosize minRows={2} {...form.field('notes')} />
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={actions.store.isPending || actions.update.isPending}
            data-testid="med-rec-save"
          >
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
