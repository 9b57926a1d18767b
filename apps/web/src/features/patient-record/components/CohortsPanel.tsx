import { CARE_ROLES, type PatientRecord } from '@caredeck/contracts';
import { Alert, Anchor, Button, Center, Group, List, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasAnyRole } from '../../../app/auth/roles';
import { useCurrentUser } from '../../identity/api';
import { BulkCohortAdd } from '../../patients/components/BulkCohortAdd';
import { useActiveScope } from '../../tenancy/scope';
import { usePatientCohorts } from '../api';
import '../i18n';

const NOTHING = () => undefined;

/** The patient's cohorts (`GET groups/patient-groups`), and adding the patient to another one of the program. */
export function CohortsPanel({ patient }: { patient: PatientRecord }) {
  const { t } = useTranslation('patientRecord');
  const user = useCurrentUser();
  const scope = useActiveScope();
  // Those who may change the patient's cohorts (pharma and pharmacy users read them).
  const canEdit = Boolean(user && scope && !scope.enterpriseScope && hasAnyRole(user, CARE_ROLES, scope));
  const common = useTranslation().t;
  const cohorts = usePatientCohorts(patient.id);
  const list = cohorts.isError ? (
    <Alert color="danger" title={t('loadError')} role="alert">
      <Button size="xs" variant="light" color="danger" onClick={() => void cohorts.refetch()}>
        {common('common.retry')}
      </Button>
    </Alert>
  ) : !cohorts.data ? (
    <Center py="md">
      <Loader size="sm" aria-label={common('common.loading')} />
    </Center>
  ) : cohorts.data.data.length === 0 ? (
    <Text c="dimmed">{t('cohorts.empty')}</Text>
  ) : (
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
  return (
    <Stack gap="md">
      {list}
      {canEdit ? (
        <Group gap="xs" align="flex-end" data-testid="patient-cohort-add">
          <BulkCohortAdd programId={patient.program_id} selected={new Set([patient.id])} onDone={NOTHING} />
        </Group>
      ) : null}
    </Stack>
  );
}
