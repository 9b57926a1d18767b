import { TIMER_WARNING_MINUTES } from '@caredeck/contracts';
import { Alert, Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockPlay, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { useCurrentUser } from '../../identity/api';
import { billingTimer, clock, isOverCap, isOverWarning, useElapsed, useRunningTimer } from '../timer';
import { RecordTimeModal } from './RecordTimeModal';
import '../i18n';

/**
 * The billing timer of the patient record (01 §4: a started flag and a warning flag). Start it on opening the
 * patient's data; stop it to record the time. It survives reloads and shows, on another patient's record, that
 * it runs elsewhere. Past an hour it warns; past 8 hours it will be recorded as 8 hours.
 */
export function BillingTimer({
  patient,
  programId,
}: {
  patient: { id: number; name: string };
  programId: number;
}) {
  const { t } = useTranslation('billing');
  const adminId = useCurrentUser()?.id ?? null;
  const timer = useRunningTimer(adminId);
  const elapsed = useElapsed(timer?.startedAt ?? null);
  const [stopped, setStopped] = useState<{ startedAt: string; endedAt: string } | null>(null);
  const [discarding, setDiscarding] = useState(false);
  const here = timer && timer.patientId === patient.id && timer.programId === programId;

  if (timer && !here)
    return (
      <Group gap="xs" data-testid="billing-timer-elsewhere">
        <Text size="sm" c="dimmed">
          {t('timer.elsewhere')}
        </Text>
        <Anchor component={Link} to={`/patient/${timer.patientId}`} size="sm">
          {t('timer.open')}
        </Anchor>
      </Group>
    );

  return (
    <Stack gap={6} align="flex-end">
      {!timer ? (
        <Button
          variant="outline"
          leftSection={<IconClockPlay size={16} aria-hidden />}
          disabled={adminId === null || programId === 0}
          onClick={() =>
            adminId !== null && billingTimer.start({ adminId, programId, patientId: patient.id })
          }
          data-testid="billing-timer-start"
        >
          {t('timer.start')}
        </Button>
      ) : (
        <Group gap="xs" wrap="nowrap">
          <Badge
            size="lg"
            variant="light"
            color={isOverWarning(elapsed) ? 'warning' : 'primary'}
            data-testid="billing-timer"
            data-started="true"
            data-warning={isOverWarning(elapsed) ? 'true' : 'false'}
            aria-label={t('timer.label', { time: clock(elapsed) })}
            role="timer"
          >
            {clock(elapsed)}
          </Badge>
          <Button
            leftSection={<IconPlayerStop size={16} aria-hidden />}
            onClick={() => setStopped({ startedAt: timer.startedAt, endedAt: new Date().toISOString() })}
            data-testid="billing-timer-stop"
          >
            {t('timer.stop')}
          </Button>
          <Button variant="subtle" color="gray" onClick={() => setDiscarding(true)}>
            {t('timer.discard')}
          </Button>
        </Group>
      )}
      {timer && isOverWarning(elapsed) && (
        <Alert
          color="warning"
          variant="light"
          icon={<IconAlertTriangle size={16} aria-hidden />}
          p="xs"
          maw={420}
          data-testid="billing-timer-warning"
        >
          <Text size="sm">{t('timer.warning', { minutes: TIMER_WARNING_MINUTES })}</Text>
          {isOverCap(elapsed) && <Text size="sm">{t('timer.capped')}</Text>}
        </Alert>
      )}
      {stopped && (
        <RecordTimeModal
          patient={patient}
          programId={programId}
          fromTimer={stopped}
          onClose={() => setStopped(null)}
          onSaved={() => billingTimer.clear()}
        />
      )}
      {discarding && timer && (
        <ConfirmModal
          title={t('timer.discardTitle')}
          body={<Text size="sm">{t('timer.discardBody', { time: clock(elapsed) })}</Text>}
          confirm={t('timer.discardConfirm')}
          onClose={() => setDiscarding(false)}
          onConfirm={async () => {
            billingTimer.clear();
            return { message: t('timer.discarded') };
          }}
        />
      )}
    </Stack>
  );
}
