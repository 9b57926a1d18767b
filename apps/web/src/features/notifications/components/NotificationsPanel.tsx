import {
  type NotificationSettings,
  PATIENT_NOTIFICATION_TYPES,
  type PatientNotification,
  type PatientNotificationType,
} from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  Pagination,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSend, IconVolume } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { localToday } from '../../../shared/ui/period';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import {
  NOTIFICATIONS_KEY,
  notificationCalls,
  useAudioAssignments,
  useAudioLibrary,
  useNotificationHistory,
} from '../api';
import { useChannelLabels } from '../channels';
import { RemindersSection } from './RemindersSection';
import '../i18n';

const STATUS_COLORS: Record<PatientNotification['status'], string> = {
  queued: 'gray.8',
  sent: 'blue.9',
  delivered: 'teal.9',
  failed: 'red.9',
  blocked: 'red.9',
};

type Patient = {
  id: number;
  first_name: string;
  notification_settings: NotificationSettings;
};

/**
 * A patient's notifications: send one by SMS, e-mail or push (only on a channel they agreed to, or after
 * recording that they just did), what was sent with its delivery state, and their audio reminders.
 */
export function NotificationsPanel({
  programId,
  patient,
  onSettingsChanged,
}: {
  programId: number;
  patient: Patient;
  onSettingsChanged: () => void;
}) {
  return (
    <Stack gap="lg">
      <SendForm programId={programId} patient={patient} onSettingsChanged={onSettingsChanged} />
      <History programId={programId} patientId={patient.id} />
      <RemindersSection programId={programId} patientId={patient.id} />
      <AudioReminders programId={programId} patientId={patient.id} />
    </Stack>
  );
}

