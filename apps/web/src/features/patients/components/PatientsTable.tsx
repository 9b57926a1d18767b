import type { PatientListItem, PatientSummary } from '@caredeck/contracts';
import { US_DATE_PATTERN } from '@caredeck/domain';
import {
  Anchor,
  Badge,
  Center,
  Checkbox,
  Group,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { dateOrNotProvided, identityDate, valueOrNotProvided } from '../../../shared/ui/notProvided';
import type { PatientSortField, SortDirection } from '../api';

export interface PatientSort {
  field: PatientSortField;
  direction: SortDirection;
}

type ColumnKey =
  | 'name'
  | 'mrn'
  | 'dob'
  | 'sex'
  | 'program'
  | 'status'
  | 'alerts'
  | 'adherence'
  | 'lastReading'
  | 'assignedAdmin'
  | 'created';

const NAME_MIN_WIDTH = 200;
/**
 * Fixed widths (the table lays out the same on every page); `wide` columns are hidden on a phone, `roomy` ones
 * below 1600 pixels, so the columns a monitoring team works from fit a 1440-pixel screen without scrolling.
 */
const COLUMNS: readonly {
  key: ColumnKey;
  sortField?: PatientSortField;
  width?: number;
  wide?: boolean;
  roomy?: boolean;
}[] = [
  { key: 'name', sortField: 'name' },
  { key: 'mrn', width: 115, wide: true },
  { key: 'dob', sortField: 'dob', width: 150, wide: true },
  { key: 'sex', width: 75, wide: true },
  { key: 'program', width: 145, wide: true },
  { key: 'status', sortField: 'status', width: 110 },
  { key: 'alerts', width: 70, wide: true },
  { key: 'adherence', width: 95, wide: true },
  { key: 'lastReading', width: 140, wide: true },
  { key: 'assignedAdmin', width: 135, wide: true },
  { key: 'created', sortField: 'created_at', width: 110, wide: true, roomy: true },
];

/**
 * Outside English the date of birth carries a month name ('27 de dez. de 1985 (40 anos)', ADR 023) and sex a
 * longer word ('Unbekannt'): those two columns get wider and the last reading, adherence and assignee give the
 * room back, so the age is not cut off and the columns still fit a 1440-pixel screen.
 */
const MONTH_NAME_WIDTHS: Partial<Record<ColumnKey, number>> = {
  dob: 175,
  sex: 92,
  adherence: 88,
  lastReading: 120,
  assignedAdmin: 120,
};

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
  /** Program names by id: given on enterprise scope, where the list spans programs (adds the Program column). */
  programNames?: ReadonlyMap<number, string>;
  /** Bulk selection (ids on this page); omitted for users who may not change statuses. */
  selection?: { selected: ReadonlySet<number>; onChange: (ids: ReadonlySet<number>) => void };
  /** Adherence of the last days and the newest reading, by patient id, once loaded (program scope). */
  summaries?: ReadonlyMap<number, PatientSummary>;
}

/** "Becker, Lynn": the list is sorted by family name, so it reads family name first. */
export function listName(patient: Pick<PatientListItem, 'first_name' | 'last_name'>): string {
  return `${patient.last_name}, ${patient.first_name}`;
}

/** Arrow keys (and j/k) move between the rows' links; Enter follows the focused one. */
function moveFocus(event: KeyboardEvent<HTMLTableSectionElement>) {
  const step =
    event.key === 'ArrowDown' || event.key === 'j'
      ? 1
      : event.key === 'ArrowUp' || event.key === 'k'
        ? -1
        : 0;
  if (step === 0) return;
  const target = event.target as HTMLElement;
  if (target.tagName === 'INPUT' && target.getAttribute('type') !== 'checkbox') return;
  const links = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('a[data-row-link]'));
  const row = target.closest('tr');
  const current = links.findIndex((link) => link.closest('tr') === row);
  const next = links[Math.min(links.length - 1, Math.max(0, current + step))];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

