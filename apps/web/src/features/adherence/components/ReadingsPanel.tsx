import type { MeasurementTypeValue } from '@caredeck/contracts';
import { resolveDisplayZone } from '@caredeck/domain';
import { Alert, Anchor, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { daysBefore } from '../../../shared/ui/period';
import { useInhalerUsages } from '../../data-views/api';
import { Bars } from '../../data-views/components/Bars';
import { useLivePatientData, useMeasurements } from '../api';
import { todayIn } from './AdherencePanel';
import { ReadingsChart } from './ReadingsChart';
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
  const { data, units, series } = query.data;
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
              <ReadingsChart
                title={t(`readings.types.${type}`)}
                points={data[type]!.map((p) => ({
                  t: Date.parse(p.measured_at),
                  v: p.value,
                  min: p.min,
                  max: p.max,
                  count: p.count,
                }))}
                bucketSeconds={series?.[type]?.bucket_seconds ?? null}
                zone={zone}
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
