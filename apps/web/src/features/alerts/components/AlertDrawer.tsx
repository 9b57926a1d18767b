import type { AlertDetail } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Loader,
  Menu,
  Stack,
  Table,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../../shared/ui/toasts';
import { ALERTS_KEY, type AlertStep, alertActions, SNOOZE_CHOICES, useAlertDetail } from '../api';
import { AssignMenu } from './AssignMenu';
import '../i18n';

const SIGNS = { '>=': '≥', '<=': '≤', '<': '<', '>': '>' } as const;

/** One alert: why it fired (the compared averages, the readings, where the thresholds came from), its history and actions. */
export function AlertDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('alerts');
  const detail = useAlertDetail(id);
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="lg" title={t('detail.title')}>
      {detail.isError ? (
        <Alert color="red">{t('detail.error')}</Alert>
      ) : !detail.data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('detail.loading')} />
        </Group>
      ) : (
        <AlertView alert={detail.data.data} />
      )}
    </Drawer>
  );
}

function AlertView({ alert }: { alert: AlertDetail }) {
  const { t, i18n } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const at = (v: string) => time.format(new Date(v));
  const open = alert.status !== 'resolved';

  const run = async (action: AlertStep, done: (count: number) => string) => {
    setBusy(true);
    try {
      toast.success(done((await action()).count));
    } catch {
      toast.error(t('toasts.backendError'));
    } finally {
      setBusy(false);
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
    }
  };

  const sources = Object.values(alert.reason.settings_source ?? {});
  const levels = [...new Set(sources)];
  return (
    <Stack gap="md">
      <div>
        <Text size="sm" c="dimmed">
          {t(`types.${alert.type}`)}
        </Text>
        <Title order={2} fz="h3">
          <Link to={`/patient/${alert.patient.id}`}>{alert.patient.name}</Link>
        </Title>
        <Group gap="xs" mt={4}>
          <Badge variant="light" style={{ color: 'var(--mantine-color-text)' }}>
            {t(`status.${alert.status}`)}
          </Badge>
          {alert.resolution && <Text size="sm">{t(`resolution.${alert.resolution}`)}</Text>}
          {alert.snoozed_until && (
            <Text size="sm">{t('detail.snoozedUntil', { until: at(alert.snoozed_until) })}</Text>
          )}
          {alert.assigned_admin && (
            <Text size="sm" data-testid="alert-assignee">
              {t('detail.assignedTo', { name: alert.assigned_admin.name })}
            </Text>
          )}
          {alert.escalated_to_role && (
            <Text size="sm">{t('detail.escalatedTo', { role: alert.escalated_to_role })}</Text>
          )}
        </Group>
      </div>
      <section aria-labelledby="alert-why">
        <Title order={3} fz="h5" id="alert-why">
          {t('detail.why')}
        </Title>
        <Text data-testid="alert-summary">{alert.summary}</Text>
        {alert.reason.checks && (
          <Stack gap={2} mt={4}>
            {alert.reason.checks.map((c) => (
              <Text key={`${c.measure}${c.comparison}`} size="sm" c={c.breached ? undefined : 'dimmed'}>
                {t('detail.check', {
                  measure: c.measure,
                  average: c.average,
                  comparison: SIGNS[c.comparison],
                  threshold: c.threshold,
                })}
                {c.count > 1 && ` (${t('detail.averageOf', { count: c.count })})`}
              </Text>
            ))}
          </Stack>
        )}
        {levels.length > 0 && (
          <Text size="xs" c="dimmed" mt={4}>
            {t('detail.thresholdsFrom')} {levels.map((l) => t(`detail.sources.${l as 'default'}`)).join(', ')}
          </Text>
        )}
        <Text size="sm" mt={4}>
          {t('detail.first')}: {at(alert.first_at)} · {t('detail.lastSeen')}: {at(alert.last_at)} ·{' '}
          {t('detail.occurrences', { count: alert.occurrences })}
        </Text>
      </section>
      {alert.reason.readings && alert.reason.readings.length > 0 && (
        <section aria-labelledby="alert-readings">
          <Title order={3} fz="h5" id="alert-readings">
            {t('detail.readings')}
          </Title>
          <Table withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              {alert.reason.readings.map((r) => (
                <Table.Tr key={`${r.type}${r.at}`}>
                  <Table.Td>{at(r.at)}</Table.Td>
                  <Table.Td>{r.type}</Table.Td>
                  <Table.Td>
                    {r.value} {r.unit ?? ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </section>
      )}
      {alert.reason.medications && alert.reason.medications.length > 0 && (
        <section aria-labelledby="alert-medications">
          <Title order={3} fz="h5" id="alert-medications">
            {t('detail.medications')}
          </Title>
          <Table withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              {alert.reason.medications.map((m) => (
                <Table.Tr key={m.regimen.id}>
                  <Table.Td>{m.regimen.name}</Table.Td>
                  <Table.Td>{m.adherence} %</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </section>
      )}
      {open && (
        <Group gap="xs">
          {alert.status !== 'acknowledged' && (
            <Button
              size="xs"
              loading={busy}
              onClick={() =>
                void run(
                  () => alertActions.acknowledge([alert.id]),
                  (count) => t('toasts.acknowledged', { count }),
                )
              }
            >
              {t('actions.acknowledge')}
            </Button>
          )}
          <Menu>
            <Menu.Target>
              <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} />}>
                {t('actions.snooze')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {SNOOZE_CHOICES.map((m) => (
                <Menu.Item
                  key={m}
                  onClick={() =>
                    void run(
                      () => alertActions.snooze([alert.id], Number(m)),
                      (count) => t('toasts.snoozed', { count, until: t(`actions.snoozeFor.${m}`) }),
                    )
                  }
                >
                  {t(`actions.snoozeFor.${m}`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <AssignMenu
            programId={alert.program_id}
            disabled={busy}
            onAssign={(adminId) =>
              void run(
                () => alertActions.assign([alert.id], adminId),
                (count) => t('toasts.assigned', { count }),
              )
            }
          />
          {confirming ? (
            <Button
              size="xs"
              color="danger"
              loading={busy}
              onClick={() =>
                void run(
                  () => alertActions.clear([alert.id]),
                  (count) => t('toasts.cleared', { count }),
                )
              }
            >
              {t('confirm.clearTitle', { count: 1 })}
            </Button>
          ) : (
            <Button size="xs" color="danger" variant="light" onClick={() => setConfirming(true)}>
              {t('actions.clear')}
            </Button>
          )}
          <Button size="xs" variant="subtle" component={Link} to={`/patient/${alert.patient.id}`}>
            {t('actions.openPatient')}
          </Button>
        </Group>
      )}
      <section aria-labelledby="alert-history">
        <Title order={3} fz="h5" id="alert-history" mb="xs">
          {t('detail.history')}
        </Title>
        <Timeline bulletSize={14} lineWidth={2}>
          {alert.history.map((h) => (
            <Timeline.Item key={`${h.at}${h.action}`} title={t(`detail.actions.${h.action}`)}>
              <Text size="xs" c="dimmed">
                {at(h.at)} · {h.admin?.name ?? t('detail.byEngine')}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      </section>
    </Stack>
  );
}
