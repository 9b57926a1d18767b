import type { PatientRecord } from '@caredeck/contracts';
import { Anchor, Center, List, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePatientCohorts } from '../api';

export function CohortsPanel({ patient }: { patient: PatientRecord }) {
  const { t } = useTranslation('patientRecord');
  const cohorts = usePatientCohorts(patient.id);
  if (!cohorts.data)
    return (
      <Center py="md">
        <Loader size="sm" />
      </Center>
    );
  if (cohorts.data.data.length === 0) return <Text c="dimmed">{t('cohorts.empty')}</Text>;
  return (
    <List>
      {cohorts.data.data.map((group) => (
        <List.Item key={group.id}>
          <Anchor component={Link} to={`/group/${group.id}`}>
            {group.name}
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}
