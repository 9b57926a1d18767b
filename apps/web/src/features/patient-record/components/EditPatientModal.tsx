import type { PatientRecord } from '@caredeck/contracts';
import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { useUpdatePatient } from '../api';
import {
  bodyOf,
  PATIENT_RULES,
  type PatientField,
  PatientFields,
  type PatientFormValues,
  valuesOf,
} from './PatientFields';
import '../i18n';

const SECTIONS: { key: 'identity' | 'contact' | 'care' | 'demographics'; fields: PatientField[] }[] = [
  { key: 'identity', fields: ['first_name', 'middle_name', 'last_name', 'mrn', 'dob', 'sex'] },
  {
    key: 'contact',
    fields: [
      'email',
      'phone_number',
      'address_line1',
      'address_line2',
      'state',
      'city',
      'zip',
      'time_zone',
      'language',
    ],
  },
  { key: 'care', fields: ['physician_id', 'assigned_admin_id', 'consent_at', 'consent_method'] },
  { key: 'demographics', fields: ['race', 'ethnicity', 'income'] },
];
const EDITABLE = SECTIONS.flatMap((s) => s.fields);

/**
 * Edits the record: only changed fields are sent (POST users/{id}); 'Patient updated' on success (02 §8). Closing
 * with unsaved changes (Escape, the close button, a click outside, Cancel) asks before discarding them.
 */
export function EditPatientModal({
  patient,
  opened,
  onClose,
}: {
  patient: PatientRecord;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const close = () => {
    setDirty(false);
    setAsking(false);
    onClose();
  };
  const requestClose = () => (dirty ? setAsking(true) : close());
  return (
    <>
      <Modal opened={opened} onClose={requestClose} title={patient.name} size="xl">
        {opened ? (
          <EditForm patient={patient} onSaved={close} onCancel={requestClose} onDirty={setDirty} />
        ) : null}
      </Modal>
      <Modal opened={asking} onClose={() => setAsking(false)} title={t('discard.title')} zIndex={400}>
        <Stack>
          <Text size="sm">{t('discard.body')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
              {t('discard.keep')}
            </Button>
            <Button color="danger" onClick={close} data-testid="discard-changes">
              {t('discard.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function EditForm({
  patient,
  onSaved,
  onCancel,
  onDirty,
}: {
  patient: PatientRecord;
  onSaved: () => void;
  onCancel: () => void;
  onDirty: (dirty: boolean) => void;
}) {
  const { t } = useTranslation('patientRecord');
  const initial = valuesOf(patient);
  const form = useForm<PatientFormValues>(initial, PATIENT_RULES);
  const update = useUpdatePatient(patient.id);
  const changedFields = EDITABLE.filter((field) => form.values[field].trim() !== initial[field].trim());
  const dirty = changedFields.length > 0;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const submit = form.onSubmit(async (values) => {
    const changed = EDITABLE.filter((field) => values[field].trim() !== initial[field].trim());
    if (changed.length === 0) {
      onSaved();
      return;
    }
    try {
      await update.mutateAsync(bodyOf(values, changed));
      toast.success(t('toasts.updated'));
      onSaved();
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        {SECTIONS.map((section) => (
          <Stack key={section.key} gap="xs">
            <Title order={3} fz="h5">
              {t(`sections.${section.key}`)}
            </Title>
            <PatientFields form={form} fields={section.fields} programId={patient.program_id} />
          </Stack>
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending} data-testid="save-patient">
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
