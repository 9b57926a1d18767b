import type { Report } from '@caredeck/contracts';
import { Alert, Button, Drawer, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SaveCall } from '../../../shared/ui/saveCall';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useFailedRuns } from '../api';
import { RunStatus } from './RunStatus';

/** A report's failed runs (generation or delivery) with their reasons, and retrying them. */
export function FailedRunsDrawer({
  programId,
  report,
  onClose,
  onRetry,
}: {
  programId: number;
  report: Report | null;
  onClose: () => void;
  onRetry: SaveCall<'generation' | 'delivery' | undefined>;
}) {
  const { t, i18n } = useTranslation('reports');
  const failed = useFailedRuns(programId, report?.id ?? null);
  const date = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const runs = failed.data?.data ?? [];
  const retry = async (type?: 'generation' | 'delivery') => {
    try {
      toast.success((await onRetry(type)).message);
      await failed.refetch();
    } catch (error) {
      toastErrors(error);
    }
  };
  return (
    <Drawer
      opened={report !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('failed.title', { name: report?.name ?? '' })}
    >
      {failed.isError ? (
        <Alert color="red" role="alert">
          {t('loadError')}
        </Alert>
      ) : !failed.data ? (
        <Loader aria-label={t('loading')} />
      ) : runs.length === 0 ? (
        <Text c="dimmed">{t('failed.none')}</Text>
      ) : (
        <Stack>
          <Table data-testid="failed-runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('failed.when')}</Table.Th>
                <Table.Th>{t('columns.lastRun')}</Table.Th>
                <Table.Th>{t('failed.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((run) => (
                <Table.Tr key={run.id}>
                  <Table.Td>{date.format(new Date(run.created_at))}</Table.Td>
                  <Table.Td>
                    <RunStatus run={run} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{run.status === 'failed' ? run.error : run.delivery_error}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group>
            <Button onClick={() => void retry()}>{t('failed.retryAll')}</Button>
            {runs.some((r) => r.delivery === 'failed') && (
              <Button variant="default" onClick={() => void retry('delivery')}>
                {t('failed.retryDelivery')}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}
