import type { CreatePatientBody } from '@caredeck/contracts';
import { Alert, Anchor, Button, Group, List, Modal, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useBlocker, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { identityDate } from '../../../shared/ui/notProvided';
import { toast } from '../../../shared/ui/toasts';
import { useStepForm } from '../../../shared/ui/useStepForm';
import { pipelineCalls, usePipeline } from '../../pipelines/api';
import { useActiveScope } from '../../tenancy/scope';
import { useCreatePatient, useDuplicates } from '../api';
import {
  bodyOf,
  emptyPatientValues,
  PATIENT_RULES,
  type PatientField,
  PatientFields,
  type PatientFormValues,
} from '../components/PatientFields';
import '../i18n';

const STEPS: { key: 'identity' | 'contact' | 'care'; fields: PatientField[] }[] = [
  { key: 'identity', fields: ['first_name', 'middle_name', 'last_name', 'dob', 'sex', 'mrn'] },
  {
    key: 'contact',
    fields: [
      'phone_number',
      'email',
      'address_line1',
      'address_line2',
      'state',
      'city',
      'zip',
      'time_zone',
      'language',
    ],
  },
  {
    key: 'care',
    fields: [
      'physician_id',
      'assigned_admin_id',
      'status',
      'consent_at',
      'consent_method',
      'race',
      'ethnicity',
      'income',
    ],
  },
];

/** Every first message of a failed create, or the spec's fallback text when there are none (01 §5, §8). */
function createErrors(error: unknown, fallback: string): string[] {
  if (isApiError(error)) {
    const messages = Object.values(error.fieldErrors)
      .map((list) => list[0])
      .filter((m): m is string => Boolean(m));
    if (messages.length > 0) return messages;
  }
  return [fallback];
}

/**
 * /add-patient/{patientId}: enrol a patient in the active program, one validated step at a time (01 §5).
 * /add-patient/pipeline/{pipelineId}/patient/{patientId}: the same, and the new patient joins that pipeline's
 * first stage; the board opens afterwards (if joining fails, the patient is kept and their record opens).
 */
export function AddPatientPage() {
  const { t } = useTranslation('patientRecord');
  const scope = useActiveScope();
  const navigate = useNavigate();
  const programId = scope?.programId ?? 0;
  const pipelineId = Number(useParams().pipelineId) || null;
  const pipeline = usePipeline(pipelineId ? programId : 0, pipelineId ?? 0);
  const form = useStepForm<PatientFormValues>(
    { ...emptyPatientValues(), status: 'active' },
    PATIENT_RULES,
    STEPS.map((s) => s.fields),
  );
  const create = useCreatePatient(programId);
  const [errors, setErrors] = useState<string[]>([]);
  const { values } = form;
  // Nothing typed is lost by a stray click or reload: leaving a started form asks first (not after saving).
  const saved = useRef(false);
  const started = Object.entries(values).some(([field, value]) => field !== 'status' && value.trim() !== '');
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      started && !saved.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!started) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (saved.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [started]);
  // Possible duplicates, once the identity is entered (name and birth date, or an MRN).
  const probe =
    form.step > 1 && ((values.first_name && values.last_name && values.dob) || values.mrn)
      ? Object.fromEntries(
          Object.entries({
            first_name: values.first_name,
            last_name: values.last_name,
            dob: values.dob,
            mrn: values.mrn,
            email: values.email,
            phone_number: values.phone_number,
          }).filter(([, v]) => v.trim() !== ''),
        )
      : null;
  const duplicates = useDuplicates(programId, probe);

  const submit = form.onSubmit(async (all) => {
    setErrors([]);
    try {
      const patient = await create.mutateAsync(bodyOf(all) as unknown as CreatePatientBody);
      saved.current = true;
      toast.success(t('toasts.created'));
      if (pipelineId) {
        try {
          toast.success((await pipelineCalls.addUsers(pipelineId, [patient.id])).message);
          navigate(`/pipeline/${pipelineId}`);
        } catch {
          toast.error(t('toasts.pipelineFailed'));
          navigate(`/patient/${patient.id}`);
        }
        return;
      }
      navigate(`/patient/${patient.id}`);
    } catch (error) {
      form.showServerErrors(error);
      setErrors(createErrors(error, t('toasts.createFailed')));
    }
  });

  if (!scope?.program || scope.enterpriseScope) return null;
  const matches = duplicates.data?.matches ?? [];
  return (
    <Stack gap="md" maw={960}>
      <Anchor component={Link} to="/patients" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <Title order={1} fz="h2">
        {t('add.title')}
      </Title>
      {pipelineId && (
        <Text size="sm" data-testid="add-to-pipeline">
          {pipeline.data
            ? t('add.intoPipeline', { name: pipeline.data.data.name })
            : t('add.intoPipelineNumber', { id: pipelineId })}
        </Text>
      )}
      <Stepper active={form.step - 1} size="sm" allowNextStepsSelect={false}>
        {STEPS.map((s) => (
          <Stepper.Step key={s.key} label={t(`add.steps.${s.key}`)} />
        ))}
      </Stepper>
      <Text size="sm" c="dimmed">
        {t('add.step', { step: form.step, count: form.stepCount })}
      </Text>
      {errors.length > 0 ? (
        <Alert
          color="danger"
          icon={<IconAlertTriangle size={18} />}
          title={t('add.errorsTitle')}
          role="alert"
        >
          <List size="sm" data-testid="create-errors">
            {errors.map((message) => (
              <List.Item key={message}>{message}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {matches.length > 0 ? (
        <Alert color="warning" title={t('add.duplicatesTitle')} data-testid="duplicates">
          <Text size="sm">{t('add.duplicatesHint')}</Text>
          <List size="sm" mt="xs">
            {matches.map((m) => (
              <List.Item key={m.id}>
                {/* A new tab: checking a possible duplicate must not lose what was typed here. */}
                <Anchor component={Link} to={`/patient/${m.id}`} target="_blank" rel="noopener">
                  {m.name}
                </Anchor>{' '}
                · {identityDate(m.dob)} · {m.reasons.map((r) => t(`add.reasons.${r}`)).join(', ')}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <Modal
        opened={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title={t('add.leaveTitle')}
      >
        <Stack>
          <Text size="sm">{t('add.leaveBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
              {t('add.stay')}
            </Button>
            <Button color="danger" onClick={() => blocker.proceed?.()}>
              {t('add.leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Paper withBorder radius="md" p="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <PatientFields form={form} fields={STEPS[form.step - 1]?.fields ?? []} programId={programId} />
            <Group justify="space-between">
              <Button variant="default" onClick={form.back} disabled={form.step === 1}>
                {t('actions.back')}
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="add-patient-next">
                {form.isLastStep ? t('actions.create') : t('actions.next')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
