import type { PatientRecord } from '@caredeck/contracts';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusReasonField } from '../../../shared/ui/StatusReasonField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useSetStatus } from '../api';
import '../i18n';

export interface StatusChangeModalProps {
  patient: Pick<PatientRecord, 'id' | 'name'>;
  /** The status chosen in the "Change status" menu; null while the dialog is closed. */
  status: PatientRecord['status'] | null;
  onClose: () => void;
}

/**
 * Confirms a status change from the patient's record, with an optional reason (ADR 052) that the program's status
 * log shows beside the change.
 */
export function StatusChangeModal({ patient, status, onClose }: StatusChangeModalProps) {
  const { t } = useTranslation('patientRecord');
  const common = useTranslation().t;
  const setStatus = useSetStatus(patient.id);
  const [reason, setReason] = useState('');
  // The next opening starts with an empty reason and no failure.
  const close = () => {
    setReason('');
    setStatus.reset();
    onClose();
  };
  const label = status ? common(`patients.status.${status}`) : '';

  const confirm = () => {
    if (!status) return;
    setStatus.mutate(
      { value: status, reason },
      {
        onSuccess: () => {
          toast.success(t('toasts.statusChanged', { status: label }));
          close();
        },
        onError: (error) => toastErrors(error),
      },
    );
  };

  return (
    <Modal
      opened={status !== null}
      onClose={close}
      title={t('statusChange.title', { name: patient.name, status: label })}
    >
      <Stack>
        <StatusReasonField
          value={reason}
          onChange={setReason}
          failure={setStatus.error}
          data-autofocus
          data-testid="status-reason"
        />
        <Text size="xs" c="dimmed">
          {t('statusChange.logged')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('actions.cancel')}
          </Button>
          <Button onClick={confirm} loading={setStatus.isPending} data-testid="confirm-status">
            {t('actions.changeStatus')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