export function PatientsTable({
  patients,
  sort,
  onSort,
  timeZone,
  programNames,
  selection,
  summaries,
}: PatientsTableProps) {
  const { t, i18n } = useTranslation();
  type Reading = NonNullable<PatientSummary['last_reading']>;
  // A count whose unit is its kind (steps) reads '5276 steps', not '5276 steps steps'.
  const readingValue = (r: Reading) => (r.unit === r.type ? `${r.value}` : `${r.value} ${r.unit}`);
  const readingKind = (r: Reading) => t(`patients.readings.${r.type}`, { defaultValue: r.type });
  const monthNames = !i18n.language.startsWith('en');
  const widthOf = (column: { key: ColumnKey; width?: number }) =>
    (monthNames ? MONTH_NAME_WIDTHS[column.key] : undefined) ?? column.width;
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const roomy = useMediaQuery('(min-width: 100em)') ?? false;
  const columns = COLUMNS.filter(
    (c) =>
      (c.key !== 'program' || programNames) &&
      !(phone && c.wide) &&
      // A roomy column stays while the list is sorted by it (its header shows the order).
      (!c.roomy || roomy || (c.sortField !== undefined && c.sortField === sort.field)),
  );
  // The name column takes what the fixed ones leave: the table scrolls sideways before it gets narrower
  // than NAME_MIN_WIDTH (it used to collapse to a letter on a 1280-pixel screen).
  const minWidth = phone
    ? 0
    : NAME_MIN_WIDTH + (selection ? 44 : 0) + columns.reduce((sum, c) => sum + (widthOf(c) ?? 0), 0);
  const pageIds = patients.map((p) => p.id);
  const selectedHere = selection ? pageIds.filter((id) => selection.selected.has(id)).length : 0;

  const toggleAll = () => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (selectedHere === pageIds.length) for (const id of pageIds) next.delete(id);
    else for (const id of pageIds) next.add(id);
    selection.onChange(next);
  };
  const toggle = (id: number) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    selection.onChange(next);
  };

  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table
        striped
        highlightOnHover
        layout="fixed"
        verticalSpacing="xs"
        aria-label={t('patients.title')}
        aria-describedby="patients-keyboard-hint"
      >
        <Table.Thead>
          <Table.Tr>
            {selection ? (
              <Table.Th w={44}>
                <Checkbox
                  aria-label={t('patients.selectPage')}
                  checked={selectedHere > 0 && selectedHere === pageIds.length}
                  indeterminate={selectedHere > 0 && selectedHere < pageIds.length}
                  onChange={toggleAll}
                  data-testid="select-page"
                />
              </Table.Th>
            ) : null}
            {columns.map((column) => {
              const label = t(`patients.columns.${column.key}`);
              const field = column.sortField;
              if (!field)
                return (
                  <Table.Th key={column.key} w={widthOf(column)}>
                    {label}
                  </Table.Th>
                );
              const active = sort.field === field;
              const Icon = !active
                ? IconSelector
                : sort.direction === 'ASC'
                  ? IconChevronUp
                  : IconChevronDown;
              return (
                <Table.Th
                  key={column.key}
                  w={widthOf(column)}
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
        <Table.Tbody onKeyDown={moveFocus}>
          {patients.map((patient) => {
            const cells: Record<ColumnKey, React.ReactNode> = {
              name: (
                <Anchor
                  component={Link}
                  to={`/patient/${patient.id}`}
                  size="sm"
                  fw={500}
                  data-row-link
                  style={{
                    display: 'block',
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                  }}
                >
                  {listName(patient)}
                </Anchor>
              ),
              mrn: valueOrNotProvided(patient.mrn),
              dob: /^\d{4}-\d{2}-\d{2}/.test(patient.dob ?? '') ? (
                <>
                  {identityDate(patient.dob)}{' '}
                  <Text span size="xs" c="dimmed">
                    {t('patients.age', { count: patient.age ?? 0 })}
                  </Text>
                </>
              ) : (
                dateOrNotProvided(patient.dob, US_DATE_PATTERN)
              ),
              sex: t(`patients.sex.${patient.sex}`),
              program: programNames?.get(patient.program_id) ?? `#${patient.program_id}`,
              status: (
                // Sentence case: in capitals 'Discharged' and 'Ausstehend' did not fit the column and read 'DISCHA…'.
                <Badge
                  variant="light"
                  color={STATUS_COLORS[patient.status]}
                  tt="none"
                  size="sm"
                  px={6}
                  maw="100%"
                >
                  {t(`patients.status.${patient.status}`)}
                </Badge>
              ),
              alerts: ((summary) =>
                !summary ? (
                  <Text span size="sm" c="dimmed">
                    –
                  </Text>
                ) : summary.open_alerts === 0 ? (
                  <Text span size="sm" c="dimmed">
                    0
                  </Text>
                ) : (
                  ((text) => (
                    <>
                      <Badge
                        variant={summary.escalated ? 'filled' : 'light'}
                        color={summary.escalated ? 'danger' : 'warning'}
                        title={text}
                        aria-hidden
                      >
                        {summary.open_alerts}
                      </Badge>
                      <VisuallyHidden>{text}</VisuallyHidden>
                    </>
                  ))(
                    t(summary.escalated ? 'patients.openAlertsEscalated' : 'patients.openAlerts', {
                      count: summary.open_alerts,
                    }),
                  )
                ))(summaries?.get(patient.id)),
              adherence: ((summary) =>
                summary?.adherence == null ? (
                  <Text span size="sm" c="dimmed">
                    –
                  </Text>
                ) : (
                  `${Math.round(summary.adherence)} %`
                ))(summaries?.get(patient.id)),
              lastReading: ((reading) =>
                reading ? (
                  <>
                    {readingValue(reading)}{' '}
                    <Text span size="xs" c="dimmed">
                      {readingKind(reading)}
                    </Text>
                  </>
                ) : (
                  <Text span size="sm" c="dimmed">
                    –
                  </Text>
                ))(summaries?.get(patient.id)?.last_reading),
              assignedAdmin: patient.assigned_admin?.name ?? (
                <Text span size="sm" c="dimmed">
                  {t('patients.unassigned')}
                </Text>
              ),
              created: dateOrNotProvided(patient.created_at, US_DATE_PATTERN, timeZone),
            };
            // The whole text of the cells a long value may cut off, shown on hover.
            const reading = summaries?.get(patient.id)?.last_reading;
            const titles: Partial<Record<ColumnKey, string>> = {
              mrn: patient.mrn ?? undefined,
              program: programNames?.get(patient.program_id),
              lastReading: reading ? `${readingValue(reading)} ${readingKind(reading)}` : undefined,
              assignedAdmin: patient.assigned_admin?.name ?? t('patients.unassigned'),
            };
            const checked = selection?.selected.has(patient.id) ?? false;
            return (
              <Table.Tr
                key={patient.id}
                data-testid="patient-row"
                aria-selected={selection ? checked : undefined}
                style={{ cursor: 'pointer' }}
                // The whole row opens the patient; the name is the keyboard's way in (a real link).
                onClick={(event) => {
                  if ((event.target as HTMLElement).closest('a, input, label')) return;
                  navigate(`/patient/${patient.id}`);
                }}
              >
                {selection ? (
                  <Table.Td>
                    <Checkbox
                      aria-label={t('patients.select', { name: patient.name })}
                      checked={checked}
                      onChange={() => toggle(patient.id)}
                    />
                  </Table.Td>
                ) : null}
                {columns.map((column) => (
                  <Table.Td
                    key={column.key}
                    // One line per row: a value too long for its column ends in an ellipsis instead of wrapping.
                    style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                    title={titles[column.key]}
                  >
                    {cells[column.key]}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
