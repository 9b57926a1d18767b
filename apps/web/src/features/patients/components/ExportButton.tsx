import { exportsContract } from '@caredeck/contracts';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { toast, toastErrors } from '../../../shared/ui/toasts';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The program's patients during a period as a spreadsheet (01 §7 Exports): 'Export Successful' when saved. */
export function ExportButton({ programId }: { programId: number }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const today = new Date();
  const [start, setStart] = useState(isoDay(new Date(today.getTime() - 30 * 86_400_000)));
  const [end, setEnd] = useState(isoDay(today));

  const download = async () => {
    setBusy(true);
    try {
      await api.download(exportsContract.patients, { params: { programId: String(programId), start, end } });
      toast.success(t('patients.exportSuccess'));
      setOpened(false);
    } catch (error) {
      // A period the server refuses says why; anything else gets the spec's message (02 §8).
      if (isApiError(error) && error.status === 422) toastErrors(error);
      else toast.error(t('patients.exportFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('patients.export')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('patients.exportTitle')}>
        <Stack>
          <Group grow>
            <DateField
              label={t('patients.exportStart')}
              value={start}
              onChange={setStart}
              max={end}
              required
            />
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
    </>
  );
}
