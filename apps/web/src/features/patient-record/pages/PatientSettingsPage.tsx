import type { NotificationSettings } from '@caredeck/contracts';
import { Anchor, Center, Group, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { ThresholdsPanel } from '../../alerts/components/ThresholdsPanel';
import { useActiveScope } from '../../tenancy/scope';
import { useNotificationSettings, usePatient } from '../api';
import { AppAccountPanel } from '../components/AppAccountPanel';
import '../i18n';

const CHANNELS = ['sms', 'email', 'push', 'voice'] as const;

/**
 * /patient/{patientId}/settings: which channels may reach the patient (PUT users/{id}/settings/notifications)
 * the patient-app sign-in (PUT users/{id}/password) and the patient's own alert thresholds.
 */
export function PatientSettingsPage() {
  const { t } = useTranslation('patientRecord');
  const scope = useActiveScope();
  const id = Number(useParams().patientId);
  const record = usePatient(scope?.programId ?? 0, id);
  const save = useNotificationSettings(id);
  if (!record.data)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const patient = record.data;
  const change = (channel: keyof NotificationSettings, value: boolean) =>
    save.mutate(
      { [channel]: value },
      {
        onSuccess: () => toast.success(t('toasts.settingsUpdated')),
        onError: (error) => toastErrors(error),
      },
    );
  return (
    <Stack gap="md" maw={960}>
      <Anchor component={Link} to={`/patient/${patient.id}`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {patient.name}
        </Group>
      </Anchor>
      <Title order={1} fz="h2">
        {t('settings.title')}
      </Title>
      <Text c="dimmed">{t('settings.hint', { name: patient.name })}</Text>
      <Paper withBorder radius="md" p="md">
        <Stack>
          {CHANNELS.map((channel) => (
            <Switch
              key={channel}
              label={t(`settings.${channel}`)}
              checked={patient.notification_settings[channel]}
              disabled={save.isPending}
              onChange={(event) => change(channel, event.currentTarget.checked)}
              data-testid={`channel-${channel}`}
            />
          ))}
        </Stack>
      </Paper>
      <AppAccountPanel patient={patient} />
      {scope?.programId ? (
        <ThresholdsPanel programId={scope.programId} level={{ patient_id: patient.id }} />
      ) : null}
    </Stack>
  );
}
