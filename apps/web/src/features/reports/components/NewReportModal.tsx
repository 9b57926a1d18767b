import {
  type NewReport,
  RECURRENCES,
  REPORT_FORMATS,
  REPORT_PERIODS,
  type ReportTypeInfo,
} from '@caredeck/contracts';
import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { toast } from '../../../shared/ui/toasts';
import { type Audience, type CreateReport, useDestinations } from '../api';

type Form = {
  type: string | null;
  name: string;
  format: 'xlsx' | 'csv';
  period: NewReport['period'] & string;
  start: string;
  end: string;
  recurrence: (typeof RECURRENCES)[number];
  destination: string | null;
};

const EMPTY: Form = {
  type: null,
  name: '',
  format: 'xlsx',
  period: 'last_30_days',
  start: '',
  end: '',
  recurrence: 'none',
  destination: null,
};

/** Asks for a report: type, file format, period (a preset, or dates for a one-off), recurrence, destination. */
export function NewReportModal({
  opened,
  onClose,
  audience,
  types,
  enterpriseId,
  onCreate,
}: {
  opened: boolean;
  onClose: () => void;
  audience: Audience;
  types: ReportTypeInfo[];
  enterpriseId: number | null;
  onCreate: CreateReport;
}) {
  const { t } = useTranslation('reports');
  const common = useTranslation().t;
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const destinations = useDestinations(audience === 'care' ? enterpriseId : null);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const close = () => {
    setForm(EMPTY);
    setErrors({});
    onClose();
  };
  const chosen = types.find((x) => x.type === form.type);

  const submit = async () => {
    if (!form.type) {
      setErrors({ type: t('form.typeRequired') });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await onCreate({
        type: form.type as NewReport['type'],
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        format: form.format,
        period: form.period,
        ...(form.period === 'custom' ? { start: form.start || null, end: form.end || null } : {}),
        recurrence: form.recurrence,
        destination_id: form.destination ? Number(form.destination) : null,
      });
      toast.success(t('requested'));
      close();
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v ?? ''])));
      else toast.error(t('requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('form.title')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Select
            label={t('form.type')}
            data={types.map((x) => ({ value: x.type, label: t(`types.${x.type}`) }))}
            value={form.type}
            onChange={(value) => set({ type: value })}
            error={errors.type}
            required
            data-autofocus
          />
          {chosen && (
            <Text size="sm" c="dimmed">
              {t(`descriptions.${chosen.type}`)}
            </Text>
          )}
          <TextInput
            label={t('form.name')}
            description={t('form.nameHint')}
            value={form.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={errors.name}
            maxLength={120}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="report-format">
              {t('form.format')}
            </Text>
            <SegmentedControl
              aria-labelledby="report-format"
              value={form.format}
              onChange={(value) => set({ format: value as Form['format'] })}
              data={REPORT_FORMATS.map((f) => ({ value: f, label: t(`formats.${f}`) }))}
              w="fit-content"
            />
          </Stack>
          <Select
            label={t('form.period')}
            data={REPORT_PERIODS.map((p) => ({ value: p, label: t(`periods.${p}`) }))}
            value={form.period}
            onChange={(value) =>
              set({
                period: (value ?? 'last_30_days') as Form['period'],
                ...(value === 'custom' ? { recurrence: 'none' } : {}),
              })
            }
            allowDeselect={false}
            error={errors.period}
          />
          {form.period === 'custom' && (
            <Group grow>
              <DateField
                label={t('form.start')}
                value={form.start}
                onChange={(day) => set({ start: day })}
                error={errors.start}
                required
              />
              <DateField
                label={t('form.end')}
                value={form.end}
                min={form.start || undefined}
                onChange={(day) => set({ end: day })}
                error={errors.end}
                required
              />
            </Group>
          )}
          <Select
            label={t('form.recurrence')}
            description={form.period === 'custom' ? t('form.recurrenceCustom') : t('form.recurrenceHint')}
            data={RECURRENCES.map((r) => ({ value: r, label: t(`recurrences.${r}`) }))}
            value={form.recurrence}
            onChange={(value) => set({ recurrence: (value ?? 'none') as Form['recurrence'] })}
            disabled={form.period === 'custom'}
            allowDeselect={false}
            error={errors.recurrence}
          />
          {audience === 'care' && enterpriseId !== null && (
            <Select
              label={t('form.destination')}
              description={t('form.destinationHint')}
              placeholder={t('form.downloadOnly')}
              data={(destinations.data?.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
              value={form.destination}
              onChange={(value) => set({ destination: value })}
              clearable
              error={errors.destination_id}
            />
          )}
          {Object.keys(errors).length > 0 && !errors.type && (
            <Alert role="alert" color="red">
              {t('form.fixErrors')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {common('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
