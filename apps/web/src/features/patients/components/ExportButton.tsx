import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deferredDialog } from '../../../shared/ui/deferred';

const ExportDialog = deferredDialog(() => import('./ExportDialog').then((m) => m.ExportDialog));

/** The program's patients during a period as a spreadsheet (01 §7 Exports): 'Export Successful' when saved. */
export function ExportButton({ programId }: { programId: number }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('patients.export')}
      </Button>
      <ExportDialog programId={programId} opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}
