import {
  type CreateRegimenBody,
  createRegimenBody,
  type OrderBody,
  orderBody,
  type PatientRecord,
} from '@caredeck/contracts';
import { isoDate, localDateOf, resolveDisplayZone } from '@caredeck/domain';
import { Autocomplete, Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { TagInput } from '../../../shared/ui/TagInput';
import { TextAreaField } from '../../../shared/ui/TextAreaField';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { usePatientDevices } from '../../devices/api';
import { useDrugAttribute, useDrugSearch, useOrderAndSchedule } from '../api';
import {
  apiIssues,
  contractIssues,
  dayStart,
  type FieldIssue,
  placeIssues,
  useScheduleTimes,
} from './scheduleFields';
import '../i18n';

type OrderValues = {
  drug: string;
  strength: string;
  form: string;
  route: string;
  quantity: string;
  num: string;
  start: string;
  end: string;
  instructions: string;
  device: string;
};

/** The form field that shows a server (or contract) error of each order and regimen field. */
const FIELD_OF: Record<string, keyof OrderValues | 'times'> = {
  drug_name: 'drug',
  name: 'drug',
  strength: 'strength',
  form: 'form',
  route: 'route',
  quantity: 'quantity',
  instructions: 'instructions',
  num: 'num',
  scheduled_at: 'start',
  end_at: 'end',
  time: 'times',
  device_serial: 'device',
};

const capitalise = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * Orders a medication and schedules its regimen (01 §3, §7). The medication, strength, form and route come
 * from the drug catalogue as the user types (free text stays allowed); the days start and end on the patient's
 * clock. The schedule is checked with the contract's own rules before anything is sent, and every error shows
 * under its field: nothing typed is lost.
 */
export function OrderForm({
  patient,
  programId,
  onDone,
}: {
  patient: PatientRecord;
  programId: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const zone = resolveDisplayZone(patient.time_zone);
  const order = useOrderAndSchedule(programId, patient.id);
  const devices = usePatientDevices(patient.id);
  const dispensers = (devices.data?.data ?? []).filter((d) => d.kind === 'dispenser');
  const timesField = useScheduleTimes(['08:00'], t('medication.timeInvalid'));
  const { times } = timesField;
  const form = useForm<OrderValues>(
    {
      drug: '',
      strength: '',
      form: '',
      route: '',
      quantity: '',
      num: '1',
      start: isoDate(localDateOf(Date.now(), zone)),
      end: '',
      instructions: '',
      device: '',
    },
    { drug: [required], num: [required], start: [required] },
  );
  const [drugQuery] = useDebouncedValue(form.values.drug.trim(), 300);
  const drugs = useDrugSearch(programId, drugQuery);
  // Generic names are lower case in the public data; the plan shows them as a name.
  const found = drugQuery.length >= 2 ? (drugs.data?.data ?? []) : [];
  const drugNames = [...new Set(found.map((d) => capitalise(d.name)))];
  const brands = new Map(found.map((d) => [capitalise(d.name), d.brands]));
  const strengths = useDrugAttribute(programId, drugQuery, 'strengths');
  const forms = useDrugAttribute(programId, drugQuery, 'forms');
  const routes = useDrugAttribute(programId, drugQuery, 'routes');
  // A drug the catalogue knows in one form and by one route fills them in (still editable).
  const onlyForm = forms.data?.data.length === 1 ? forms.data.data[0] : undefined;
  const onlyRoute = routes.data?.data.length === 1 ? routes.data.data[0] : undefined;
  const { setValue } = form;
  const values = useRef(form.values);
  values.current = form.values;
  // Once per drug and field: a value the user cleared stays cleared.
  const filled = useRef({ form: '', route: '' });
  // Nothing changes under the user once they pressed Save (a retry must send the same order).
  const attempted = useRef(false);
  useEffect(() => {
    if (attempted.current) return;
    const drug = drugQuery.toLowerCase();
    if (onlyForm && filled.current.form !== drug) {
      filled.current.form = drug;
      if (values.current.form === '') setValue('form', onlyForm);
    }
    if (onlyRoute && filled.current.route !== drug) {
      filled.current.route = drug;
      if (values.current.route === '') setValue('route', onlyRoute);
    }
  }, [drugQuery, onlyForm, onlyRoute, setValue]);

  const showErrors = (issues: FieldIssue[]) =>
    placeIssues(issues, FIELD_OF, form.setErrors, timesField.setError);

  const submit = form.onSubmit(async (v) => {
    attempted.current = true;
    if (!timesField.valid()) return;
    if (v.end && v.end < v.start) {
      form.setErrors({ end: t('medication.endBeforeStart') });
      return;
    }
    const orderInput: OrderBody = {
      drug_name: v.drug,
      strength: v.strength || null,
      form: v.form || null,
      route: v.route || null,
      quantity: v.quantity ? Number(v.quantity) : null,
      instructions: v.instructions.trim() || null,
    };
    const regimenInput: CreateRegimenBody = {
      name: [v.drug, v.strength].filter(Boolean).join(' '),
      repeat: times.length ? 'daily' : 'as_needed',
      time: times,
      num: Number(v.num),
      scheduled_at: dayStart(v.start, zone),
      // The end date is the last day of the regimen: it ends when the next day starts.
      end_at: v.end ? dayStart(v.end, zone, 1) : null,
      // Dispensed by one of the patient's Medesto dispensers: a device-order regimen.
      ...(v.device ? { type: 'medesto-device' as const, device_serial: v.device } : {}),
    };
    // The contract's rules, here, before the order is made (01 §5: a form submits only when valid).
    const issues = contractIssues(orderBody.safeParse(orderInput), createRegimenBody.safeParse(regimenInput));
    if (issues.length > 0 && showErrors(issues)) return;
    try {
      await order.mutateAsync({ order: orderInput, regimen: regimenInput });
      toast.success(t('medication.orderCreated'));
      onDone();
    } catch (error) {
      // A dispenser that already runs a regimen answers 409 (02 §8): said under the dispenser field, no toast.
      if (isApiError(error, 409) && v.device) {
        form.setErrors({ device: t('medication.dispenserBusy') });
        return;
      }
      if (!showErrors(apiIssues(error))) toastErrors(error);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Autocomplete
          label={t('medication.drug')}
          description={t('medication.drugHint')}
          required
          data={drugNames}
          filter={({ options }) => options}
          renderOption={({ option }) => (
            <Stack gap={0}>
              <Text size="sm">{option.value}</Text>
              {(brands.get(option.value) ?? []).length > 0 ? (
                <Text size="xs" c="dimmed">
                  {(brands.get(option.value) ?? []).join(', ')}
                </Text>
              ) : null}
            </Stack>
          )}
          limit={20}
          value={form.values.drug}
          onChange={(value) => form.setValue('drug', value)}
          error={form.errors.drug}
          data-testid="order-drug"
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Autocomplete
            label={t('medication.strength')}
            data={strengths.data?.data ?? []}
            limit={30}
            value={form.values.strength}
            onChange={(value) => form.setValue('strength', value)}
            error={form.errors.strength}
            data-testid="order-strength"
          />
          <Autocomplete
            label={t('medication.form')}
            data={forms.data?.data ?? []}
            value={form.values.form}
            onChange={(value) => form.setValue('form', value)}
            error={form.errors.form}
            data-testid="order-form"
          />
          <Autocomplete
            label={t('medication.route')}
            data={routes.data?.data ?? []}
            value={form.values.route}
            onChange={(value) => form.setValue('route', value)}
            error={form.errors.route}
            data-testid="order-route"
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            label={t('medication.quantity')}
            type="number"
            min={1}
            {...form.field('quantity')}
            data-testid="order-quantity"
          />
          <TextField
            label={t('medication.num')}
            type="number"
            min={1}
            max={20}
            required
            {...form.field('num')}
            data-testid="order-num"
          />
        </SimpleGrid>
        <TagInput
          label={t('medication.times')}
          description={t('medication.timesHint', { zone })}
          value={times}
          onChange={timesField.change}
          error={timesField.error}
          data-testid="order-times"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DateField
            label={t('medication.start')}
            required
            {...form.field('start')}
            data-testid="order-start"
          />
          <DateField
            label={t('medication.endDate')}
            description={t('medication.endHint')}
            min={form.values.start || undefined}
            {...form.field('end')}
            data-testid="order-end"
          />
        </SimpleGrid>
        {dispensers.length > 0 ? (
          <Select
            label={t('medication.dispenser')}
            data={[
              { value: '', label: t('medication.noDispenser') },
              ...dispensers.map((d) => ({ value: d.serial, label: d.serial })),
            ]}
            value={form.values.device}
            onChange={(value) => form.setValue('device', value ?? '')}
            error={form.errors.device}
            allowDeselect={false}
            data-testid="order-device"
          />
        ) : null}
        <TextAreaField
          label={t('medication.instructions')}
          maxLength={2000}
          autosize
          minRows={2}
          {...form.field('instructions')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={order.isPending} data-testid="order-save">
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
