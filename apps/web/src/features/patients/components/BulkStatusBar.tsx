import { PATIENT_STATUSES, patientRecordContract } from '@caredeck/contracts';
import { Button, Group, Modal, Paper, Select, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, isApiError } from '../../../shared/api-client';
import { StatusReasonField } from '../../../shared/ui/StatusReasonField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import type { PatientStatus } from '../api';
import { BulkCohortAdd } from './BulkCohortAdd';

/**
 * `POST users/bulk-status`: all the selected patients get the status, or none do (one transaction); the reason,
 * if any, goes to each patient's status history (ADR 052).
 */
function useBulkStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids: number[]; value: PatientStatus; reason?: string }) => {
      const reason = input.reason?.trim();
      const body = { users_id: input.ids, value: input.value };
      return api.call(patientRecordContract.bulkStatus, { body: reason ? { ...body, reason } : body });
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['patients'] });
      void client.invalidateQueries({ queryKey: ['patient'] });
    },
  });
}

export interface BulkStatusBarProps {
  selected: ReadonlySet<number>;
  /** The program in scope: its cohorts are offered; null in enterprise scope (a cohort has one program). */
  programId?: number | null;
  onDone: () => void;
}

/**
 * Shown while patients are selected: set one status for all of them, after a confirmation that may give a reason
 * (kept in each patient's status history and shown in the status log, ADR 052), or propose a bulk action for them
 * (status, billing status, cohort, assignment) that an administrator approves (/bulk-events); in program scope, add
 * them to one of the program's cohorts at once.
 */
export function BulkStatusBar({ selected, programId = null, onDone }: BulkStatusBarProps) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<PatientStatus | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const bulk = useBulkStatus();
  const navigate = useNavigate();
  const count = selected.size;
  if (count === 0) return null;
  const label = status ? t(`patients.status.${status}`) : '';
  // Closing the confirmation forgets a failed attempt (the reason typed stays for the next one).
  const close = () => {
    setConfirming(false);
    bulk.reset();
  };

  const apply = () => {
    if (!status) return;
    bulk.mutate(
      { ids: [...selected], value: status, reason },
      {
        onSuccess: (result) => {
          toast.success(t('patients.bulk.done', { count: result.updated, status: label }));
          setConfirming(false);
          setStatus(null);
          setReason('');
          onDone();
        },
        // A refused field (a reason too long) says what to fix (01 §5); anything else: nothing changed.
        onError: (error) =>
          isApiError(error, 422) && Object.keys(error.fieldErrors).length > 0
            ? toastErrors(error)
            : toast.error(t('patients.bulk.failed')),
      },
    );
  };

  return (
    <Paper withBorder radius="md" p="xs" bg="var(--mantine-color-default-hover)" data-testid="bulk-bar">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" fw={600} aria-live="polite">
          {t('patients.bulk.selected', { count })}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Select
            aria-label={t('patients.bulk.status')}
            placeholder={t('patients.bulk.status')}
            data={PATIENT_STATUSES.map((s) => ({ value: s, label: t(`patients.status.${s}`) }))}
            value={status}
            onChange={(value) => setStatus(value as PatientStatus | null)}
            size="xs"
            w={170}
            data-testid="bulk-status"
          />
          <Button size="xs" disabled={!status} onClick={() => setConfirming(true)} data-testid="bulk-apply">
            {t('patients.bulk.apply')}
          </Button>
          {programId ? <BulkCohortAdd programId={programId} selected={selected} onDone={onDone} /> : null}
          <Button
            size="xs"
            variant="default"
            onClick={() => void navigate('/bulk-events', { state: { proposePatients: [...selected] } })}
            data-testid="bulk-propose"
          >
            {t('patients.bulk.propose')}
          </Button>
          <Button size="xs" variant="subtle" onClick={onDone}>
            {t('patients.bulk.clear')}
          </Button>
        </Group>
      </Group>
      <Modal opened={confirming} onClose={close} title={t('patients.bulk.confirmTitle')} centered>
        <Text size="sm" mb="md">
          {t('patients.bulk.confirm', { count, status: label })}
        </Text>
        <StatusReasonField
          value={reason}
          onChange={setReason}
          failure={bulk.error}
          mb="md"
          data-testid="bulk-reason"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('patients.bulk.cancel')}
          </Button>
          <Button onClick={apply} loading={bulk.isPending} data-testid="bulk-confirm">
            {t('patients.bulk.apply')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
