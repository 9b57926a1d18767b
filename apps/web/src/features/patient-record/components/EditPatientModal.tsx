import type { PatientRecord } from '@caredeck/contracts';
import { Button, Group, Modal, Stack, Title } from '@mantine/core';
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

/** Edits the record: only changed fields are sent (POST users/{id}); 'Patient updated' on success (02 §8). */
export function EditPatientModal({
  patient,
  opened,
  onClose,
}: {
  patient: PatientRecord;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={patient.name} size="xl">
      {opened ? <EditForm patient={patient} onClose={onClose} /> : null}
    </Modal>
  );
}

function EditForm({ patient, onClose }: { patient: PatientRecord; onClose: () => void }) {
  const { t } = useTranslation('patientRecord');
  const initial = valuesOf(patient);
  const form = useForm<PatientFormValues>(initial, PATIENT_RULES);
  const update = useUpdatePatient(patient.id);

  const submit = form.onSubmit(async (values) => {
    const changed = EDITABLE.filter((field) => values[field].trim() !== initial[field].trim());
    if (changed.length === 0) {
      onClose();
      return;
    }
    try {
      await update.mutateAsync(bodyOf(values, changed));
      toast.success(t('toasts.updated'));
      onClose();
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
          <Button variant="default" onClick={onClose}>
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
