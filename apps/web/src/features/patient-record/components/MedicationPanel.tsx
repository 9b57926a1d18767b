import type { PatientRecord, Regimen } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconPills, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../../shared/ui/DateField';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { identityDate } from '../../../shared/ui/notProvided';
import { TagInput } from '../../../shared/ui/TagInput';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import {
  printLabels,
  useAddPods,
  useCompleteRegimen,
  useDiseaseStates,
  useMedicationPlan,
  useOrderAndSchedule,
} from '../api';
import '../i18n';
import { RecentDoses, RecordDoseModal } from './ManualDoses';
import { MedicationOrders } from './MedicationOrders';

/** The patient's whole medication plan (01 §3, §7): regimens with pods and labels, orders, scripts, disease states. */
export function MedicationPanel({ patient, programId }: { patient: PatientRecord; programId: number }) {
  const { t } = useTranslation('patientRecord');
  const plan = useMedicationPlan(programId, patient.id);
  const [ordering, setOrdering] = useState(false);
  if (!plan.data)
    return plan.isError ? (
      <Alert color="red" title={t('medication.loadError')}>
        <Button size="xs" variant="light" onClick={() => void plan.refetch()}>
          {t('medication.retry')}
        </Button>
      </Alert>
    ) : (
      <Center py="md">
        <Loader size="sm" aria-label={t('medication.loading')} />
      </Center>
    );
  const { regimens, scripts, disease_states } = plan.data;
  const active = regimens.filter((r) => r.status === 'active');
  const done = regimens.filter((r) => r.status === 'completed');
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2} fz="h5">
          {t('medication.active')}
        </Title>
        <Group gap="xs">
          <Button variant="default" component={Link} to={`/patient/${patient.id}/medication/details`}>
            {t('medRec.open')}
          </Button>
          <Button leftSection={<IconPills size={16} aria-hidden />} onClick={() => setOrdering(true)}>
            {t('medication.newOrder')}
          </Button>
        </Group>
      </Group>
      {active.length === 0 ? (
        <Text c="dimmed">{t('medication.empty')}</Text>
      ) : (
        <Stack gap="xs" data-testid="regimens">
          {active.map((regimen) => (
            <RegimenCard key={regimen.id} regimen={regimen} patient={patient} programId={programId} />
          ))}
        </Stack>
      )}
      {done.length > 0 ? (
        <Text size="sm" c="dimmed">
          {t('medication.completed')}: {done.map((r) => r.name).join(', ')}
        </Text>
      ) : null}
      <RecentDoses plan={plan.data} patient={patient} programId={programId} />
      <MedicationOrders orders={plan.data.orders} regimens={regimens} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="xs">
          <Title order={2} fz="h5">
            {t('medication.scripts')}
          </Title>
          {scripts.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('medication.noScripts')}
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {scripts.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{s.drug_name}</Table.Td>
                    <Table.Td>{s.sig ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
        <DiseaseStates patient={patient} programId={programId} states={disease_states} />
      </SimpleGrid>
      <Modal opened={ordering} onClose={() => setOrdering(false)} title={t('medication.newOrder')} size="lg">
        {ordering ? (
          <OrderForm patient={patient} programId={programId} onDone={() => setOrdering(false)} />
        ) : null}
      </Modal>
    </Stack>
  );
}

