import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DateRangeFields, PeriodPresets } from '../../../shared/ui/PeriodFields';
import { usePeriodParams } from '../../../shared/ui/period';
import { useActiveScope } from '../../tenancy/scope';
import { useActivities, useSleep, useUsages } from '../api';
import { Bars } from '../components/Bars';
import '../i18n';

export type DataViewKind = 'servings' | 'activities' | 'activitiesRange' | 'sleep';

const PRESETS = ['7', '30', '90'] as const;
const DEFAULT_DAYS: Record<DataViewKind, number> = {
  servings: 30,
  activities: 7,
  activitiesRange: 30,
  sleep: 30,
};

/** /servings/{id}, /activities/{id}, /activities-range/{id}, /sleep/{id}: a patient's data over a period in the URL. */
export function DataViewPage({ kind }: { kind: DataViewKind }) {
  const { t } = useTranslation('dataViews');
  const patientId = Number(useParams().id);
  const scope = useActiveScope();
  const period = usePeriodParams(DEFAULT_DAYS[kind]);
  const { start, end, valid } = period;
  const range = { programId: valid ? (scope?.programId ?? 0) : 0, patientId, start, end };

  return (
    <Stack gap="md">
      <Anchor component={Link} to={`/patient/${patientId}?tab=readings`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <Title order={1} fz="h2">
        {t(`titles.${kind}`)}
      </Title>
      <Group align="flex-end" wrap="wrap">
        {kind === 'activitiesRange' ? (
          <DateRangeFields period={period} fromLabel={t('from')} toLabel={t('to')} />
        ) : (
          <PeriodPresets
            period={period}
            presets={PRESETS}
            label={t('period')}
            presetLabel={(p) => t('lastDays', { days: p })}
          />
        )}
      </Group>
      {!valid ? (
        <Alert color="yellow">{t('invalidPeriod')}</Alert>
      ) : kind === 'servings' ? (
        <Servings range={range} />
      ) : kind === 'sleep' ? (
        <Sleep range={range} />
      ) : (
        <Activities range={range} />
      )}
    </Stack>
  );
}

type Range = { programId: number; patientId: number; start: string; end: string };
type QueryState<T> = { data?: T; isError: boolean; refetch: () => unknown };

function State<T>({ query, children }: { query: QueryState<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation('dataViews');
  if (query.isError && !query.data)
    return (
      <Alert color="red" title={t('loadError')}>
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  if (!query.data)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={t('loading')} />
      </Group>
    );
  return <>{children(query.data)}</>;
}

function Servings({ range }: { range: Range }) {
  const { t } = useTranslation('dataViews');
  const query = useUsages(range);
  return (
    <State query={query}>
      {(data) => (
        <Stack gap="md">
          <Paper withBorder p="md" radius="md">
            <Title order={2} fz="h5" mb="sm">
              {t('servings.pods')}
            </Title>
            {data.pods_total > data.pods.length && (
              <Text size="sm" c="dimmed" mb="xs" data-testid="pods-more">
                {t('servings.morePods', { shown: data.pods.length, count: data.pods_total })}
              </Text>
            )}
            {data.pods.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('servings.noPods')}
              </Text>
            ) : (
              <Table data-testid="pods-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('servings.barcode')}</Table.Th>
                    <Table.Th>{t('servings.remaining')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.pods.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td>{p.barcode}</Table.Td>
                      <Table.Td>
                        <Group gap="sm" wrap="nowrap">
                          <Progress
                            value={(p.servings_remaining / Math.max(1, p.original_servings)) * 100}
                            w={160}
                            color={
                              p.servings_remaining / Math.max(1, p.original_servings) < 0.2 ? 'red' : 'teal'
                            }
                            aria-label={t('servings.of', {
                              left: p.servings_remaining,
                              total: p.original_servings,
                            })}
                          />
                          <Text size="sm">
                            {t('servings.of', { left: p.servings_remaining, total: p.original_servings })}
                          </Text>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Title order={2} fz="h5" mb="sm">
              {t('servings.perDay')}
            </Title>
            {data.daily.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('empty')}
              </Text>
            ) : (
              <>
                <Text size="sm" mb="xs" data-testid="doses-total">
                  {t('servings.total', { count: data.daily.reduce((n, d) => n + d.doses, 0) })}
                </Text>
                <Bars
                  days={data.daily}
                  series={[{ key: 'servings', label: t('servings.servings'), color: 'blue' }]}
                  label={t('servings.perDay')}
                />
              </>
            )}
          </Paper>
        </Stack>
      )}
    </State>
  );
}

function Activities({ range }: { range: Range }) {
  const { t, i18n } = useTranslation('dataViews');
  const query = useActivities(range);
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <State query={query}>
      {(data) =>
        data.totals.days_measured === 0 ? (
          <Text c="dimmed">{t('empty')}</Text>
        ) : (
          <Stack gap="md">
            <Text data-testid="activity-totals">
              {t('activities.totals', {
                steps: t('activities.stepCount', {
                  count: data.totals.steps,
                  value: number.format(data.totals.steps),
                }),
                minutes: t('activities.activeMinutes', {
                  count: data.totals.active_minutes,
                  value: number.format(data.totals.active_minutes),
                }),
                days: t('activities.measuredDays', {
                  count: data.totals.days_measured,
                  value: number.format(data.totals.days_measured),
                }),
              })}
            </Text>
            <Paper withBorder p="md" radius="md">
              <Title order={2} fz="h5" mb="sm">
                {t('activities.steps')}
              </Title>
              <Bars
                days={data.data}
                series={[{ key: 'steps', label: t('activities.steps'), color: 'teal' }]}
                label={t('activities.steps')}
              />
            </Paper>
            <Paper withBorder p="md" radius="md">
              <Title order={2} fz="h5" mb="sm">
                {t('activities.active')}
              </Title>
              <Bars
                days={data.data}
                series={[{ key: 'active_minutes', label: t('activities.active'), color: 'grape' }]}
                label={t('activities.active')}
                unit=" min"
              />
            </Paper>
          </Stack>
        )
      }
    </State>
  );
}

function Sleep({ range }: { range: Range }) {
  const { t } = useTranslation('dataViews');
  const query = useSleep(range);
  const hours = (m: number) => `${Math.floor(m / 60)} h ${String(Math.round(m % 60)).padStart(2, '0')}`;
  return (
    <State query={query}>
      {(data) =>
        data.data.length === 0 ? (
          <Text c="dimmed">{t('empty')}</Text>
        ) : (
          <Stack gap="md">
            <Text data-testid="sleep-average">
              {t('sleep.average', { time: hours(data.average_minutes ?? 0) })}
            </Text>
            <Paper withBorder p="md" radius="md">
              <Bars
                days={data.data}
                series={[{ key: 'minutes', label: t('sleep.minutes'), color: 'indigo' }]}
                label={t('sleep.minutes')}
                unit=" min"
              />
            </Paper>
          </Stack>
        )
      }
    </State>
  );
}
