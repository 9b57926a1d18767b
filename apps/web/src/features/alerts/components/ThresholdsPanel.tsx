import { type AlertSettingsValues, RULE_EDITOR_ROLES } from '@caredeck/contracts';
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
import { hasAnyRole } from '../../../app/auth/roles';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
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

/** Which level the panel sets: the program, one cohort (its patients), or one patient. */
export type ThresholdLevel = { cohort_id?: number; patient_id?: number };

/**
 * Alert thresholds of the program, a cohort or a patient: each field shows what applies now and where it
 * comes from (default, program, cohort, patient); saving stores only this level's own values, and an
 * emptied field inherits again. Staff who may not change thresholds see them read-only.
 */
export function ThresholdsPanel({ programId, level = {} }: { programId: number; level?: ThresholdLevel }) {
  const { t } = useTranslation('alerts');
  const settings = useAlertSettings(programId, level);
  const user = useCurrentUser();
  const scope = useActiveScope();
  const canEdit = Boolean(user && scope && hasAnyRole(user, RULE_EDITOR_ROLES, scope));
  const kind =
    level.patient_id !== undefined ? 'patient' : level.cohort_id !== undefined ? 'cohort' : 'program';
  const queryClient = useQueryClient();
  const [own, setOwn] = useState<Record<string, number | ''>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) setOwn({ ...(settings.data.data.own as Record<string, number>) });
  }, [settings.data]);

  if (settings.isError) return <Alert color="red">{t('thresholds.loadError')}</Alert>;
  if (!settings.data) return <Loader size="sm" aria-label={t('loading')} />;
  const { effective, source } = settings.data.data;

  const save = async () => {
    setBusy(true);
    try {
      const values = Object.fromEntries(
        Object.entries(own).filter(([, v]) => v !== ''),
      ) as AlertSettingsValues;
      await saveAlertSettings(programId, values, level);
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
        {t(`thresholds.hints.${kind}`)} {!canEdit && t('thresholds.readOnly')}
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
                      ? t('thresholds.inherited', {
                          value: effective[field],
                          source: t(`detail.sources.${(source[field] ?? 'default') as 'default'}`),
                        })
                      : t(`thresholds.own.${kind}`)
                  }
                  placeholder={String(effective[field])}
                  value={own[field] ?? ''}
                  min={0}
                  readOnly={!canEdit}
                  onChange={(v) => setOwn((o) => ({ ...o, [field]: v === '' ? '' : Number(v) }))}
                />
              ))}
            </SimpleGrid>
          </section>
        ))}
        {canEdit && (
          <Group justify="flex-end">
            <Button onClick={() => void save()} loading={busy}>
              {t('thresholds.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
