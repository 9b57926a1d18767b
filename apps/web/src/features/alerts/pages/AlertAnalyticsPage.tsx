import type { AlertAnalytics } from '@caredeck/contracts';
import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateRangeFields, PeriodPresets } from '../../../shared/ui/PeriodFields';
import { shortDayLabel, usePeriodParams } from '../../../shared/ui/period';
import { useActiveScope } from '../../tenancy/scope';
import { useAlertAnalytics, useLiveAlerts } from '../api';
import '../i18n';

const PRESETS = ['7', '30', '90'] as const;

/**
 * /alerts-analytics: the alerts first seen in a period (in the URL): how many, how they ended, how long
 * acknowledging and resolving took, per day, per type and per staff member; live with the board.
 */
export function AlertAnalyticsPage() {
  const { t, i18n } = useTranslation('alerts');
  const scope = useActiveScope();
  useLiveAlerts();
  const period = usePeriodParams(30);
  const { start, end, valid } = period;
  const analytics = useAlertAnalytics(scope, start, end, valid);
  const scopeName =
    scope?.enterpriseScope && scope.enterprise
      ? t('scopeEnterprise', { name: scope.enterprise.name })
      : t('scopeProgram', { name: scope?.program?.name ?? '' });
  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {i18n.t('nav.alertsAnalytics')}
        </Title>
        <Text c="dimmed" size="sm">
          {scopeName}
        </Text>
      </div>
      <Group align="flex-end" wrap="wrap">
        <PeriodPresets
          period={period}
          presets={PRESETS}
          label={t('filters.period')}
          presetLabel={(p) => t(`analytics.presets.${p as '7'}`)}
        />
        <DateRangeFields period={period} fromLabel={t('analytics.from')} toLabel={t('analytics.to')} />
        {analytics.isFetching && <Loader size="sm" aria-label={t('loading')} />}
      </Group>
      {!valid ? (
        <Alert color="yellow">{t('analytics.invalidPeriod')}</Alert>
      ) : analytics.isError && !analytics.data ? (
        <Alert color="red" title={t('analytics.error')}>
          <Button size="xs" variant="light" onClick={() => void analytics.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !analytics.data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : (
        <AnalyticsView data={analytics.data} />
      )}
    </Stack>
  );
}

function AnalyticsView({ data }: { data: AlertAnalytics }) {
  const { t, i18n } = useTranslation('alerts');
  const number = new Intl.NumberFormat(i18n.language);
  const minutes = (v: number | null) =>
    v === null
      ? '–'
      : v < 90
        ? t('analytics.minutes', { value: number.format(Math.round(v)) })
        : t('analytics.hours', { value: number.format(Math.round((v / 60) * 10) / 10) });
  const stillOpen = data.by_status.open + data.by_status.acknowledged + data.by_status.escalated;
  const tiles = [
    ['total', number.format(data.total)],
    ['stillOpen', number.format(stillOpen)],
    ['autoResolved', number.format(data.auto_resolved)],
    ['toAcknowledge', minutes(data.time_to_acknowledge.median_minutes)],
    ['toResolve', minutes(data.time_to_resolve.median_minutes)],
  ] as const;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
        {tiles.map(([key, value]) => (
          <Paper key={key} withBorder p="sm" radius="md">
            <Text size="xs" c="dimmed">
              {t(`analytics.tiles.${key}`)}
            </Text>
            <Text fw={700} size="xl" data-testid={`analytics-${key}`}>
              {value}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Paper withBorder p="md" radius="md">
        <Title order={2} fz="h5" mb="sm">
          {t('analytics.perDay')}
        </Title>
        {data.total === 0 ? (
          <Text c="dimmed" size="sm">
            {t('analytics.empty')}
          </Text>
        ) : (
          <DayBars days={data.by_day} />
        )}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="h5" mb="sm">
            {t('analytics.byType')}
          </Title>
          <Table verticalSpacing={4} data-testid="analytics-by-type">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('analytics.type')}</Table.Th>
                <Table.Th w={80}>{t('analytics.count')}</Table.Th>
                <Table.Th w={150}>{t('analytics.medianAcknowledge')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.by_type.map((r) => (
                <Table.Tr key={r.type}>
                  <Table.Td>{t(`types.${r.type}`)}</Table.Td>
                  <Table.Td>{number.format(r.count)}</Table.Td>
                  <Table.Td>{minutes(r.median_acknowledge_minutes)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="h5" mb="sm">
            {t('analytics.byStaff')}
          </Title>
          {data.by_staff.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('analytics.noStaff')}
            </Text>
          ) : (
            <Table verticalSpacing={4} data-testid="analytics-by-staff">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('analytics.staff')}</Table.Th>
                  <Table.Th w={110}>{t('analytics.acknowledged')}</Table.Th>
                  <Table.Th w={90}>{t('analytics.cleared')}</Table.Th>
                  <Table.Th w={150}>{t('analytics.medianAcknowledge')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.by_staff.map((r) => (
                  <Table.Tr key={r.admin.id}>
                    <Table.Td>{r.admin.name}</Table.Td>
                    <Table.Td>{number.format(r.acknowledged)}</Table.Td>
                    <Table.Td>{number.format(r.cleared)}</Table.Td>
                    <Table.Td>{minutes(r.median_acknowledge_minutes)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

/** Alerts opened (dark) and resolved (light) per day. */
function DayBars({ days }: { days: AlertAnalytics['by_day'] }) {
  const { t, i18n } = useTranslation('alerts');
  const W = 720;
  const H = 140;
  const max = Math.max(1, ...days.map((d) => Math.max(d.opened, d.resolved)));
  const slot = W / days.length;
  const label = (date: string) => shortDayLabel(date, i18n.language);
  return (
    <svg viewBox={`0 0 ${W} ${H + 18}`} width="100%" role="img" aria-label={t('analytics.perDay')}>
      {days.map((d, i) => {
        const w = Math.max(1, slot / 2 - 1);
        const ho = (d.opened / max) * H;
        const hr = (d.resolved / max) * H;
        return (
          <g key={d.date}>
            <title>
              {t('analytics.bar', {
                date: label(d.date),
                opened: t('analytics.barRaised', { count: d.opened }),
                resolved: t('analytics.barResolved', { count: d.resolved }),
              })}
            </title>
            <rect x={i * slot} y={H - ho} width={w} height={ho} fill="var(--mantine-color-red-filled)" />
            <rect
              x={i * slot + w + 1}
              y={H - hr}
              width={w}
              height={hr}
              fill="var(--mantine-color-teal-filled)"
            />
          </g>
        );
      })}
      <text x={0} y={H + 14} fontSize="11" fill="var(--mantine-color-dimmed)">
        {label(days[0]!.date)}
      </text>
      <text x={W} y={H + 14} fontSize="11" textAnchor="end" fill="var(--mantine-color-dimmed)">
        {label(days.at(-1)!.date)}
      </text>
    </svg>
  );
}
