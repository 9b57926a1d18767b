import {
  type PatientRecord,
  type Regimen,
  type UpdateRegimenBody,
  updateRegimenBody,
} from '@caredeck/contracts';
import { isoDate, localDateOf, resolveDisplayZone } from '@caredeck/domain';
import { Button, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../shared/ui/DateField';
import { TagInput } from '../../../shared/ui/TagInput';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { useUpdateRegimen } from '../api';
import '../i18n';
import {
  apiIssues,
  contractIssues,
  dayStart,
  type FieldIssue,
  placeIssues,
  useScheduleTimes,
} from './scheduleFields';

type Values = { name: string; num: string; lockout: string; end: string };

const FIELD_OF: Record<string, keyof Values | 'times'> = {
  name: 'name',
  num: 'num',
  lockout_time: 'lockout',
  end_at: 'end',
  time: 'times',
};

/**
 * Changes a regimen's schedule (PUT regimens/{r}): its name, times of day on the patient's clock, servings per
 * dose, lockout after a dose and last day. The contract's rules run first; the server's 422 shows under the fields.
 */
export function EditRegimenModal({
  regimen,
  patient,
  onClose,
}: {
  regimen: Regimen;
  patient: PatientRecord;
  onClose: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const zone = resolveDisplayZone(patient.time_zone);
  const update = useUpdateRegimen(patient.id);
  const timesField = useScheduleTimes(regimen.time, t('medication.timeInvalid'));
  const { times } = timesField;
  const start = isoDate(localDateOf(Date.parse(regimen.scheduled_at), zone));
  const form = useForm<Values>(
    {
      name: regimen.name,
      num: String(regimen.num),
      lockout: String(regimen.lockout_time),
      end: regimen.end_at ? isoDate(localDateOf(Date.parse(regimen.end_at) - 1, zone)) : '',
    },
    { name: [required], num: [required], lockout: [required] },
  );

  const showErrors = (issues: FieldIssue[]) =>
    placeIssues(issues, FIELD_OF, form.setErrors, timesField.setError);

  const submit = form.onSubmit(async (v) => {
    if (!timesField.valid()) return;
    if (v.end && v.end < start) {
      form.setErrors({ end: t('medication.endBeforeStart') });
      return;
    }
    const body: UpdateRegimenBody = {
      name: v.name,
      time: times,
      num: Number(v.num),
      lockout_time: Number(v.lockout),
      end_at: v.end ? dayStart(v.end, zone, 1) : null,
      // No time left: taken as needed; times given to an as-needed regimen: a daily one.
      ...(times.length === 0
        ? { repeat: 'as_needed' as const }
        : regimen.repeat === 'as_needed'
          ? { repeat: 'daily' as const }
          : {}),
    };
    const issues = contractIssues(updateRegimenBody.safeParse(body));
    if (issues.length > 0 && showErrors(issues)) return;
    try {
      await update.mutateAsync({ regimenId: regimen.id, body });
      toast.success(t('regimenEdit.saved'));
      onClose();
    } catch (error) {
      if (!showErrors(apiIssues(error))) toastErrors(error);
    }
  });

  return (
    <Modal opened onClose={onClose} title={t('regimenEdit.title', { name: regimen.name })}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextField
            label={t('regimenEdit.name')}
            required
            {...form.field('name')}
            data-testid="regimen-name"
          />
          <TagInput
            label={t('medication.times')}
            description={t('medication.timesHint', { zone })}
            value={times}
            onChange={timesField.change}
            error={timesField.error}
            data-testid="regimen-times"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField
              label={t('medication.num')}
              type="number"
              min={1}
              max={20}
              required
              {...form.field('num')}
              data-testid="regimen-num"
            />
            <TextField
              label={t('regimenEdit.lockout')}
              type="number"
              min={0}
              max={1440}
              required
              {...form.field('lockout')}
              data-testid="regimen-lockout"
            />
          </SimpleGrid>
          <DateField
            label={t('medication.endDate')}
            description={t('medication.endHint')}
            min={start}
            {...form.field('end')}
            data-testid="regimen-end"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={update.isPending} data-testid="regimen-save">
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
