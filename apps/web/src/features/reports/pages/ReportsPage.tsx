import type { Report, ReportType } from '@caredeck/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Menu,
  Pagination,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconDots,
  IconDownload,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerStop,
  IconPlus,
  IconServer,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { hasAnyRole } from '../../../app/auth/roles';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { type Audience, downloadRun, useReportMutations, useReports, useReportTypes } from '../api';
import { DestinationsDrawer } from '../components/DestinationsDrawer';
import { FailedRunsDrawer } from '../components/FailedRunsDrawer';
import { NewReportModal } from '../components/NewReportModal';
import { RunStatus } from '../components/RunStatus';
import '../i18n';

function useDateFormat() {
  const { i18n } = useTranslation();
  return new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

/**
 * /reports and /pharma-reports (02 §2): the program's reports of one audience. Care reports list patients;
 * pharma reports are per medication without patient identifiers. Reports are made in the background: the list
 * refreshes while one is being made, and a finished file downloads from its row.
 */
export function ReportsPage({ audience }: { audience: Audience }) {
  const { t, i18n } = useTranslation('reports');
  const scope = useActiveScope();
  const user = useCurrentUser();
  const programId = scope?.programId ?? 0;
  const enterpriseId = scope?.enterprise?.id ?? null;
  const [params, setParams] = useSearchParams();
  const types = useReportTypes(programId);
  const audienceTypes = (types.data?.data ?? []).filter((x) => x.audience === audience);
  const type = audienceTypes.some((x) => x.type === params.get('type'))
    ? (params.get('type') as ReportType)
    : '';
  const mine = params.get('mine') === '1' && user ? user.id : null;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useReports(programId, { audience, type, mine, page });
  const m = useReportMutations(programId, enterpriseId);
  const [creating, setCreating] = useState(false);
  const [failedOf, setFailedOf] = useState<Report | null>(null);
  const [stopping, setStopping] = useState<Report | null>(null);
  const [destinations, setDestinations] = useState(false);
  const date = useDateFormat();
  const isEnterpriseAdmin = Boolean(user && scope && hasAnyRole(user, ['enterprise_admin'], scope));
  const canManage = (r: Report) =>
    Boolean(
      user && scope && (r.user.id === user.id || hasAnyRole(user, ['admin', 'enterprise_admin'], scope)),
    );
  const title = i18n.t(audience === 'pharma' ? 'nav.pharmaReports' : 'nav.reports');

  const setParam = (key: string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'page') next.delete('page');
      return next;
    });

  const download = async (r: Report) => {
    if (!r.last_run) return;
    try {
      toast.success(t('downloaded', { file: await downloadRun(programId, r.id, r.last_run.id) }));
    } catch (error) {
      toastErrors(error, { title: t('downloadFailed') });
    }
  };
  const pause = async (r: Report) => {
    try {
      toast.success((await m.pause.mutateAsync(r.id)).message);
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Title order={1} fz="h2">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {t(audience === 'pharma' ? 'pharmaSubtitle' : 'subtitle')}
          </Text>
        </div>
        <Group gap="xs">
          {enterpriseId !== null && audience === 'care' && (
            <Button
              variant="default"
              leftSection={<IconServer size={16} aria-hidden />}
              onClick={() => setDestinations(true)}
            >
              {t('destinations.open')}
            </Button>
          )}
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
            disabled={audienceTypes.length === 0}
          >
            {t('new')}
          </Button>
        </Group>
      </Group>
      <Group gap="md" align="flex-end" wrap="wrap">
        <Select
          label={t('filters.type')}
          placeholder={t('filters.allTypes')}
          data={audienceTypes.map((x) => ({ value: x.type, label: t(`types.${x.type}`) }))}
          value={type || null}
          onChange={(value) => setParam('type', value)}
          clearable
          w={260}
        />
        <Switch
          label={t('filters.mine')}
          checked={mine !== null}
          onChange={(e) => setParam('mine', e.currentTarget.checked ? '1' : null)}
          mb={8}
        />
      </Group>
      {list.isError && !list.data ? (
        <Alert color="danger" role="alert" title={t('loadError')}>
          <Button size="xs" variant="light" color="danger" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !list.data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : list.data.data.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text c="dimmed" ta="center">
            {t('empty')}
          </Text>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={860}>
          <Table highlightOnHover data-testid="reports">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.report')}</Table.Th>
                <Table.Th>{t('columns.period')}</Table.Th>
                <Table.Th>{t('columns.recurrence')}</Table.Th>
                <Table.Th>{t('columns.lastRun')}</Table.Th>
                <Table.Th>{t('columns.requested')}</Table.Th>
                <Table.Th>
                  <span className="sr-only">{t('columns.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((r) => (
                <Table.Tr key={r.id} data-testid="report-row">
                  <Table.Td>
                    <Text fw={500}>{r.name}</Text>
                    <Text size="xs" c="dimmed">
                      {t(`types.${r.type}`)} · {r.format.toUpperCase()}
                      {r.destination ? ` · ${t('sentTo', { name: r.destination.name })}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {r.period === 'custom' ? `${r.start} – ${r.end}` : t(`periods.${r.period}`)}
                  </Table.Td>
                  <Table.Td>
                    {r.recurrence === 'none' ? (
                      t('recurrences.none')
                    ) : (
                      <>
                        {t(`recurrences.${r.recurrence}`)}
                        <Text size="xs" c="dimmed">
                          {r.recurrence_state === 'running' && r.next_run_at
                            ? t('nextRun', { at: date.format(new Date(r.next_run_at)) })
                            : t(`recurrenceStates.${r.recurrence_state}`)}
                        </Text>
                      </>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <RunStatus run={r.last_run} />
                    {r.failed_runs > 0 && (
                      <Button variant="subtle" color="red" size="compact-xs" onClick={() => setFailedOf(r)}>
                        {t('failedRuns', { count: r.failed_runs })}
                      </Button>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {r.user.name}
                    <Text size="xs" c="dimmed">
                      {date.format(new Date(r.created_at))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Tooltip label={t('download')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('downloadReport', { name: r.name })}
                          disabled={r.last_run?.status !== 'done'}
                          onClick={() => void download(r)}
                        >
                          <IconDownload size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      {r.recurrence !== 'none' &&
                        r.recurrence_state !== 'stopped' &&
                        enterpriseId !== null &&
                        canManage(r) && (
                          <Menu position="bottom-end" withinPortal>
                            <Menu.Target>
                              <ActionIcon variant="subtle" aria-label={t('recurrenceMenu', { name: r.name })}>
                                <IconDots size={18} aria-hidden />
                              </ActionIcon>
                            </Menu.Target>
                            <Menu.Dropdown>
                              <Menu.Item
                                leftSection={
                                  r.recurrence_state === 'running' ? (
                                    <IconPlayerPause size={16} aria-hidden />
                                  ) : (
                                    <IconPlayerPlay size={16} aria-hidden />
                                  )
                                }
                                onClick={() => void pause(r)}
                              >
                                {t(r.recurrence_state === 'running' ? 'pause' : 'resume')}
                              </Menu.Item>
                              <Menu.Item
                                color="red"
                                leftSection={<IconPlayerStop size={16} aria-hidden />}
                                onClick={() => setStopping(r)}
                              >
                                {t('stop')}
                              </Menu.Item>
                            </Menu.Dropdown>
                          </Menu>
                        )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.last_page > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('total', { count: list.data.total })}
          </Text>
          <Pagination
            total={list.data.last_page}
            value={page}
            onChange={(value) => setParam('page', String(value))}
          />
        </Group>
      )}
      <NewReportModal
        opened={creating}
        onClose={() => setCreating(false)}
        audience={audience}
        types={audienceTypes}
        enterpriseId={enterpriseId}
        onCreate={(body) => m.create.mutateAsync({ audience, body })}
      />
      <FailedRunsDrawer
        programId={programId}
        report={failedOf}
        onClose={() => setFailedOf(null)}
        onRetry={(type) => m.retry.mutateAsync({ reportId: failedOf!.id, type })}
      />
      {enterpriseId !== null && (
        <DestinationsDrawer
          opened={destinations}
          onClose={() => setDestinations(false)}
          enterpriseId={enterpriseId}
          canEdit={isEnterpriseAdmin}
          canSend={Boolean(user && scope && hasAnyRole(user, ['admin', 'enterprise_admin'], scope))}
          mutations={m}
        />
      )}
      {stopping && (
        <ConfirmModal
          title={t('confirmStopTitle')}
          body={<Text>{t('confirmStopBody', { name: stopping.name })}</Text>}
          confirm={t('stop')}
          onClose={() => setStopping(null)}
          onConfirm={() => m.stop.mutateAsync(stopping.id)}
        />
      )}
    </Stack>
  );
}

export function CareReportsPage() {
  return <ReportsPage audience="care" />;
}

export function PharmaReportsPage() {
  return <ReportsPage audience="pharma" />;
}
