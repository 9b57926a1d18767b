import type { ReportRun } from '@caredeck/contracts';
import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';

export const RUN_COLORS: Record<ReportRun['status'], string> = {
  queued: 'gray',
  running: 'primary',
  done: 'success',
  failed: 'red',
  cancelled: 'gray',
};

/** The state of a report's newest run, with its delivery when it goes to a destination. */
export function RunStatus({ run }: { run: ReportRun | null }) {
  const { t } = useTranslation('reports');
  if (!run) return <Text c="dimmed">–</Text>;
  return (
    <Group gap={4} wrap="nowrap">
      <Badge variant="light" color={RUN_COLORS[run.status]}>
        {t(`runStatus.${run.status}`)}
      </Badge>
      {run.delivery !== 'none' && (
        <Badge variant="outline" color={run.delivery === 'failed' ? 'red' : 'gray'}>
          {t(`delivery.${run.delivery}`)}
        </Badge>
      )}
    </Group>
  );
}
