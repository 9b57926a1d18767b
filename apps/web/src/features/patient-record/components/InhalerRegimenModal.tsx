import { type InhalerRegimenBody, inhalerRegimenBody, type PatientRecord } from '@caredeck/contracts';
import { isoDate, localDateOf, resolveDisplayZone } from '@caredeck/domain';
import { Autocomplete, Button, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../shared/ui/DateField';
import { TagInput } from '../../../shared/ui/TagInput';
import { TextField } from '../../../shared/ui/TextField';
import { toast } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { usePatientDevices } from '../../devices/api';
import { useInhalerRegimen } from '../api';
import '../i18n';
import {
  apiIssues,
  contractIssues,
  dayStart,
  type FieldIssue,
  placeIssues,
  useScheduleTimes,
} from './scheduleFields';

type Values = { name: string; serial: string; num: string; start: string };

const FIELD_OF: Record<string, keyof Values | 'times'> = {
  name: 'name',
  device_serial: 'serial',
  num: 'num',
  scheduled_at: 'start',
  time: 'times',
};

/**
 * A smart inhaler regimen (01 §7 `regimens/inhaler`): the inhaler's serial, puffs per dose and, for a controller
 * inhaler, its times of day on the patient's clock (none: a rescue inhaler used as needed). Any failure shows
 * 'Unable to create Inhaler Regimen' (02 §8), and a refused field its message under the field.
 */
export function InhalerRegimenModal({
  patient,
  programId,
  onClose,
}: {
  patient: PatientRecord;
  programId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const zone = resolveDisplayZone(patient.time_zone);
  const create = useInhalerRegimen(programId, patient.id);
  // The patient's own inhalers are offered; another serial can still be typed.
  const devices = usePatientDevices(patient.id);
  const inhalers = (devices.data?.data ?? []).filter((d) => d.kind === 'inhaler').map((d) => d.serial);
  const timesField = useScheduleTimes([], t('medication.timeInvalid'));
  const { times } = timesField;
  const form = useForm<Values>(
    { name: t('inhaler.defaultName'), serial: '', num: '2', start: isoDate(localDateOf(Date.now(), zone)) },
    { name: [required], serial: [required], num: [required], start: [required] },
  );

  const showErrors = (issues: FieldIssue[]) =>
    placeIssues(issues, FIELD_OF, form.setErrors, timesField.setError);

  const submit = form.onSubmit(async (v) => {
    if (!timesField.valid()) return;
    const body: InhalerRegimenBody = {
      name: v.name,
      device_serial: v.serial,
      repeat: times.length ? 'daily' : 'as_needed',
      time: times,
      num: Number(v.num),
      scheduled_at: dayStart(v.start, zone),
    };
    const issues = contractIssues(inhalerRegimenBody.safeParse(body));
    if (issues.length > 0 && showErrors(issues)) return;
    try {
      await create.mutateAsync(body);
      toast.success(t('inhaler.created'));
      onClose();
    } catch (error) {
      toast.error(t('inhaler.failed'));
      showErrors(apiIssues(error));
    }
  });

  return (
    <Modal opened onClose={onClose} title={t('inhaler.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextField label={t('inhaler.name')} required {...form.field('name')} data-testid="inhaler-name" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Autocomplete
              label={t('inhaler.serial')}
              required
              data={inhalers}
              value={form.values.serial}
              onChange={(value) => form.setValue('serial', value)}
              error={form.errors.serial}
              data-testid="inhaler-serial"
            />
            <TextField
              label={t('inhaler.puffs')}
              type="number"
              min={1}
              max={20}
              required
              {...form.field('num')}
              data-testid="inhaler-puffs"
            />
          </SimpleGrid>
          <TagInput
            label={t('medication.times')}
            description={t('inhaler.timesHint', { zone })}
            value={times}
            onChange={timesField.change}
            error={timesField.error}
            data-testid="inhaler-times"
          />
          <DateField label={t('medication.start')} required {...form.field('start')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="inhaler-save">
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
