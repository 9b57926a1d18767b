import type { PatientListItem } from '@caredeck/contracts';
import { US_DATE_PATTERN } from '@caredeck/domain';
import { Anchor, Badge, Center, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { dateOrNotProvided, valueOrNotProvided } from '../../../shared/ui/notProvided';
import type { PatientSortField, SortDirection } from '../api';

export interface PatientSort {
  field: PatientSortField;
  direction: SortDirection;
}

type ColumnKey = 'name' | 'dob' | 'sex' | 'status' | 'assignedAdmin' | 'created';

const COLUMNS: readonly { key: ColumnKey; sortField?: PatientSortField }[] = [
  { key: 'name', sortField: 'name' },
  { key: 'dob', sortField: 'dob' },
  { key: 'sex' },
  { key: 'status', sortField: 'status' },
  { key: 'assignedAdmin' },
  { key: 'created', sortField: 'created_at' },
];

const STATUS_COLORS: Record<PatientListItem['status'], string> = {
  active: 'success',
  inactive: 'gray',
  pending: 'warning',
  discharged: 'secondary',
};

export interface PatientsTableProps {
  patients: readonly PatientListItem[];
  sort: PatientSort;
  onSort: (field: PatientSortField) => void;
  /** Display zone of the created date: the user's own zone, else the console default. */
  timeZone: string | null;
}

export function PatientsTable({ patients, sort, onSort, timeZone }: PatientsTableProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('patients.title')}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => {
              const label = t(`patients.columns.${column.key}`);
              const field = column.sortField;
              if (!field) return <Table.Th key={column.key}>{label}</Table.Th>;
              const active = sort.field === field;
              const Icon = !active
                ? IconSelector
                : sort.direction === 'ASC'
                  ? IconChevronUp
                  : IconChevronDown;
              return (
                <Table.Th
                  key={column.key}
                  aria-sort={active ? (sort.direction === 'ASC' ? 'ascending' : 'descending') : 'none'}
                >
                  <UnstyledButton onClick={() => onSort(field)} data-testid={`sort-${field}`}>
                    <Group gap={4} wrap="nowrap">
                      <Text fw={600} size="sm">
                        {label}
                      </Text>
                      <Center>
                        <Icon size={14} aria-hidden />
                      </Center>
                    </Group>
                  </UnstyledButton>
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {patients.map((patient) => (
            <Table.Tr
              key={patient.id}
              data-testid="patient-row"
              style={{ cursor: 'pointer' }}
              // The whole row opens the patient; the name is the keyboard's way in (a real link).
              onClick={(event) => {
                if ((event.target as HTMLElement).closest('a')) return;
                navigate(`/patient/${patient.id}`);
              }}
            >
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`/patient/${patient.id}`}
                  size="sm"
                  fw={500}
                  aria-label={t('patients.open', { name: patient.name })}
                >
                  {patient.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{dateOrNotProvided(patient.dob, US_DATE_PATTERN)}</Table.Td>
              <Table.Td>{t(`patients.sex.${patient.sex}`)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={STATUS_COLORS[patient.status]}>
                  {t(`patients.status.${patient.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>{valueOrNotProvided(patient.assigned_admin?.name)}</Table.Td>
              <Table.Td>{dateOrNotProvided(patient.created_at, US_DATE_PATTERN, timeZone)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
