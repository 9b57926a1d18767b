import type { PatientAlertSummary } from '@caredeck/contracts';
import { Badge, Group, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ActiveScope } from '../../tenancy/scope';
import { useTriage } from '../api';
import '../i18n';

/** Patients ranked by their open alerts, each with the types of them. */
export function TriageTable({ rows }: { rows: PatientAlertSummary[] }) {
  const { t } = useTranslation('alerts');
  return (
    <Table verticalSpacing={4} data-testid="triage">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('table.patient')}</Table.Th>
          <Table.Th w={90}>{t('triage.open')}</Table.Th>
          <Table.Th>{t('triage.types')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.patient.id}>
            <Table.Td>
              <Link to={`/patient/${r.patient.id}`} style={{ color: 'inherit' }}>
                {r.patient.name}
              </Link>
              {r.escalated > 0 && (
                <Badge
                  ml="xs"
                  size="sm"
                  variant="light"
                  color="orange"
                  style={{ color: 'var(--mantine-color-text)' }}
                >
                  {t('status.escalated')}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{r.total}</Table.Td>
            <Table.Td>
              <Group gap={4}>
                {Object.entries(r.types).map(([type, count]) => (
                  <Text key={type} size="xs" c="dimmed">
                    {t(`types.${type as 'missed_doses'}`)} ({count})
                  </Text>
                ))}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** "Call first": the program's patients ranked by their open alerts (escalated, then most, then newest). */
export function TriageList({ scope }: { scope: ActiveScope | null }) {
  const { t } = useTranslation('alerts');
  const triage = useTriage(scope);
  const rows = triage.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} fz="h4" mb="xs">
        {t('triage.title')}
      </Title>
      <TriageTable rows={rows} />
    </Paper>
  );
}
