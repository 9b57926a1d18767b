import { type InhalerRegimenBody, inhalerRegimenBody, type PatientRecord } from '@caredeck/contracts';
import { isoDate, localDateOf, resolveDisplayZone } from '@caredeck/domain';
import { Autocomplete, Button, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { TagInput } from '../../../shared/ui/TagInput';
import { TextField } from '../../../shared/ui/TextField';
import { toast } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { usePatientDevices } from '../../devices/api';
import { useInhalerRegimen } from '../api';
import '../i18n';
import { dayStart, normaliseTime, TIME } from './OrderForm';

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
  const [times, setTimes] = useState<string[]>([]);
  const [timesError, setTimesError] = useState<string | undefined>();
  const form = useForm<Values>(
    { name: t('inhaler.defaultName'), serial: '', num: '2', start: isoDate(localDateOf(Date.now(), zone)) },
    { name: [required], serial: [required], num: [required], start: [required] },
  );

  const showErrors = (issues: { field: string; message: string }[]) => {
    const found: Partial<Values> = {};
    let timeMessage: string | undefined;
    for (const { field, message } of issues) {
      const target = FIELD_OF[field.split('.')[0] ?? field];
      if (target === 'times') timeMessage ??= message;
      else if (target && !found[target]) found[target] = message;
    }
    form.setErrors(found);
    setTimesError(timeMessage);
    return Object.keys(found).length > 0 || timeMessage !== undefined;
  };

  const changeTimes = (tags: string[]) => {
    const next = [...new Set(tags.map(normaliseTime))].sort();
    setTimes(next);
    setTimesError(next.some((time) => !TIME.test(time)) ? t('medication.timeInvalid') : undefined);
  };

  const submit = form.onSubmit(async (v) => {
    if (times.some((time) => !TIME.test(time))) {
      setTimesError(t('medication.timeInvalid'));
      return;
    }
    const body: InhalerRegimenBody = {
      name: v.name,
      device_serial: v.serial,
      repeat: times.length ? 'daily' : 'as_needed',
      time: times,
      num: Number(v.num),
      scheduled_at: dayStart(v.start, zone),
    };
    const issues = (inhalerRegimenBody.safeParse(body).error?.issues ?? []).map((issue) => ({
      field: String(issue.path[0] ?? ''),
      message: issue.message,
    }));
    if (issues.length > 0 && showErrors(issues)) return;
    try {
      await create.mutateAsync(body);
      toast.success(t('inhaler.created'));
      onClose();
    } catch (error) {
      toast.error(t('inhaler.failed'));
      if (isApiError(error))
        showErrors(
          Object.entries(error.fieldErrors).map(([field, list]) => ({ field, message: list[0] ?? '' })),
        );
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
            onChange={changeTimes}
            error={timesError}
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
