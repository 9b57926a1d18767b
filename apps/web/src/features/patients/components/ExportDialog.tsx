import { exportsContract } from '@caredeck/contracts';
import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { toast, toastErrors } from '../../../shared/ui/toasts';

/** The day in the user's own calendar (toISOString would give tomorrow on an American evening). */
const isoDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

const KINDS = ['patients', 'pods'] as const;
type Kind = (typeof KINDS)[number];

export interface ExportDialogProps {
  programId: number;
  opened: boolean;
  onClose: () => void;
}

/** The export's period and download (ExportButton opens it; its code loads after the list has shown). */
export function ExportDialog({ programId, opened, onClose }: ExportDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const today = new Date();
  const [start, setStart] = useState(isoDay(new Date(today.getTime() - 30 * 86_400_000)));
  const [end, setEnd] = useState(isoDay(today));
  const [kind, setKind] = useState<Kind>('patients');

  const download = async () => {
    setBusy(true);
    try {
      await api.download(exportsContract[kind], { params: { programId: String(programId), start, end } });
      toast.success(t('patients.exportSuccess'));
      onClose();
    } catch (error) {
      // A period the server refuses says why; anything else gets the spec's message (02 §8).
      if (isApiError(error) && error.status === 422) toastErrors(error);
      else toast.error(t('patients.exportFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('patients.exportTitle')}>
      <Stack>
        <SegmentedControl
          aria-label={t('patients.exportWhat')}
          data={KINDS.map((k) => ({ value: k, label: t(`patients.exportKinds.${k}`) }))}
          value={kind}
          onChange={(value) => setKind(value as Kind)}
          data-testid="export-kind"
        />
        <Text size="sm" c="dimmed">
          {t(`patients.exportHint.${kind}`)}
        </Text>
        <Group grow>
          <DateField label={t('patients.exportStart')} value={start} onChange={setStart} max={end} required />
          <DateField label={t('patients.exportEnd')} value={end} onChange={setEnd} min={start} required />
        </Group>
        <Group justify="flex-end">
          <Button
            loading={busy}
            disabled={!start || !end}
            onClick={() => void download()}
            data-testid="export-download"
          >
            {t('patients.exportAction')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
