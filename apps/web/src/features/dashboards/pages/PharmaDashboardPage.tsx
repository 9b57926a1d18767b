import type { AlertType } from '@caredeck/contracts';
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAlertTiles, useLiveAlerts } from '../../alerts/api';
import { useActiveScope } from '../../tenancy/scope';
import { useDashboardFact } from '../api';
import { FactChart, FactTile } from './DashboardParts';
import '../i18n';

const DAYS = 14;

/** /pharma-dashboard: medication use of the scope, live: doses taken, missed, pods running low, adherence, enrolments. */
export function PharmaDashboardPage() {
  const { t, i18n } = useTranslation('dashboards');
  const scope = useActiveScope();
  useLiveAlerts();
  const tiles = useAlertTiles(scope);
  const doses = useDashboardFact(scope, 'doses', DAYS);
  const enrolments = useDashboardFact(scope, 'enrolments', DAYS);
  const count = (type: AlertType) => tiles.data?.data.find((tile) => tile.type === type)?.patients;
  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {i18n.t('nav.pharmaDashboard')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('lastDays', { days: DAYS })}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <FactTile id="doses" label={t('tiles.doses')} value={doses.data?.total} />
        <FactTile id="missed" label={t('tiles.missed')} value={count('missed_doses')} />
        <FactTile id="low-pods" label={t('tiles.lowPods')} value={count('low_medication_pods')} />
        <FactTile id="low-adherence" label={t('tiles.lowAdherence')} value={count('low_adherence')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <FactChart
          title={t('charts.doses', { total: doses.data?.total ?? 0 })}
          name={t('series.doses')}
          data={doses.data?.data}
          color="teal"
        />
        <FactChart
          title={t('charts.enrolments', { total: enrolments.data?.total ?? 0 })}
          name={t('series.enrolments')}
          data={enrolments.data?.data}
          color="grape"
        />
      </SimpleGrid>
    </Stack>
  );
}
