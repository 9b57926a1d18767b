import { CARE_ROLES, type Device, SCHEDULE_MESSAGES } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Chip,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasAnyRole } from '../../../app/auth/roles';
import { DISPENSER_EVENTS_EVENT, onLiveEvent } from '../../../app/realtime';
import { isApiError } from '../../../shared/api-client';
import { ScrollTable, STICKY_ACTIONS } from '../../../shared/ui/ScrollTable';
import { toast } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import {
  useCreateSchedule,
  useFollowDispenser,
  usePatientDevices,
  usePatientSchedules,
  useStaffDispenser,
} from '../api';
import '../i18n';
import { AddDeviceDialog } from './AddDeviceDialog';
import { LastEvent } from './LastEvent';
import { NewSecretAction } from './NewSecretAction';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * The Devices tab of /patient/{id}: the patient's devices with their state, the dispenser's live events
 * (follow it: socket event dispenser.events) and its dose schedule (POST users/{id}/schedules).
 */
export function PatientDevicesPanel({ patientId }: { patientId: number }) {
  const { t } = useTranslation('devices');
  const devices = usePatientDevices(patientId);
  const user = useCurrentUser();
  const scope = useActiveScope();
  // Registering, and giving a device a new secret, need a care role in the patient's program (the record's
  // program: the active one).
  const canRegister = Boolean(
    user && scope && hasAnyRole(user, CARE_ROLES, { ...scope, enterpriseScope: false }),
  );
  const [adding, setAdding] = useState(false);
  if (devices.isError && !devices.data) return <Alert color="red">{t('patient.loadError')}</Alert>;
  if (!devices.data)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={t('loading')} />
      </Group>
    );
  const list = devices.data.data;
  const dispenser = list.find((d) => d.kind === 'dispenser') ?? null;
  return (
    <Stack gap="md" data-testid="patient-devices">
      {canRegister && scope && (
        <Group justify="flex-end">
          <Button onClick={() => setAdding(true)}>{t('register.add')}</Button>
        </Group>
      )}
      {adding && scope && (
        <AddDeviceDialog programId={scope.programId} patientId={patientId} onClose={() => setAdding(false)} />
      )}
      {devices.data.total > list.length && (
        <Text size="sm" c="dimmed" data-testid="devices-more">
          {t('patient.more', { shown: list.length, count: devices.data.total })}
        </Text>
      )}
      {list.length === 0 ? (
        <Text c="dimmed">{t('patient.none')}</Text>
      ) : (
        <ScrollTable label={t('patient.tableLabel')} minWidth={560}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('patient.device')}</Table.Th>
                <Table.Th>{t('columns.serial')}</Table.Th>
                <Table.Th>{t('columns.connection')}</Table.Th>
                <Table.Th>{t('columns.battery')}</Table.Th>
                <Table.Th>{t('columns.lastEvent')}</Table.Th>
                {canRegister && (
                  <Table.Th style={STICKY_ACTIONS}>
                    <VisuallyHidden>{t('patient.actions')}</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((d) => (
                <Table.Tr key={d.id} data-serial={d.serial}>
                  <Table.Td>
                    {t(`kinds.${d.kind}`)}
                    {d.dispenser_type ? ` · ${t('typeLabel', { type: d.dispenser_type })}` : ''}
                  </Table.Td>
                  <Table.Td>{d.serial}</Table.Td>
                  <Table.Td>
                    <Badge
                      color={d.connected ? 'teal' : d.online ? 'blue' : 'gray'}
                      variant={d.connected ? 'filled' : 'light'}
                    >
                      {d.connected ? t('connected') : d.online ? t('online') : t('offline')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{d.battery === null ? '–' : `${d.battery} %`}</Table.Td>
                  <Table.Td>
                    <LastEvent type={d.last_event_type} at={d.last_seen_at} />
                  </Table.Td>
                  {canRegister && (
                    <Table.Td style={STICKY_ACTIONS}>
                      <NewSecretAction device={d} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {dispenser && <LiveEvents dispenser={dispenser} />}
      {dispenser && <Schedule patientId={patientId} />}
    </Stack>
  );
}

type LiveEvent = { seq: number; type: string; at: string };

function LiveEvents({ dispenser }: { dispenser: Device }) {
  const { t, i18n } = useTranslation('devices');
  const detail = useStaffDispenser(dispenser.id);
  const follow = useFollowDispenser(dispenser);
  const [events, setEvents] = useState<LiveEvent[]>([]);
  useEffect(
    () =>
      onLiveEvent(DISPENSER_EVENTS_EVENT, (payload) => {
        const p = payload as { device_id?: number; events?: LiveEvent[] } | null;
        if (p?.device_id === dispenser.id && p.events)
          setEvents((current) => [...p.events!, ...current].slice(0, 20));
      }),
    [dispenser.id],
  );
  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(new Date(iso));
  // While the change is on its way the switch shows what was asked for.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const subscribed = wanted ?? detail.data?.subscribed ?? false;
  return (
    <Paper withBorder p="sm" radius="md">
      <Group justify="space-between">
        <Title order={3} fz="h5">
          {t('patient.live')}
        </Title>
        <Switch
          label={t('patient.follow')}
          checked={subscribed}
          disabled={!detail.data}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setWanted(on);
            follow.mutate(on, { onSettled: () => setWanted(null) });
          }}
        />
      </Group>
      <Text size="xs" c="dimmed" mb="xs">
        {subscribed ? t('patient.following') : t('patient.notFollowing')}
      </Text>
      {events.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('patient.noLive')}
        </Text>
      ) : (
        <Stack gap={2} data-testid="live-events">
          {events.map((e) => (
            <Text key={e.seq} size="sm">
              <Text span fw={600}>
                {t(`eventTypes.${e.type}`, { defaultValue: e.type })}
              </Text>{' '}
              <Text span c="dimmed" size="xs">
                {time(e.at)}
              </Text>
            </Text>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function Schedule({ patientId }: { patientId: number }) {
  const { t, i18n } = useTranslation('devices');
  const schedules = usePatientSchedules(patientId);
  const create = useCreateSchedule(patientId);
  const [times, setTimes] = useState('08:00, 20:00');
  const [weekdays, setWeekdays] = useState<string[]>(WEEKDAYS.map(String));
  const [error, setError] = useState<string | null>(null);
  const dayName = (d: number) =>
    new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
      weekday: 'short',
      timeZone: 'UTC',
    }).format(
      new Date(Date.UTC(2026, 1, 1 + d)), // 1 February 2026 is a Sunday
    );
  const sentAt = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(new Date(iso));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const list = times
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.length === 0 || list.some((s) => !TIME.test(s))) {
      setError(t('patient.timesInvalid'));
      return;
    }
    if (weekdays.length === 0) {
      setError(t('patient.daysRequired'));
      return;
    }
    setError(null);
    create.mutate(
      { times: list, weekdays: weekdays.map(Number) },
      {
        onSuccess: (res) => toast.success(res.message),
        // 02 §8: schedule errors show as a toast titled Error for 2.5 seconds.
        onError: (err) =>
          toast.error(isApiError(err) && err.status === 422 ? err.message : SCHEDULE_MESSAGES.failed, {
            title: t('patient.errorTitle'),
          }),
      },
    );
  };

  return (
    <Paper withBorder p="sm" radius="md">
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Title order={3} fz="h5">
            {t('patient.schedule')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('patient.scheduleHint')}
          </Text>
          <TextInput
            label={t('patient.times')}
            value={times}
            onChange={(e) => setTimes(e.currentTarget.value)}
            error={error}
            maxLength={100}
          />
          <Chip.Group multiple value={weekdays} onChange={setWeekdays}>
            <Group gap={6} aria-label={t('patient.weekdays')} role="group">
              {WEEKDAYS.map((d) => (
                <Chip key={d} value={String(d)} size="xs">
                  {dayName(d)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('patient.saveSchedule')}
            </Button>
          </Group>
          {(schedules.data?.data.length ?? 0) > 0 && (
            <Table data-testid="schedules">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('patient.times')}</Table.Th>
                  <Table.Th>{t('patient.weekdays')}</Table.Th>
                  <Table.Th>{t('columns.connection')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {schedules.data!.data.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{s.times.join(', ')}</Table.Td>
                    <Table.Td>
                      {s.weekdays.length === 7 ? t('patient.everyDay') : s.weekdays.map(dayName).join(', ')}
                    </Table.Td>
                    <Table.Td>
                      {t(`patient.status.${s.status}`)}
                      {s.sent_at && (
                        <Text size="xs" c="dimmed">
                          {sentAt(s.sent_at)}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
