import { type DiseaseState, type PatientRecord, podBody, type Regimen } from '@caredeck/contracts';
import { isoDate, localDateOf, resolveDisplayZone } from '@caredeck/domain';
import {
  Alert,
  Autocomplete,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPills, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { identityDate } from '../../../shared/ui/notProvided';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import {
  printLabels,
  printPodLabel,
  useAddPods,
  useCompleteRegimen,
  useDiagnosisCodes,
  useDiseaseStates,
  useMedicationPlan,
  usePodCodes,
} from '../api';
import '../i18n';
import { EditRegimenModal } from './EditRegimenModal';
import { InhalerRegimenModal } from './InhalerRegimenModal';
import { RecentDoses, RecordDoseModal } from './ManualDoses';
import { MedicationOrders } from './MedicationOrders';
import { OrderForm } from './OrderForm';
import { Prescriptions } from './Prescriptions';
import { useCanChangePlan } from './planAccess';

/** The patient's whole medication plan (01 §3, §7): regimens with pods and labels, orders, scripts, disease states. */
export function MedicationPanel({ patient, programId }: { patient: PatientRecord; programId: number }) {
  const { t } = useTranslation('patientRecord');
  const plan = useMedicationPlan(programId, patient.id);
  const [ordering, setOrdering] = useState(false);
  const [inhaler, setInhaler] = useState(false);
  const canChange = useCanChangePlan();
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
        <Stack gap={0}>
          <Title order={2} fz="h5">
            {t('medication.active')}
          </Title>
          <Text size="xs" c="dimmed" data-testid="medication-zone">
            {t('medication.zone', { zone: resolveDisplayZone(patient.time_zone) })}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button variant="default" component={Link} to={`/patient/${patient.id}/medication/details`}>
            {t('medRec.open')}
          </Button>
          {canChange ? (
            <>
              <Button variant="default" onClick={() => setInhaler(true)} data-testid="inhaler-add">
                {t('inhaler.add')}
              </Button>
              <Button leftSection={<IconPills size={16} aria-hidden />} onClick={() => setOrdering(true)}>
                {t('medication.newOrder')}
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      {active.length === 0 ? (
        <Text c="dimmed">{t('medication.empty')}</Text>
      ) : (
        <Stack gap="xs" data-testid="regimens">
          {active.map((regimen) => (
            <RegimenCard
              key={regimen.id}
              regimen={regimen}
              regimens={regimens}
              patient={patient}
              programId={programId}
            />
          ))}
        </Stack>
      )}
      {done.length > 0 ? (
        <Text size="sm" c="dimmed">
          {t('medication.completed')}: {done.map((r) => r.name).join(', ')}
        </Text>
      ) : null}
      <RecentDoses plan={plan.data} patient={patient} programId={programId} />
      <MedicationOrders orders={plan.data.orders} regimens={regimens} zone={patient.time_zone} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Prescriptions scripts={scripts} patient={patient} programId={programId} />
        <DiseaseStates patient={patient} programId={programId} states={disease_states} regimens={regimens} />
      </SimpleGrid>
      {inhaler ? (
        <InhalerRegimenModal patient={patient} programId={programId} onClose={() => setInhaler(false)} />
      ) : null}
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
  regimens,
  patient,
  programId,
}: {
  regimen: Regimen;
  /** All the patient's regimens: the names of those a pod also serves, and the active ones to share with. */
  regimens: readonly Regimen[];
  patient: PatientRecord;
  programId: number;
}) {
  const { t } = useTranslation('patientRecord');
  const complete = useCompleteRegimen(programId, patient.id);
  const [confirming, setConfirming] = useState(false);
  const [adding, setAdding] = useState(false);
  const [recording, setRecording] = useState(false);
  const [editing, setEditing] = useState(false);
  const canChange = useCanChangePlan();
  // Its own pods, then those made for another regimen of the patient that also serve this one (shared pods).
  const pods = [
    ...regimen.pods,
    ...regimens
      .filter((r) => r.id !== regimen.id)
      .flatMap((r) => r.pods.filter((p) => p.linked_regimen_id === regimen.id)),
  ];
  const nameOf = (id: number | null) => regimens.find((r) => r.id === id)?.name ?? '';
  const servings = pods.reduce((sum, p) => sum + p.servings_remaining, 0);
  const schedule =
    regimen.repeat === 'as_needed'
      ? t('medication.asNeeded', { num: regimen.num })
      : t('medication.schedule', { times: regimen.time.join(', '), num: regimen.num });
  const zone = resolveDisplayZone(patient.time_zone);
  // Days on the patient's clock; an end at midnight closes the day before it.
  const dayOf = (instant: number) => identityDate(isoDate(localDateOf(instant, zone)));
  const start = dayOf(Date.parse(regimen.scheduled_at));
  const [showPods, setShowPods] = useState(false);
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
              ? t('medication.periodEnd', { start, end: dayOf(Date.parse(regimen.end_at) - 1) })
              : t('medication.period', { start })}
            {' · '}
            {pods.length
              ? t('medication.pods', {
                  pods: t('medication.podCount', { count: pods.length }),
                  servings: t('medication.servingsLeft', { count: servings }),
                })
              : t('medication.noPods')}
            {pods.length ? (
              <Button
                size="compact-xs"
                variant="subtle"
                ml={4}
                aria-expanded={showPods}
                onClick={() => setShowPods((shown) => !shown)}
                data-testid="pods-toggle"
              >
                {showPods ? t('medication.hidePods') : t('medication.showPods')}
              </Button>
            ) : null}
          </Text>
        </Stack>
        <Group gap="xs">
          {canChange ? (
            <>
              <Button
                size="xs"
                variant="default"
                onClick={() => setRecording(true)}
                data-testid="record-dose"
              >
                {t('doses.record')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing(true)} data-testid="regimen-edit">
                {t('regimenEdit.open')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setAdding(true)}>
                {t('medication.addPods')}
              </Button>
            </>
          ) : null}
          <Button
            size="xs"
            variant="default"
            disabled={pods.length === 0}
            leftSection={<IconPrinter size={14} aria-hidden />}
            onClick={() =>
              void printLabels(
                programId,
                patient.id,
                pods.map((p) => p.barcode),
              ).catch((error: unknown) => toastErrors(error))
            }
          >
            {t('medication.printLabels')}
          </Button>
          {canChange ? (
            <Button size="xs" variant="light" color="secondary" onClick={() => setConfirming(true)}>
              {t('medication.complete')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {showPods ? (
        <Table.ScrollContainer minWidth={420} mt="xs">
          <Table verticalSpacing={4} data-testid="pods">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('medication.barcode')}</Table.Th>
                <Table.Th>{t('medication.podNumber')}</Table.Th>
                <Table.Th>{t('medication.servingsColumn')}</Table.Th>
                <Table.Th aria-label={t('medication.podActions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pods.map((pod) => (
                <Table.Tr key={pod.id} data-testid="pod">
                  <Table.Td ff="monospace">{pod.barcode}</Table.Td>
                  <Table.Td>
                    {pod.num}
                    {pod.regimen_id !== regimen.id ? (
                      <Text span size="xs" c="dimmed" ml={6} data-testid="pod-shared">
                        {t('medication.podSharedFrom', { name: nameOf(pod.regimen_id) })}
                      </Text>
                    ) : pod.linked_regimen_id ? (
                      <Text span size="xs" c="dimmed" ml={6} data-testid="pod-shared">
                        {t('medication.podShared', { name: nameOf(pod.linked_regimen_id) })}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {t('medication.servingsOf', { left: pod.servings_remaining, of: pod.original_servings })}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      leftSection={<IconPrinter size={12} aria-hidden />}
                      aria-label={t('medication.printPodLabel', { barcode: pod.barcode })}
                      onClick={() =>
                        void printPodLabel(programId, patient.id, pod).catch((error: unknown) =>
                          toastErrors(error),
                        )
                      }
                    >
                      {t('medication.label')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
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
      {editing ? (
        <EditRegimenModal regimen={regimen} patient={patient} onClose={() => setEditing(false)} />
      ) : null}
      {recording ? (
        <RecordDoseModal
          // A dose may come out of a pod shared from another regimen too.
          regimen={{ ...regimen, pods }}
          patient={patient}
          programId={programId}
          onClose={() => setRecording(false)}
        />
      ) : null}
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('medication.addPods')}>
        {adding ? (
          <PodsForm
            regimen={regimen}
            others={regimens.filter((r) => r.status === 'active' && r.id !== regimen.id)}
            patient={patient}
            programId={programId}
            onDone={() => setAdding(false)}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}

const POD_FIELD: Record<string, 'prefix' | 'servings' | 'count'> = {
  prefix: 'prefix',
  original_servings: 'servings',
  servings_remaining: 'servings',
  num: 'count',
};

function PodsForm(props: {
  regimen: Regimen;
  /** The patient's other active regimens, which the pods may also serve (a dose of several pods). */
  others: readonly Regimen[];
  patient: PatientRecord;
  programId: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const add = useAddPods(props.programId, props.patient.id);
  const [prefix, setPrefix] = useState('CD');
  const [servings, setServings] = useState<number | string>(28);
  const [count, setCount] = useState<number | string>(1);
  const [shared, setShared] = useState<string | null>(null);
  const sharedWith = props.others.find((r) => String(r.id) === shared) ?? null;
  const [errors, setErrors] = useState<Partial<Record<'prefix' | 'servings' | 'count', string>>>({});
  const body = {
    prefix,
    original_servings: Number(servings),
    servings_remaining: Number(servings),
    num: Number(count),
  };
  const checked = podBody.safeParse(body);
  // The barcodes the pods will get (get_codes: nothing is saved), once the values are valid.
  const [preview] = useDebouncedValue(checked.success ? JSON.stringify(checked.data) : '', 300);
  const codes = usePodCodes(props.programId, props.patient.id, props.regimen.id, preview);
  const show = (issues: { field: string; message: string }[]) => {
    const found: typeof errors = {};
    for (const { field, message } of issues) {
      const target = POD_FIELD[field.split('.')[0] ?? field];
      if (target && !found[target]) found[target] = message;
    }
    setErrors(found);
    return Object.keys(found).length > 0;
  };
  const save = () => {
    if (!checked.success) {
      show(checked.error.issues.map((i) => ({ field: String(i.path[0] ?? ''), message: i.message })));
      return;
    }
    add.mutate(
      {
        regimenId: props.regimen.id,
        prefix,
        servings: Number(servings),
        num: Number(count),
        linkedRegimenId: sharedWith?.id ?? null,
      },
      {
        onSuccess: (answer) => {
          toast.success(
            sharedWith
              ? t('medication.podsLinked', { count: answer.data.length, name: sharedWith.name })
              : t('medication.podsAdded', { count: answer.data.length }),
          );
          props.onDone();
        },
        onError: (error) => {
          const fields = isApiError(error)
            ? Object.entries(error.fieldErrors).map(([field, list]) => ({ field, message: list[0] ?? '' }))
            : [];
          if (!show(fields)) toastErrors(error);
        },
      },
    );
  };
  const next = codes.data?.codes ?? [];
  return (
    <Stack>
      <TextField
        label={t('medication.prefix')}
        value={prefix}
        onChange={(value) => {
          setPrefix(value);
          setErrors((e) => ({ ...e, prefix: undefined }));
        }}
        error={errors.prefix}
        required
        data-testid="pod-prefix"
      />
      <NumberInput
        label={t('medication.servings')}
        value={servings}
        onChange={(value) => {
          setServings(value);
          setErrors((e) => ({ ...e, servings: undefined }));
        }}
        error={errors.servings}
        min={1}
        max={1000}
        allowDecimal={false}
      />
      <NumberInput
        label={t('medication.count')}
        value={count}
        onChange={(value) => {
          setCount(value);
          setErrors((e) => ({ ...e, count: undefined }));
        }}
        error={errors.count}
        min={1}
        max={60}
        allowDecimal={false}
      />
      {props.others.length > 0 ? (
        <Select
          label={t('medication.sharedWith')}
          description={t('medication.sharedWithHint')}
          placeholder={t('medication.sharedWithNone')}
          data={props.others.map((r) => ({ value: String(r.id), label: r.name }))}
          value={shared}
          onChange={setShared}
          clearable
          data-testid="pod-shared-with"
        />
      ) : null}
      {checked.success && next.length > 0 ? (
        <Text size="xs" c="dimmed" data-testid="pod-codes">
          {t('medication.nextCodes', {
            count: next.length,
            first: next[0],
            last: next.at(-1),
          })}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button loading={add.isPending} data-testid="pods-save" onClick={save}>
          {t('actions.save')}
        </Button>
      </Group>
    </Stack>
  );
}

function DiseaseStates(props: {
  patient: PatientRecord;
  programId: number;
  states: DiseaseState[];
  regimens: Regimen[];
}) {
  const { t } = useTranslation('patientRecord');
  const actions = useDiseaseStates(props.programId, props.patient.id);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [ending, setEnding] = useState<number | null>(null);
  const [linking, setLinking] = useState<DiseaseState | null>(null);
  const canChange = useCanChangePlan();
  const [treatedBy, setTreatedBy] = useState<string | null>(null);
  const regimenName = new Map(props.regimens.map((r) => [r.id, r.name]));
  const active = props.regimens.filter((r) => r.status === 'active');
  const form = useForm({ code: '', description: '' }, { code: [required], description: [required] });
  const [search] = useDebouncedValue(form.values.code.trim(), 300);
  const lookup = useDiagnosisCodes(props.programId, search);
  const codes = search.length >= 2 ? (lookup.data?.data ?? []) : [];
  const described = new Map(codes.map((c) => [c.code, c.description]));
  const submit = form.onSubmit(async (v) => {
    try {
      await actions.add.mutateAsync({
        code: v.code.trim().toUpperCase(),
        description: v.description,
        regimenId: treatedBy ? Number(treatedBy) : undefined,
      });
      toast.success(t('medication.conditionAdded'));
      form.setValues({ code: '', description: '' });
      setTreatedBy(null);
    } catch (error) {
      // The body's errors are named conditions.0.code and conditions.0.description.
      const shown: { code?: string; description?: string } = {};
      if (isApiError(error))
        for (const [name, messages] of Object.entries(error.fieldErrors)) {
          const field = name.split('.').at(-1);
          if ((field === 'code' || field === 'description') && messages[0]) shown[field] ??= messages[0];
        }
      if (Object.keys(shown).length > 0) form.setErrors(shown);
      else toastErrors(error);
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
                <Table.Td>
                  {s.conditions.map((c) => `${c.code} ${c.description}`).join('; ')}
                  {s.regimen_ids.length > 0 ? (
                    <Text size="xs" c="dimmed">
                      {t('medication.treatedByList', {
                        names: s.regimen_ids.map((id) => regimenName.get(id) ?? `#${id}`).join(', '),
                      })}
                    </Text>
                  ) : null}
                </Table.Td>
                {/* The actions in one cell that wraps on a phone, never past the screen's edge. */}
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="wrap">
                    {canChange ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => setLinking(s)}
                        disabled={s.ended_at !== null}
                        data-testid="condition-link"
                      >
                        {t('medication.linkRegimens')}
                      </Button>
                    ) : null}
                    {s.ended_at ? (
                      <Badge variant="outline" color="gray">
                        {t('medication.ended')}
                      </Badge>
                    ) : canChange ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => setEnding(s.id)}
                        data-testid="condition-end"
                      >
                        {t('medication.end')}
                      </Button>
                    ) : null}
                    {canChange ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="danger"
                        onClick={() => setDeleting(s.id)}
                        data-testid="condition-delete"
                      >
                        {t('medication.remove')}
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {linking !== null && (
        <LinkRegimensModal
          state={linking}
          regimens={active}
          onClose={() => setLinking(null)}
          onSave={async (regimenIds) => {
            await actions.link.mutateAsync({ diseaseStateId: linking.id, regimenIds });
            toast.success(t('medication.regimensLinked'));
            setLinking(null);
          }}
        />
      )}
      {ending !== null && (
        <ConfirmModal
          title={t('medication.endConditionTitle')}
          body={t('medication.endConditionBody')}
          confirm={t('medication.end')}
          onClose={() => setEnding(null)}
          onConfirm={async () => {
            await actions.end.mutateAsync(ending);
            return { message: t('medication.conditionEnded') };
          }}
        />
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
      {canChange ? (
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="xs">
            <Autocomplete
              label={t('medication.code')}
              placeholder={t('medication.codeHint')}
              required
              w={{ base: '100%', xs: 220 }}
              data={codes.map((c) => c.code)}
              filter={({ options }) => options}
              renderOption={({ option }) => (
                <Text size="sm">
                  <Text span fw={600} size="sm">
                    {option.value}
                  </Text>{' '}
                  {described.get(option.value) ?? ''}
                </Text>
              )}
              limit={25}
              value={form.values.code}
              onChange={(value) => form.setValue('code', value)}
              onOptionSubmit={(code) => {
                const description = described.get(code);
                if (description) form.setValue('description', description);
              }}
              error={form.errors.code}
              data-testid="condition-code"
            />
            <TextField
              label={t('medication.description')}
              required
              style={{ flex: 1, minWidth: 200 }}
              {...form.field('description')}
              data-testid="condition-description"
            />
            {active.length > 0 ? (
              <Select
                label={t('medication.treatedBy')}
                placeholder={t('medication.noRegimen')}
                clearable
                w={{ base: '100%', xs: 220 }}
                data={active.map((r) => ({ value: String(r.id), label: r.name }))}
                value={treatedBy}
                onChange={setTreatedBy}
                data-testid="condition-regimen"
              />
            ) : null}
            <Button type="submit" variant="default" loading={actions.add.isPending}>
              {t('medication.addCondition')}
            </Button>
          </Group>
        </form>
      ) : null}
    </Stack>
  );
}

/** Which of the patient's active regimens treat a disease state (PUT disease_states/regimens). */
function LinkRegimensModal({
  state,
  regimens,
  onClose,
  onSave,
}: {
  state: DiseaseState;
  regimens: Regimen[];
  onClose: () => void;
  onSave(regimenIds: number[]): Promise<void>;
}) {
  const { t } = useTranslation('patientRecord');
  const [chosen, setChosen] = useState<string[]>(state.regimen_ids.map(String));
  const [busy, setBusy] = useState(false);
  const known = new Set(regimens.map((r) => String(r.id)));
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('medication.linkTitle', { name: state.conditions.map((c) => c.code).join(', ') })}
    >
      <Stack>
        <MultiSelect
          label={t('medication.treatedBy')}
          data={[
            ...regimens.map((r) => ({ value: String(r.id), label: r.name })),
            // A linked regimen that is no longer active stays listed, so saving does not drop it unseen.
            ...chosen.filter((id) => !known.has(id)).map((id) => ({ value: id, label: `#${id}` })),
          ]}
          value={chosen}
          onChange={setChosen}
          data-testid="condition-regimens"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button
            loading={busy}
            onClick={() => {
              setBusy(true);
              onSave(chosen.map(Number))
                .catch((error: unknown) => toastErrors(error))
                .finally(() => setBusy(false));
            }}
            data-testid="condition-regimens-save"
          >
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
