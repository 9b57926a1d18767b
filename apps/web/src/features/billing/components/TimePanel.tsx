import { US_DATE_TIME_PATTERN } from '@caredeck/domain';
import {
  ActionIcon,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { dateOrNotProvided } from '../../../shared/ui/notProvided';
import { useCurrentUser } from '../../identity/api';
import { useDeleteTime, usePatientBilling } from '../api';
import { RecordTimeModal } from './RecordTimeModal';
import '../i18n';

type Entry = NonNullable<ReturnType<typeof usePatientBilling>['data']>['data'][number];

/**
 * The patient record's time tab: this month's figures (days with readings, RPM and CCM minutes, codes), the
 * minutes per staff member, and the entries with their author, newest first; add time afterwards, delete an
 * entry after a confirmation.
 */
export function TimePanel({
  patient,
  programId,
}: {
  patient: { id: number; name: string };
  programId: number;
}) {
  const { t, i18n } = useTranslation('billing');
  const zone = useCurrentUser()?.tz ?? null;
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Entry | null>(null);
  const billing = usePatientBilling(patient.id, page);
  const remove = useDeleteTime();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const minutes = (seconds: number) => Math.round(seconds / 60);

  if (!billing.data)
    return (
      <Center py="lg">
        <Loader size="sm" aria-label={t('loading')} />
      </Center>
    );
  const { summary, status, by_admin: byAdmin = [] } = billing.data;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={2} fz="h4">
            {t('panel.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('panel.status', { status: t(`statuses.${status}`) })}
          </Text>
        </div>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          variant="default"
          onClick={() => setAdding(true)}
        >
          {t('record.add')}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <Figure
          label={t('panel.readingDays')}
          value={
            summary.reading_days >= 16
              ? String(summary.reading_days)
              : t('daysOf', { days: summary.reading_days })
          }
          id="days"
        />
        <Figure
          label={t('panel.rpm')}
          value={t('panel.minutes', { minutes: number.format(summary.rpm_minutes) })}
          id="rpm"
        />
        <Figure
          label={t('panel.ccm')}
          value={t('panel.minutes', { minutes: number.format(summary.ccm_minutes) })}
          id="ccm"
        />
        <Paper withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed">
            {t('panel.codes')}
          </Text>
          <Group gap={4} mt={4} data-testid="patient-billing-codes">
            {summary.codes.length === 0 ? (
              <Text size="sm">{t('noCodes')}</Text>
            ) : (
              summary.codes.map((c) => (
                <Badge key={c.code} variant="light">
                  {c.units > 1 ? `${c.code} × ${c.units}` : c.code}
                </Badge>
              ))
            )}
          </Group>
        </Paper>
      </SimpleGrid>
      {byAdmin.length > 0 && (
        <div>
          <Title order={3} fz="h6" mb={4}>
            {t('panel.byStaff')}
          </Title>
          <Group gap="xs">
            {byAdmin.map((a) => (
              <Badge key={a.id} variant="default" size="lg">
                {a.name}: {t('panel.minutes', { minutes: number.format(a.minutes) })}
              </Badge>
            ))}
          </Group>
        </div>
      )}
      <div>
        <Title order={3} fz="h6" mb={4}>
          {t('panel.entries')}
        </Title>
        {billing.data.data.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('panel.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table data-testid="time-entries">
              <Table.Tbody>
                {billing.data.data.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{dateOrNotProvided(entry.started_at, US_DATE_TIME_PATTERN, zone)}</Table.Td>
                    <Table.Td>
                      {t(`record.activities.${entry.activity}`)} · {entry.type.toUpperCase()}
                      {entry.interactive ? ` · ${t('interactive')}` : ''}
                      {entry.note ? (
                        <Text size="xs" c="dimmed">
                          {entry.note}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {entry.seconds < 60
                          ? t('panel.underMinute')
                          : t('panel.minutes', { minutes: number.format(entry.seconds / 60) })}
                        {!entry.billable && (
                          <Badge variant="outline" color="gray" size="sm">
                            {t('panel.notBillable')}
                          </Badge>
                        )}
                        {entry.source === 'timer' && (
                          <Badge variant="default" size="sm">
                            {t('panel.timerSource')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{entry.admin.name}</Table.Td>
                    <Table.Td w={40}>
                      <Tooltip label={t('panel.delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="danger"
                          aria-label={t('panel.delete')}
                          onClick={() => setDeleting(entry)}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {billing.data.last_page > 1 && (
          <Group justify="flex-end" mt="xs">
            <Pagination size="sm" total={billing.data.last_page} value={page} onChange={setPage} />
          </Group>
        )}
      </div>
      {adding && <RecordTimeModal patient={patient} programId={programId} onClose={() => setAdding(false)} />}
      {deleting && (
        <ConfirmModal
          title={t('panel.deleteTitle')}
          body={
            <Text size="sm">
              {t('panel.deleteBody', {
                count: minutes(deleting.seconds),
                activity: t(`record.activities.${deleting.activity}`),
                date: dateOrNotProvided(deleting.started_at, US_DATE_TIME_PATTERN, zone),
              })}
            </Text>
          }
          confirm={t('panel.deleteConfirm')}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await remove.mutateAsync(deleting.id);
            return { message: t('panel.deleted') };
          }}
        />
      )}
    </Stack>
  );
}

function Figure({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={`patient-billing-${id}`}>
        {value}
      </Text>
    </Paper>
  );
}