function RegimenCard({
  regimen,
  patient,
  programId,
}: {
  regimen: Regimen;
  patient: PatientRecord;
  programId: number;
}) {
  const { t } = useTranslation('patientRecord');
  const complete = useCompleteRegimen(programId, patient.id);
  const [confirming, setConfirming] = useState(false);
  const [adding, setAdding] = useState(false);
  const [recording, setRecording] = useState(false);
  const servings = regimen.pods.reduce((sum, p) => sum + p.servings_remaining, 0);
  const schedule =
    regimen.repeat === 'as_needed'
      ? t('medication.asNeeded', { num: regimen.num })
      : t('medication.schedule', { times: regimen.time.join(', '), num: regimen.num });
  const start = identityDate(regimen.scheduled_at);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="regimen">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>{regimen.name}</Text>
            {regimen.type !== 'medication' ? <Badge variant="light">{regimen.type}</Badge> : null}
          </Group>
          <Text size="sm">{schedule}</Text>
          <Text size="xs" c="dimmed">
            {regimen.end_at
              ? t('medication.periodEnd', { start, end: identityDate(regimen.end_at) })
              : t('medication.period', { start })}
            {' · '}
            {regimen.pods.length
              ? t('medication.pods', {
                  pods: t('medication.podCount', { count: regimen.pods.length }),
                  servings: t('medication.servingsLeft', { count: servings }),
                })
              : t('medication.noPods')}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setRecording(true)} data-testid="record-dose">
            {t('doses.record')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setAdding(true)}>
            {t('medication.addPods')}
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={regimen.pods.length === 0}
            leftSection={<IconPrinter size={14} aria-hidden />}
            onClick={() =>
              void printLabels(
                programId,
                patient.id,
                regimen.pods.map((p) => p.barcode),
              ).catch((error: unknown) => toastErrors(error))
            }
          >
            {t('medication.printLabels')}
          </Button>
          <Button size="xs" variant="light" color="secondary" onClick={() => setConfirming(true)}>
            {t('medication.complete')}
          </Button>
        </Group>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('medication.completeTitle', { name: regimen.name })}
      >
        <Stack>
          <Text size="sm">{t('medication.completeBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              loading={complete.isPending}
              onClick={() =>
                complete.mutate(regimen.id, {
                  onSuccess: () => {
                    setConfirming(false);
                    toast.success(t('medication.completed_toast'));
                  },
                  onError: (error) => toastErrors(error),
                })
              }
            >
              {t('medication.complete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {recording ? (
        <RecordDoseModal
          regimen={regimen}
          patient={patient}
          programId={programId}
          onClose={() => setRecording(false)}
        />
      ) : null}
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('medication.addPods')}>
        {adding ? (
          <PodsForm
            regimen={regimen}
            patient={patient}
            programId={programId}
            onDone={() => setAdding(false)}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}

function PodsForm(props: {
  regimen: Regimen;
  patient: PatientRecord;
  programId: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const add = useAddPods(props.programId, props.patient.id);
  const [prefix, setPrefix] = useState('CD');
  const [servings, setServings] = useState<number | string>(28);
  const [count, setCount] = useState<number | string>(1);
  return (
    <Stack>
      <TextField
        label={t('medication.prefix')}
        value={prefix}
        onChange={setPrefix}
        required
        data-testid="pod-prefix"
      />
      <NumberInput
        label={t('medication.servings')}
        value={servings}
        onChange={setServings}
        min={1}
        max={1000}
      />
      <NumberInput label={t('medication.count')} value={count} onChange={setCount} min={1} max={60} />
      <Group justify="flex-end">
        <Button
          loading={add.isPending}
          data-testid="pods-save"
          onClick={() =>
            add.mutate(
              { regimenId: props.regimen.id, prefix, servings: Number(servings), num: Number(count) },
              {
                onSuccess: (answer) => {
                  toast.success(t('medication.podsAdded', { count: answer.data.length }));
                  props.onDone();
                },
                onError: (error) => toastErrors(error),
              },
            )
          }
        >
          {t('actions.save')}
        </Button>
      </Group>
    </Stack>
  );
}

type OrderValues = {
  drug: string;
  strength: string;
  form: string;
  route: string;
  quantity: string;
  num: string;
  start: string;
};

function OrderForm({
  patient,
  programId,
  onDone,
}: {
  patient: PatientRecord;
  programId: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const order = useOrderAndSchedule(programId, patient.id);
  const [times, setTimes] = useState<string[]>(['08:00']);
  const form = useForm<OrderValues>(
    {
      drug: '',
      strength: '',
      form: '',
      route: '',
      quantity: '',
      num: '1',
      start: new Date().toISOString().slice(0, 10),
    },
    { drug: [required], num: [required], start: [required] },
  );
  const submit = form.onSubmit(async (v) => {
    try {
      await order.mutateAsync({
        order: {
          drug_name: v.drug,
          strength: v.strength || null,
          form: v.form || null,
          route: v.route || null,
          quantity: v.quantity ? Number(v.quantity) : null,
        },
        regimen: {
          name: [v.drug, v.strength].filter(Boolean).join(' '),
          repeat: times.length ? 'daily' : 'as_needed',
          time: times,
          num: Number(v.num),
          scheduled_at: new Date(`${v.start}T00:00:00`).toISOString(),
        },
      });
      toast.success(t('medication.orderCreated'));
      onDone();
    } catch (error) {
      toastErrors(error);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField label={t('medication.drug')} required {...form.field('drug')} data-testid="order-drug" />
          <TextField
            label={t('medication.strength')}
            {...form.field('strength')}
            data-testid="order-strength"
          />
          <TextField label={t('medication.form')} {...form.field('form')} />
          <TextField label={t('medication.route')} {...form.field('route')} />
          <TextField label={t('medication.quantity')} type="number" {...form.field('quantity')} />
          <TextField label={t('medication.num')} type="number" required {...form.field('num')} />
        </SimpleGrid>
        <TagInput label={t('medication.times')} value={times} onChange={setTimes} data-testid="order-times" />
        <DateField label={t('medication.start')} required {...form.field('start')} />
        <Group justify="flex-end">
          <Button type="submit" loading={order.isPending} data-testid="order-save">
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DiseaseStates(props: {
  patient: PatientRecord;
  programId: number;
  states: { id: number; conditions: { code: string; description: string }[]; ended_at: string | null }[];
}) {
  const { t } = useTranslation('patientRecord');
  const actions = useDiseaseStates(props.programId, props.patient.id);
  const [deleting, setDeleting] = useState<number | null>(null);
  const form = useForm({ code: '', description: '' }, { code: [required], description: [required] });
  const submit = form.onSubmit(async (v) => {
    try {
      await actions.add.mutateAsync({ code: v.code.toUpperCase(), description: v.description });
      toast.success(t('medication.conditionAdded'));
      form.setValues({ code: '', description: '' });
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });
  return (
    <Stack gap="xs">
      <Title order={2} fz="h5">
        {t('medication.conditions')}
      </Title>
      {props.states.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('medication.noConditions')}
        </Text>
      ) : (
        <Table data-testid="disease-states">
          <Table.Tbody>
            {props.states.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>{s.conditions.map((c) => `${c.code} ${c.description}`).join('; ')}</Table.Td>
                <Table.Td>
                  {s.ended_at ? (
                    <Badge variant="outline" color="gray">
                      {t('medication.ended')}
                    </Badge>
                  ) : (
                    <Button size="compact-xs" variant="subtle" onClick={() => actions.end.mutate(s.id)}>
                      {t('medication.end')}
                    </Button>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="danger"
                    onClick={() => setDeleting(s.id)}
                    data-testid="condition-delete"
                  >
                    {t('medication.remove')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {deleting !== null && (
        <ConfirmModal
          title={t('medication.deleteConditionTitle')}
          body={t('medication.deleteConditionBody')}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await actions.remove.mutateAsync(deleting);
            return { message: t('medication.conditionDeleted') };
          }}
        />
      )}
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" gap="xs">
          <TextField
            label={t('medication.code')}
            w={120}
            {...form.field('code')}
            data-testid="condition-code"
          />
          <TextField
            label={t('medication.description')}
            {...form.field('description')}
            data-testid="condition-description"
          />
          <Button type="submit" variant="default" loading={actions.add.isPending}>
            {t('medication.addCondition')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
