import type { AlertSettingsValues } from '@caredeck/contracts';
import {
  Alert,
  Button,
  Group,
  Loader,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { ALERTS_KEY, saveAlertSettings, useAlertSettings } from '../api';
import '../i18n';

type NumericKey = Exclude<keyof AlertSettingsValues, 'escalate_to_role'>;

/** The thresholds and timers of the program, in the groups a care team thinks in. */
const SECTIONS: {
  key: 'bloodPressure' | 'pulseOx' | 'devices' | 'adherence' | 'escalation';
  fields: NumericKey[];
}[] = [
  {
    key: 'bloodPressure',
    fields: ['systolic_high', 'diastolic_high', 'systolic_low', 'diastolic_low', 'window_minutes'],
  },
  { key: 'pulseOx', fields: ['oxygen_low', 'pulse_low', 'pulse_high'] },
  { key: 'devices', fields: ['reading_gap_hours', 'offline_minutes', 'heartbeat_minutes', 'low_servings'] },
  { key: 'adherence', fields: ['low_adherence', 'adherence_days'] },
  { key: 'escalation', fields: ['escalate_after_minutes'] },
];

/**
 * The program's alert thresholds: each field shows what applies now (a default, or the program's own) and
 * saving stores only the program's own values. Cohort and patient levels are set through the API.
 */
export function ThresholdsPanel({ programId }: { programId: number }) {
  const { t } = useTranslation('alerts');
  const settings = useAlertSettings(programId);
  const queryClient = useQueryClient();
  const [own, setOwn] = useState<Record<string, number | ''>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) setOwn({ ...(settings.data.data.own as Record<string, number>) });
  }, [settings.data]);

  if (settings.isError) return <Alert color="red">{t('thresholds.loadError')}</Alert>;
  if (!settings.data) return <Loader size="sm" aria-label={t('loading')} />;
  const { effective } = settings.data.data;

  const save = async () => {
    setBusy(true);
    try {
      const values = Object.fromEntries(
        Object.entries(own).filter(([, v]) => v !== ''),
      ) as AlertSettingsValues;
      await saveAlertSettings(programId, values);
      toast.success(t('thresholds.saved'));
      await queryClient.invalidateQueries({ queryKey: [...ALERTS_KEY, 'settings'] });
    } catch (error) {
      toastErrors(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} fz="h4">
        {t('thresholds.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('thresholds.hint')}
      </Text>
      <Stack gap="md">
        {SECTIONS.map((section) => (
          <section key={section.key} aria-labelledby={`thresholds-${section.key}`}>
            <Text id={`thresholds-${section.key}`} fw={600} size="sm" mb={4}>
              {t(`thresholds.sections.${section.key}`)}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }} spacing="sm">
              {section.fields.map((field) => (
                <NumberInput
                  key={field}
                  label={t(`thresholds.fields.${field}`)}
                  description={
                    own[field] === undefined || own[field] === ''
                      ? t('thresholds.inherited', { value: effective[field] })
                      : t('thresholds.programValue')
                  }
                  placeholder={String(effective[field])}
                  value={own[field] ?? ''}
                  min={0}
                  onChange={(v) => setOwn((o) => ({ ...o, [field]: v === '' ? '' : Number(v) }))}
                />
              ))}
            </SimpleGrid>
          </section>
        ))}
        <Group justify="flex-end">
          <Button onClick={() => void save()} loading={busy}>
            {t('thresholds.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
