import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAlertTiles, useLiveAlerts } from '../../alerts/api';
import { TriageList } from '../../alerts/components/TriageList';
import { useActiveScope } from '../../tenancy/scope';
import { useDashboardFact, usePatientCounts } from '../api';
import { FactChart, FactTile } from './DashboardParts';
import '../i18n';

const DAYS = 14;

/** /provider-dashboard: the clinical picture of the scope, live: open alerts, who to call, readings. */
export function ProviderDashboardPage() {
  const { t, i18n } = useTranslation('dashboards');
  const scope = useActiveScope();
  useLiveAlerts();
  const tiles = useAlertTiles(scope);
  const counts = usePatientCounts(scope);
  const alerts = useDashboardFact(scope, 'alerts', DAYS);
  const readings = useDashboardFact(scope, 'readings', DAYS);
  const vitals = tiles.data?.data
    .filter((tile) => tile.group === 'vitals')
    .reduce((n, tile) => n + tile.count, 0);
  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {i18n.t('nav.providerDashboard')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('lastDays', { days: DAYS })}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <FactTile id="open-alerts" label={t('tiles.openAlerts')} value={tiles.data?.total} />
        <FactTile id="vital-alerts" label={t('tiles.vitalAlerts')} value={vitals} />
        <FactTile
          id="patients-alerted"
          label={t('tiles.patientsWithAlerts')}
          value={counts.data?.data.with_alerts}
        />
        <FactTile id="patients" label={t('tiles.patients')} value={counts.data?.data.patients} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <FactChart
          title={t('charts.alerts', { total: alerts.data?.total ?? 0 })}
          name={t('series.alerts')}
          data={alerts.data?.data}
          color="red"
        />
        <FactChart
          title={t('charts.readings', { total: readings.data?.total ?? 0 })}
          name={t('series.readings')}
          data={readings.data?.data}
          color="blue"
        />
      </SimpleGrid>
      <TriageList scope={scope} />
    </Stack>
  );
}
