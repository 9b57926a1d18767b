import {
  type NotificationSchedule,
  PATIENT_NOTIFICATION_TYPES,
  type PatientNotificationType,
} from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Chip,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlarm } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { localToday } from '../../../shared/ui/period';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { NOTIFICATIONS_KEY, notificationCalls, useSchedules } from '../api';
import { useChannelLabels } from '../channels';
import '../i18n';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** A patient's recurring reminders: what is sent when, how often it was, stop one; schedule a new one. */
export function RemindersSection({ programId, patientId }: { programId: number; patientId: number }) {
  const { t, i18n } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const schedules = useSchedules(programId, patientId);
  const [creating, setCreating] = useState(false);
  // The reminder being stopped stays named while its confirmation closes.
  const [stopping, setStopping] = useState<NotificationSchedule | null>(null);
  const [confirming, setConfirming] = useState(false);
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday: day n of the ISO week is 2024-01-0n.
  const dayName = (d: number) => weekday.format(new Date(Date.UTC(2024, 0, d)));
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const formatDay = (iso: string) => day.format(new Date(`${iso}T00:00:00Z`));
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const channels = useChannelLabels();
  const reload = () => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} fz="h4">
          {t('reminders.title')}
        </Title>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconAlarm size={14} />}
          onClick={() => setCreating(true)}
        >
          {t('reminders.new')}
        </Button>
      </Group>
      {schedules.isError && !schedules.data ? (
        <Alert color="red" title={t('reminders.loadError')}>
          <Button size="xs" variant="light" onClick={() => void schedules.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !schedules.data ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : schedules.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('reminders.empty')}
        </Text>
      ) : (
        <Stack
          gap={6}
          component="ul"
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
          data-testid="reminders"
        >
          {schedules.data.data.map((s) => (
            <li key={s.id}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div>
                  <Group gap={6}>
                    <Text size="sm" fw={600}>
                      {s.title}
                    </Text>
                    <Badge size="xs" variant="outline" color={s.active ? 'teal.9' : 'gray.8'}>
                      {s.active ? t('reminders.active') : t('reminders.ended')}
                    </Badge>
                  </Group>
                  <Text size="sm">
                    {t('reminders.when', {
                      channel: channels[s.type],
                      days: s.days.length === 7 ? t('reminders.everyDay') : s.days.map(dayName).join(', '),
                      time: s.time,
                      from: formatDay(s.start_date),
                    })}
                    {s.end_date ? ` ${t('reminders.until', { to: formatDay(s.end_date) })}` : ''}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {s.next_at ? `${t('reminders.next', { at: time.format(new Date(s.next_at)) })} · ` : ''}
                    {t('reminders.sent', { count: s.sent })}
                  </Text>
                </div>
                {s.active && (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => {
                      setStopping(s);
                      setConfirming(true);
                    }}
                  >
                    {t('reminders.stop')}
                  </Button>
                )}
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {creating && (
        <ReminderModal
          programId={programId}
          patientId={patientId}
          dayName={dayName}
          onClose={() => {
            setCreating(false);
            reload();
          }}
        />
      )}
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('reminders.stopTitle', { title: stopping?.title ?? '' })}
      >
        <Stack>
          <Text size="sm">{t('reminders.stopBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button
              color="danger"
              onClick={async () => {
                try {
                  toast.success(
                    (await notificationCalls.stopSchedule(programId, patientId, stopping!.id)).message,
                  );
                } catch (error) {
                  toastErrors(error);
                } finally {
                  setConfirming(false);
                  reload();
                }
              }}
            >
              {t('reminders.stop')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function ReminderModal({
  programId,
  patientId,
  dayName,
  onClose,
}: {
  programId: number;
  patientId: number;
  dayName: (d: number) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation('notifications');
  const [draft, setDraft] = useState({
    type: 'sms' as PatientNotificationType,
    title: '',
    body: '',
    time: '08:00',
    days: ['1', '2', '3', '4', '5', '6', '7'],
    start_date: localToday(),
    end_date: '',
  });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const channels = useChannelLabels();
  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const res = await notificationCalls.schedule(programId, patientId, {
        ...draft,
        days: draft.days.map(Number),
        end_date: draft.end_date || null,
      });
      toast.success(res.message);
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
    <Modal opened onClose={onClose} title={t('reminders.new')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <Group grow align="flex-start">
            <Select
              label={t('reminders.channel')}
              data={PATIENT_NOTIFICATION_TYPES.map((v) => ({ value: v, label: channels[v] }))}
              value={draft.type}
              allowDeselect={false}
              error={errors.type ?? errors.opted_in}
              onChange={(v) => setDraft({ ...draft, type: (v ?? 'sms') as PatientNotificationType })}
            />
            <TextInput
              label={t('reminders.time')}
              type="time"
              required
              value={draft.time}
              error={errors.time}
              onChange={(e) => setDraft({ ...draft, time: e.currentTarget.value })}
            />
          </Group>
          <TextInput
            label={t('send.subject')}
            required
            maxLength={120}
            value={draft.title}
            error={errors.title}
            data-autofocus
            onChange={(e) => setDraft({ ...draft, title: e.currentTarget.value })}
          />
          <Textarea
            label={t('send.body')}
            required
            autosize
            minRows={2}
            maxLength={1000}
            value={draft.body}
            error={errors.body}
            onChange={(e) => setDraft({ ...draft, body: e.currentTarget.value })}
          />
          <div>
            <Text size="sm" fw={500} id="reminder-days">
              {t('reminders.days')}
            </Text>
            <Chip.Group multiple value={draft.days} onChange={(days) => setDraft({ ...draft, days })}>
              <Group gap={4} role="group" aria-labelledby="reminder-days">
                {WEEKDAYS.map((d) => (
                  <Chip key={d} value={String(d)} size="xs">
                    {dayName(d)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {errors.days && (
              <Text size="sm" c="red.9" role="alert">
                {errors.days}
              </Text>
            )}
          </div>
          <Group grow align="flex-start">
            <DateField
              label={t('reminders.from')}
              required
              value={draft.start_date}
              error={errors.start_date}
              onChange={(start_date) => setDraft({ ...draft, start_date })}
            />
            <DateField
              label={t('reminders.to')}
              value={draft.end_date}
              error={errors.end_date}
              onChange={(end_date) => setDraft({ ...draft, end_date })}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button
              type="submit"
              loading={busy}
              disabled={!draft.title.trim() || !draft.body.trim() || draft.days.length === 0}
            >
              {t('reminders.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
