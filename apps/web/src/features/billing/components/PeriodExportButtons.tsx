import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { downloadBillingPeriods, type PeriodFilters } from '../periods-api';
import '../i18n';
import '../periods-i18n';

/** CSV and XLSX of the evidence view, with the filters on screen (every matching patient, not the page). */
export function PeriodExportButtons({
  programId,
  query,
}: {
  programId: number;
  query: { date: string } & PeriodFilters;
}) {
  const { t } = useTranslation(['billingPeriods', 'billing']);
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const run = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      toast.success(
        t('billing:downloaded', { file: await downloadBillingPeriods(programId, format, query) }),
      );
    } catch (error) {
      toastErrors(error, { title: t('billing:downloadFailed') });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="sm">
      <Button
        variant="default"
        loading={busy === 'csv'}
        disabled={programId <= 0}
        onClick={() => void run('csv')}
      >
        {t('exportCsv')}
      </Button>
      <Button
        variant="default"
        loading={busy === 'xlsx'}
        disabled={programId <= 0}
        onClick={() => void run('xlsx')}
      >
        {t('exportXlsx')}
      </Button>
    </Group>
  );
}
