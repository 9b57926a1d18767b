import { BILLING_ACTIVITIES, type BillingType, MAX_ENTRY_SECONDS } from '@caredeck/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { localDay } from '../../../shared/ui/period';
import { errorMessagesOf, toast, toastErrorsOr } from '../../../shared/ui/toasts';
import { useBillingPrefs, useRecordTime } from '../api';
import { clock } from '../timer';

const pad = (n: number) => String(n).padStart(2, '0');
const localTime = (at: Date) => `${pad(at.getHours())}:${pad(at.getMinutes())}`;

/**
 * Records time on a patient: from the stopped timer (its exact start and end unless edited) or entered
 * afterwards (date, start and minutes in the browser's zone). Type and activity start from the user's billing
 * defaults and become them once saved. Server answers (409 overlap, 422 fields) show in the form; nothing typed
 * is lost.
 */
export function RecordTimeModal({
  patient,
  programId,
  fromTimer,
  onClose,
  onSaved,
}: {
  patient: { id: number; name: string };
  programId: number;
  fromTimer?: { startedAt: string; endedAt: string };
  onClose: () => void;
  onSaved?: () => void;
}) {
  const { t } = useTranslation('billing');
  const common = useTranslation().t;
  const { prefs, save: savePrefs } = useBillingPrefs(programId);
  const record = useRecordTime();
  const initialStart = fromTimer ? new Date(fromTimer.startedAt) : new Date(Date.now() - 20 * 60_000);
  const timerSeconds = fromTimer
    ? Math.min(
        MAX_ENTRY_SECONDS,
        Math.round((Date.parse(fromTimer.endedAt) - Date.parse(fromTimer.startedAt)) / 1000),
      )
    : 0;
  const [exact, setExact] = useState(fromTimer ?? null);
  const [type, setType] = useState<BillingType | null>(null);
  const [activity, setActivity] = useState<string | null>(null);
  const [date, setDate] = useState(localDay(initialStart.toISOString()));
  const [time, setTime] = useState(localTime(initialStart));
  const [minutes, setMinutes] = useState<number | string>(
    fromTimer ? Math.max(1, Math.round(timerSeconds / 60)) : 20,
  );
  const [interactive, setInteractive] = useState(false);
  const [billable, setBillable] = useState(true);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ minutes?: string; start?: string; form?: string[] }>({});
  const chosenType = type ?? prefs.type;
  const chosenActivity = activity ?? prefs.activity;
  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setExact(null);
      set(v);
    };

  const submit = () => {
    const mins = Number(minutes);
    const start = new Date(`${date}T${time}`);
    const next: typeof errors = {};
    if (!exact && (!Number.isInteger(mins) || mins < 1 || mins > 480))
      next.minutes = t('record.minutesError');
    if (!exact && Number.isNaN(start.getTime())) next.start = t('record.dateError');
    setErrors(next);
    if (next.minutes || next.start) return;
    const startedAt = exact ? exact.startedAt : start.toISOString();
    const endedAt = exact
      ? new Date(Date.parse(exact.startedAt) + Math.max(1, timerSeconds) * 1000).toISOString()
      : new Date(start.getTime() + mins * 60_000).toISOString();
    record.mutate(
      {
        user_id: patient.id,
        program_id: programId,
        type: chosenType,
        activity: chosenActivity as (typeof BILLING_ACTIVITIES)[number],
        interactive,
        billable,
        started_at: startedAt,
        ended_at: endedAt,
        note: note.trim() || null,
        source: exact ? 'timer' : 'manual',
      },
      {
        onSuccess: (result) => {
          toast.success(t('record.saved', { time: recordedTime(result.data.seconds) }));
          // The entry is saved; the type and activity it used become the next entry's defaults.
          void savePrefs({ type: chosenType, activity: chosenActivity }).catch((error: unknown) =>
            toastErrorsOr(error, common('errors.defaultsNotSaved')),
          );
          onSaved?.();
          onClose();
        },
        onError: (error) => {
          const fields = isApiError(error) ? error.fieldErrors : {};
          const startError = fields.started_at?.[0] ?? fields.ended_at?.[0];
          setErrors({
            ...(startError ? { start: startError } : {}),
            form: startError ? undefined : errorMessagesOf(error),
          });
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('record.titleFor', { name: patient.name })} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack>
          {fromTimer && exact && (
            <Text size="sm" c="dimmed" data-testid="record-from-timer">
              {t('record.fromTimer', { time: clock(timerSeconds) })}
            </Text>
          )}
          <div>
            <Text size="sm" fw={500} mb={4} id="record-type">
              {t('record.type')}
            </Text>
            <SegmentedControl
              aria-labelledby="record-type"
              value={chosenType}
              onChange={(v) => setType(v as BillingType)}
              data={(['rpm', 'ccm'] as const).map((v) => ({ value: v, label: t(`record.types.${v}`) }))}
              fullWidth
            />
          </div>
          <Select
            label={t('record.activity')}
            value={chosenActivity}
            onChange={(v) => v && setActivity(v)}
            data={BILLING_ACTIVITIES.map((a) => ({ value: a, label: t(`record.activities.${a}`) }))}
            allowDeselect={false}
          />
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <DateField
              label={t('record.date')}
              value={date}
              max={localDay(new Date().toISOString())}
              onChange={(day) => edited(setDate)(day)}
              error={errors.start}
              required
            />
            <TextInput
              type="time"
              label={t('record.startTime')}
              value={time}
              onChange={(e) => edited(setTime)(e.currentTarget.value)}
              required
            />
            <NumberInput
              label={t('record.minutes')}
              value={minutes}
              min={1}
              max={480}
              allowDecimal={false}
              onChange={edited(setMinutes)}
              error={errors.minutes}
              required
            />
          </SimpleGrid>
          <Checkbox
            label={t('record.interactive')}
            description={t('record.interactiveHint')}
            checked={interactive}
            onChange={(e) => setInteractive(e.currentTarget.checked)}
          />
          <Switch
            label={t('record.billable')}
            checked={billable}
            onChange={(e) => setBillable(e.currentTarget.checked)}
          />
          <Textarea
            label={t('record.note')}
            value={note}
            maxLength={1000}
            autosize
            minRows={2}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          {errors.form && errors.form.length > 0 && (
            <Alert color="danger" role="alert" title={t('record.failed')}>
              {errors.form.join(' ')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('record.cancel')}
            </Button>
            <Button type="submit" loading={record.isPending}>
              {t('record.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** What was recorded, in minutes and seconds: 0:03, 12:00; from an hour on 1:01:05 (issue 32 item 7). */
export function recordedTime(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole >= 3600) return clock(whole);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
