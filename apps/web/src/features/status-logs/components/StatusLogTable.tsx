import type { PATIENT_STATUSES, StatusLogEntry } from '@caredeck/contracts';
import { Anchor, Badge, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import '../i18n';

type Status = (typeof PATIENT_STATUSES)[number];

// Light badges whose text keeps AA contrast in every theme (light 'warning' does not).
const STATUS_COLORS: Record<Status, string> = {
  active: 'success',
  inactive: 'gray',
  pending: 'primary',
  discharged: 'secondary',
};

function StatusBadge({ status }: { status: Status }) {
  const common = useTranslation().t;
  return (
    <Badge variant="light" color={STATUS_COLORS[status]}>
      {common(`patients.status.${status}`)}
    </Badge>
  );
}

/**
 * The log's rows, newest first. The patient's name is a link to their record (the keyboard's way in); a click
 * anywhere else on the row opens it too.
 */
export function StatusLogTable({ rows, showProgram }: { rows: StatusLogEntry[]; showProgram: boolean }) {
  const { t, i18n } = useTranslation('statusLogs');
  const common = useTranslation().t;
  const navigate = useNavigate();
  const when = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const status = (s: Status) => common(`patients.status.${s}`);
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table highlightOnHover verticalSpacing="xs" data-testid="status-log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={190}>{t('columns.when')}</Table.Th>
            <Table.Th>{t('columns.patient')}</Table.Th>
            {showProgram && <Table.Th>{t('columns.program')}</Table.Th>}
            <Table.Th w={240}>{t('columns.change')}</Table.Th>
            <Table.Th>{t('columns.how')}</Table.Th>
            <Table.Th w={170}>{t('columns.by')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr
              key={r.id}
              style={{ cursor: 'pointer' }}
              onClick={(e) => {
                // The link handles its own clicks (and modifier keys for a new tab).
                if ((e.target as HTMLElement).closest('a')) return;
                void navigate(`/patient/${r.patient.id}`);
              }}
              data-testid="status-log-row"
            >
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={r.at}>{when.format(new Date(r.at))}</time>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/patient/${r.patient.id}`} fw={500}>
                  {r.patient.name}
                </Anchor>
                {/* The MRN as recorded, as the patients list shows it (a label before it read "MRN MRN-…"). */}
                {r.patient.mrn && (
                  <Text size="xs" c="dimmed">
                    {r.patient.mrn}
                  </Text>
                )}
              </Table.Td>
              {showProgram && <Table.Td>{r.program.name}</Table.Td>}
              <Table.Td>
                {/* Read out as one phrase ("Active to Pending"); the badges are what the eye reads. */}
                <VisuallyHidden>
                  {r.from
                    ? t('change', { from: status(r.from), to: status(r.to) })
                    : t('enrolledAs', { to: status(r.to) })}
                </VisuallyHidden>
                <Group gap={6} wrap="nowrap" aria-hidden>
                  {r.from ? (
                    <StatusBadge status={r.from} />
                  ) : (
                    <Text span c="dimmed">
                      —
                    </Text>
                  )}
                  <IconArrowRight size={14} />
                  <StatusBadge status={r.to} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`sources.${r.source}`)}</Text>
                {r.reason && (
                  <Text size="xs" c="dimmed">
                    {t('reason', { reason: r.reason })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.changed_by?.name ?? t('noStaff')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
