import type { PatientRecord } from '@caredeck/contracts';
import { US_DATE_TIME_PATTERN } from '@caredeck/domain';
import { Center, Group, Loader, Pagination, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateOrNotProvided } from '../../../shared/ui/notProvided';
import { auditActionLabel } from '../../audit/labels';
import { useCurrentUser } from '../../identity/api';
import { useAuditHistory, usePatientStatus } from '../api';
import '../i18n';

/**
 * Status history and the record's audit history (who viewed or changed it), newest first. Each status change
 * shows how it was made and, when one was given, its reason (ADR 052), as the program's status log does.
 */
export function HistoryPanel({ patient, programId }: { patient: PatientRecord; programId: number }) {
  const { t, i18n } = useTranslation('patientRecord');
  const common = useTranslation().t;
  const zone = useCurrentUser()?.tz ?? null;
  const [page, setPage] = useState(1);
  const status = usePatientStatus(patient.id);
  const audit = useAuditHistory(programId, patient.id, page);
  const by = (person: { name: string } | null) =>
    person ? t('history.by', { name: person.name }) : t('history.system');

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Stack gap="xs">
        <Title order={2} fz="h5">
          {t('history.status')}
        </Title>
        {!status.data ? (
          <Center>
            <Loader size="sm" />
          </Center>
        ) : status.data.history.length === 0 ? (
          <Text c="dimmed">{t('history.empty')}</Text>
        ) : (
          <Table>
            <Table.Tbody>
              {status.data.history.map((entry) => (
                <Table.Tr
                  key={`${entry.at}-${entry.status}`}
                  style={{ verticalAlign: 'top' }}
                  data-testid="status-history-row"
                >
                  <Table.Td>
                    {common(`patients.status.${entry.status}`)}
                    <Text size="xs" c="dimmed">
                      {t(`history.sources.${entry.source}`)}
                    </Text>
                    {/* Only a change that carried a reason says so: most have none. */}
                    {entry.reason && (
                      <Text size="sm" mt={4} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                        {t('history.reason', { reason: entry.reason })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{dateOrNotProvided(entry.at, US_DATE_TIME_PATTERN, zone)}</Table.Td>
                  <Table.Td>{by(entry.by)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={2} fz="h5">
          {t('history.audit')}
        </Title>
        {!audit.data ? (
          <Center>
            <Loader size="sm" />
          </Center>
        ) : audit.data.data.length === 0 ? (
          <Text c="dimmed">{t('history.empty')}</Text>
        ) : (
          <>
            <Table data-testid="audit-history">
              <Table.Tbody>
                {audit.data.data.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{auditActionLabel(entry.action, i18n.language)}</Table.Td>
                    <Table.Td>{dateOrNotProvided(entry.created_at, US_DATE_TIME_PATTERN, zone)}</Table.Td>
                    <Table.Td>{by(entry.actor)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {audit.data.last_page > 1 ? (
              <Group justify="flex-end">
                <Pagination size="sm" total={audit.data.last_page} value={page} onChange={setPage} />
              </Group>
            ) : null}
          </>
        )}
      </Stack>
    </SimpleGrid>
  );
}
