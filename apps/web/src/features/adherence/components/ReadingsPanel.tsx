import type { MeasurementTypeValue } from '@caredeck/contracts';
import { resolveDisplayZone } from '@caredeck/domain';
import { Alert, Anchor, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { daysBefore, shortDayLabel } from '../../../shared/ui/period';
import { useInhalerUsages } from '../../data-views/api';
import { Bars } from '../../data-views/components/Bars';
import { useLivePatientData, useMeasurements } from '../api';
import { todayIn } from './AdherencePanel';
import '../i18n';

const DAYS = 30;
const TYPES: MeasurementTypeValue[] = ['systolic', 'diastolic', 'pulse', 'oxygen', 'glucose', 'weight'];

/**
 * Normal ranges drawn behind each chart. Until programs set their own thresholds (the rules and alerts
 * area), the common adult ranges are used.
 */
export const NORMAL_RANGES: Partial<Record<MeasurementTypeValue, [number, number]>> = {
  systolic: [90, 140],
  diastolic: [60, 90],
  pulse: [60, 100],
  oxygen: [95, 100],
  glucose: [70, 180],
  temperature: [36.1, 37.2],
};

/** The patient's readings of the last 30 days, one chart per type with its normal range. Live like the calendar. */
export function ReadingsPanel({
  patientId,
  programId,
  timeZone,
}: {
  patientId: number;
  programId: number;
  timeZone: string | null;
}) {
  const { t } = useTranslation('adherence');
  const zone = resolveDisplayZone(timeZone);
  const end = todayIn(zone);
  const start = daysBefore(end, DAYS - 1);
  const query = useMeasurements(programId, patientId, start, end, TYPES);
  const inhaler = useInhalerUsages({ programId, patientId, start, end });
  useLivePatientData(patientId);
  const inhalerUsed = (inhaler.data?.data.length ?? 0) > 0;

  if (query.isError && !query.data)
    return (
      <Alert color="red" title={t('readings.loadError')}>
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  if (!query.data)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={t('readings.title')} />
      </Group>
    );
  const { data, units } = query.data;
  const shown = TYPES.filter((type) => (data[type]?.length ?? 0) > 0);
  return (
    <Stack gap="md" data-testid="readings-panel">
      <Group justify="space-between">
        <Title order={3} size="h4">
          {t('readings.title')}
        </Title>
        <Group gap="md">
          <Anchor component={Link} to={`/servings/${patientId}`} size="sm">
            {t('readings.servingsLink')}
          </Anchor>
          <Anchor component={Link} to={`/activities-range/${patientId}`} size="sm">
            {t('readings.activityLink')}
          </Anchor>
          <Anchor component={Link} to={`/sleep/${patientId}`} size="sm">
            {t('readings.sleepLink')}
          </Anchor>
          <Text size="sm" c="dimmed">
            {t('readings.range', { days: DAYS })}
          </Text>
        </Group>
      </Group>
      {inhalerUsed && inhaler.data && (
        <Paper withBorder p="sm" radius="md" data-testid="inhaler-use">
          <Text fw={600} size="sm" mb="xs">
            {t('readings.inhaler')}
          </Text>
          <Bars
            days={inhaler.data.daily}
            series={[
              { key: 'controller', label: t('readings.controller'), color: 'teal' },
              { key: 'rescue', label: t('readings.rescue'), color: 'orange' },
            ]}
            label={t('readings.inhaler')}
          />
        </Paper>
      )}
      {shown.length === 0 && !inhalerUsed ? (
        <Text c="dimmed" size="sm">
          {t('readings.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {shown.map((type) => (
            <Paper key={type} withBorder p="sm" radius="md" data-testid={`chart-${type}`}>
              <LineChart
                title={t(`readings.types.${type}`)}
                points={data[type]!.map((p) => ({ t: Date.parse(p.measured_at), v: p.value }))}
                unit={units[type] ?? ''}
                range={NORMAL_RANGES[type]}
                from={Date.parse(`${start}T00:00:00Z`)}
                to={Date.parse(`${end}T23:59:59Z`)}
              />
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

const W = 480;
const H = 180;
const PAD = { left: 40, right: 8, top: 8, bottom: 20 };

/** A small SVG line chart: the readings over time and the normal range as a band. */
function LineChart({
  title,
  points,
  unit,
  range,
  from,
  to,
}: {
  title: string;
  points: { t: number; v: number }[];
  unit: string;
  range?: [number, number];
  from: number;
  to: number;
}) {
  const { t, i18n } = useTranslation('adherence');
  const values = points.map((p) => p.v).concat(range ?? []);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const margin = (hi - lo) * 0.1 || Math.max(1, Math.abs(hi) * 0.05);
  lo -= margin;
  hi += margin;
  const x = (time: number) =>
    PAD.left + ((time - from) / Math.max(1, to - from)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const path = points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`)
    .join(' ');
  const latest = points.at(-1);
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const dateTick = (time: number) => shortDayLabel(time, i18n.language);
  const summary = [
    latest ? t('readings.latest', { value: number.format(latest.v), unit }) : '',
    range ? t('readings.normal', { low: number.format(range[0]), high: number.format(range[1]), unit }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text fw={600} size="sm">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {summary}
        </Text>
      </Group>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={`${title}: ${summary}`}>
        {range && (
          <rect
            x={PAD.left}
            width={W - PAD.left - PAD.right}
            y={y(range[1])}
            height={Math.max(0, y(range[0]) - y(range[1]))}
            fill="var(--mantine-color-teal-light)"
          />
        )}
        {[lo + margin, (lo + hi) / 2, hi - margin].map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(v)}
              y2={y(v)}
              stroke="var(--mantine-color-default-border)"
            />
            <text
              x={PAD.left - 4}
              y={y(v) + 4}
              fontSize="10"
              textAnchor="end"
              fill="var(--mantine-color-dimmed)"
            >
              {number.format(v)}
            </text>
          </g>
        ))}
        {[from, (from + to) / 2, to].map((time, i) => (
          <text
            key={time}
            x={x(time)}
            y={H - 4}
            fontSize="10"
            textAnchor={i === 0 ? 'start' : i === 2 ? 'end' : 'middle'}
            fill="var(--mantine-color-dimmed)"
          >
            {dateTick(time)}
          </text>
        ))}
        <path d={path} fill="none" stroke="var(--mantine-color-blue-filled)" strokeWidth={2} />
        {points.map((p) => {
          const outside = range && (p.v < range[0] || p.v > range[1]);
          return (
            <circle
              key={p.t}
              cx={x(p.t)}
              cy={y(p.v)}
              r={outside ? 3.5 : 2.5}
              fill={outside ? 'var(--mantine-color-red-filled)' : 'var(--mantine-color-blue-filled)'}
            />
          );
        })}
      </svg>
    </Stack>
  );
}