function SendForm({
  programId,
  patient,
  onSettingsChanged,
}: {
  programId: number;
  patient: Patient;
  onSettingsChanged: () => void;
}) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const [type, setType] = useState<PatientNotificationType>('sms');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const optedIn = patient.notification_settings[type];
  const channels = useChannelLabels();

  const send = async () => {
    setBusy(true);
    setErrors({});
    try {
      const res = await notificationCalls.send(programId, patient.id, {
        type,
        title,
        body,
        opted_in: !optedIn && agreed,
      });
      toast.success(res.message);
      setTitle('');
      setBody('');
      setAgreed(false);
      if (!optedIn) onSettingsChanged();
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) setErrors(fields);
      else toastErrors(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {t('send.title')}
        </Title>
        <div>
          <Text size="sm" fw={500} id="notification-channel">
            {t('send.channel')}
          </Text>
          <SegmentedControl
            aria-labelledby="notification-channel"
            value={type}
            onChange={(v) => {
              setType(v as PatientNotificationType);
              setAgreed(false);
              setErrors({});
            }}
            data={PATIENT_NOTIFICATION_TYPES.map((value) => ({
              value,
              label: `${channels[value]}${patient.notification_settings[value] ? ' ✓' : ''}`,
            }))}
          />
          {errors.type && (
            <Text size="sm" c="red.9" role="alert">
              {errors.type}
            </Text>
          )}
        </div>
        {!optedIn && (
          <Checkbox
            label={t('send.agree', { name: patient.first_name, channel: channels[type] })}
            description={t('send.notOptedIn')}
            checked={agreed}
            error={errors.opted_in}
            onChange={(e) => setAgreed(e.currentTarget.checked)}
          />
        )}
        <TextInput
          label={t('send.subject')}
          value={title}
          maxLength={120}
          required
          error={errors.title}
          onChange={(e) => setTitle(e.currentTarget.value)}
        />
        <Textarea
          label={t('send.body')}
          value={body}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={1000}
          required
          error={errors.body}
          onChange={(e) => setBody(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconSend size={16} />}
            loading={busy}
            disabled={!title.trim() || !body.trim() || (!optedIn && !agreed)}
          >
            {t('send.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function History({ programId, patientId }: { programId: number; patientId: number }) {
  const { t, i18n } = useTranslation('notifications');
  const [page, setPage] = useState(1);
  const history = useNotificationHistory(programId, patientId, page);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const channels = useChannelLabels();
  const statuses: Record<PatientNotification['status'], string> = {
    queued: t('status.queued'),
    sent: t('status.sent'),
    delivered: t('status.delivered'),
    failed: t('status.failed'),
    blocked: t('status.blocked'),
  };
  return (
    <Stack gap="xs">
      <Title order={2} fz="h4">
        {t('history.title')}
      </Title>
      {history.isError && !history.data ? (
        <Alert color="red" title={t('history.loadError')}>
          <Button size="xs" variant="light" onClick={() => void history.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !history.data ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : history.data.total === 0 ? (
        <Text size="sm" c="dimmed">
          {t('history.empty')}
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" data-testid="notification-history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={170}>{t('history.when')}</Table.Th>
                  <Table.Th w={90}>{t('history.channel')}</Table.Th>
                  <Table.Th>{t('history.notification')}</Table.Th>
                  <Table.Th w={150}>{t('history.status')}</Table.Th>
                  <Table.Th w={160}>{t('history.by')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.data.map((n) => (
                  <Table.Tr key={n.id}>
                    <Table.Td>{time.format(new Date(n.created_at))}</Table.Td>
                    <Table.Td>{channels[n.type]}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {n.title}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {n.body}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="outline" color={STATUS_COLORS[n.status]}>
                        {statuses[n.status]}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{n.sent_by?.name ?? '–'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {history.data.last_page > 1 && (
            <Pagination
              size="sm"
              total={history.data.last_page}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({
                'aria-label': control === 'next' ? t('history.next') : t('history.previous'),
              })}
            />
          )}
        </>
      )}
    </Stack>
  );
}

function AudioReminders({ programId, patientId }: { programId: number; patientId: number }) {
  const { t, i18n } = useTranslation('notifications');
  const assignments = useAudioAssignments(programId, patientId);
  const [assigning, setAssigning] = useState(false);
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const format = (iso: string) => day.format(new Date(`${iso}T00:00:00Z`));
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} fz="h4">
          {t('audio.title')}
        </Title>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconVolume size={14} />}
          onClick={() => setAssigning(true)}
        >
          {t('audio.assign')}
        </Button>
      </Group>
      {assignments.isError && !assignments.data ? (
        <Alert color="red" title={t('audio.loadError')}>
          <Button size="xs" variant="light" onClick={() => void assignments.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !assignments.data ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : assignments.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('audio.empty')}
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {assignments.data.data.map((a) => (
            <li key={a.id} data-audio-assignment={a.id}>
              <Text size="sm">
                <Text span fw={600}>
                  {a.audio.name}
                </Text>{' '}
                {t('audio.when', { time: a.at_time, from: format(a.start_date), to: format(a.end_date) })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('audio.by', { name: a.assigned_by?.name ?? '–' })}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      {assigning && (
        <AssignAudioModal programId={programId} patientId={patientId} onClose={() => setAssigning(false)} />
      )}
    </Stack>
  );
}

function AssignAudioModal({
  programId,
  patientId,
  onClose,
}: {
  programId: number;
  patientId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const library = useAudioLibrary(true);
  const [audioIds, setAudioIds] = useState<string[]>([]);
  const [date, setDate] = useState(localToday());
  const [time, setTime] = useState('08:00');
  const [days, setDays] = useState<number>(30);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const res = await notificationCalls.assignAudio(programId, {
        date,
        time,
        numToEnd: days,
        patientIds: [patientId],
        audioIds: audioIds.map(Number),
      });
      toast.success(res.message);
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
      onClose();
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) setErrors(fields);
      else toastErrors(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('audio.assign')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          {library.isError ? (
            <Alert color="red">{t('audio.libraryError')}</Alert>
          ) : (
            <MultiSelect
              label={t('audio.audios')}
              data-autofocus
              required
              searchable
              disabled={!library.data}
              value={audioIds}
              error={errors.audioIds}
              onChange={setAudioIds}
              data={(library.data?.data ?? []).map((a) => ({
                value: String(a.id),
                label: t('audio.option', { name: a.name, seconds: a.duration_seconds }),
              }))}
            />
          )}
          <Group grow align="flex-start">
            <DateField label={t('audio.from')} value={date} onChange={setDate} required error={errors.date} />
            <TextInput
              label={t('audio.at')}
              type="time"
              value={time}
              required
              error={errors.time}
              onChange={(e) => setTime(e.currentTarget.value)}
            />
            <NumberInput
              label={t('audio.days')}
              min={1}
              max={365}
              value={days}
              required
              error={errors.numToEnd}
              onChange={(v) => setDays(Number(v) || 0)}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={audioIds.length === 0 || !date || !time}>
              {t('audio.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
