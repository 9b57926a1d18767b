import type { MedicationPlan, PatientRecord, Regimen } from '@caredeck/contracts';
import { isoDate, localDateOf, resolveDisplayZone, wallClock, zonedInstant } from '@caredeck/domain';
import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../shared/ui/DateField';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { recordDateTime } from '../../../shared/ui/recordDateTime';
import { ScrollTable } from '../../../shared/ui/ScrollTable';
import { TextAreaField } from '../../../shared/ui/TextAreaField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useManualDoses } from '../api';
import { useCanChangePlan } from './planAccess';

const pad = (n: number) => String(n).padStart(2, '0');

/** Now, as a date and a time of day on the patient's clock. */
function nowIn(zone: string): { date: string; time: string } {
  const now = Date.now();
  const clock = wallClock(now, zone);
  return { date: isoDate(localDateOf(now, zone)), time: `${pad(clock.hour)}:${pad(clock.minute)}` };
}

/**
 * Records a dose the patient took outside a device (told by phone, taken at the clinic): when, on the patient's
 * clock; how many servings; from which pod (its servings go down). The dose counts for adherence like a device's.
 */
export function RecordDoseModal({
  regimen,
  patient,
  programId,
  onClose,
}: {
  regimen: Regimen;
  patient: PatientRecord;
  programId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const zone = resolveDisplayZone(patient.time_zone);
  const doses = useManualDoses(programId, patient.id);
  const [when, setWhen] = useState(() => nowIn(zone));
  const [servings, setServings] = useState<number | string>(regimen.num);
  const [podId, setPodId] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pods = regimen.pods.filter((pod) => pod.servings_remaining > 0);

  const save = () => {
    const found: Record<string, string> = {};
    if (!when.date) found.date = t('doses.dateRequired');
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(when.time)) found.time = t('doses.timeInvalid');
    const [hour, minute] = when.time.split(':').map(Number);
    const [year, month, day] = when.date.split('-').map(Number);
    const takenAt =
      Object.keys(found).length === 0
        ? zonedInstant({ year: year!, month: month!, day: day! }, hour! * 60 + minute!, zone)
        : Number.NaN;
    if (!found.date && !found.time && takenAt > Date.now() + 60_000) found.time = t('doses.notInFuture');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    doses.record.mutate(
      {
        regimen_id: regimen.id,
        pod_id: podId === null ? null : Number(podId),
        taken_at: new Date(takenAt).toISOString(),
        servings: Number(servings) || 1,
        note: note.trim() || null,
      },
      {
        onSuccess: () => {
          toast.success(t('doses.recorded'));
          onClose();
        },
        onError: (error) => toastErrors(error),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('doses.recordTitle', { name: regimen.name })}>
      <Stack>
        <Group grow align="flex-start">
          <DateField
            label={t('doses.date')}
            required
            value={when.date}
            onChange={(date) => setWhen((w) => ({ ...w, date }))}
            error={errors.date}
            data-testid="dose-date"
          />
          <TextInput
            label={t('doses.time')}
            type="time"
            required
            value={when.time}
            onChange={(event) => {
              const time = event.currentTarget.value;
              setWhen((w) => ({ ...w, time }));
            }}
            error={errors.time}
            data-testid="dose-time"
          />
        </Group>
        <Text size="xs" c="dimmed">
          {t('doses.zone', { zone })}
        </Text>
        <NumberInput
          label={t('doses.servings')}
          value={servings}
          onChange={setServings}
          min={1}
          max={20}
          allowDecimal={false}
          data-testid="dose-servings"
        />
        <Select
          label={t('doses.pod')}
          placeholder={t('doses.noPod')}
          clearable
          value={podId}
          onChange={setPodId}
          data={pods.map((pod) => ({
            value: String(pod.id),
            label: t('doses.podOption', { barcode: pod.barcode, count: pod.servings_remaining }),
          }))}
          disabled={pods.length === 0}
          data-testid="dose-pod"
        />
        <TextAreaField
          label={t('doses.note')}
          value={note}
          onChange={setNote}
          maxLength={500}
          autosize
          minRows={2}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button onClick={save} loading={doses.record.isPending} data-testid="dose-save">
            {t('doses.record')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The latest dose records of the patient (devices' and hand-recorded); a hand-recorded one can be deleted. */
export function RecentDoses({
  plan,
  patient,
  programId,
}: {
  plan: MedicationPlan;
  patient: PatientRecord;
  programId: number;
}) {
  const { t } = useTranslation('patientRecord');
  const zone = resolveDisplayZone(patient.time_zone);
  const doses = useManualDoses(programId, patient.id);
  const [deleting, setDeleting] = useState<number | null>(null);
  const canChange = useCanChangePlan();
  const regimenName = new Map(plan.regimens.map((r) => [r.id, r.name]));
  const barcode = new Map(plan.regimens.flatMap((r) => r.pods.map((p) => [p.id, p.barcode] as const)));
  return (
    <Stack gap="xs">
      <Title order={2} fz="h5">
        {t('doses.title')}
      </Title>
      {plan.recent_usages.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('doses.empty')}
        </Text>
      ) : (
        <ScrollTable label={t('doses.title')} minWidth={640}>
          <Table data-testid="recent-doses" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('doses.takenAt')}</Table.Th>
                <Table.Th>{t('doses.regimen')}</Table.Th>
                <Table.Th>{t('doses.servings')}</Table.Th>
                <Table.Th>{t('doses.source')}</Table.Th>
                <Table.Th>{t('doses.note')}</Table.Th>
                <Table.Th aria-label={t('doses.actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {plan.recent_usages.map((usage) => (
                <Table.Tr key={usage.id} data-testid="recent-dose">
                  <Table.Td>{recordDateTime(usage.taken_at, zone)}</Table.Td>
                  <Table.Td>
                    {regimenName.get(usage.regimen_id) ?? `#${usage.regimen_id}`}
                    {usage.kind === 'skipped' ? (
                      <Badge ml="xs" variant="light" color="gray">
                        {t('doses.skipped')}
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {usage.servings}
                    {usage.pod_id !== null && barcode.has(usage.pod_id) ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        {barcode.get(usage.pod_id)}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {usage.source === 'manual'
                      ? t('doses.byHand', { name: usage.recorded_by?.name ?? t('doses.someone') })
                      : t(`doses.sources.${usage.source}`, { defaultValue: usage.source })}
                  </Table.Td>
                  <Table.Td style={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    {usage.note ?? ''}
                  </Table.Td>
                  <Table.Td>
                    {usage.source === 'manual' && canChange ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="danger"
                        onClick={() => setDeleting(usage.id)}
                        data-testid="dose-delete"
                      >
                        {t('medication.remove')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {deleting !== null && (
        <ConfirmModal
          title={t('doses.deleteTitle')}
          body={t('doses.deleteBody')}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await doses.remove.mutateAsync(deleting);
            return { message: t('doses.deleted') };
          }}
        />
      )}
    </Stack>
  );
}
