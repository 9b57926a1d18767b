import { CARE_ROLES, PATIENT_SORT_FIELDS } from '@caredeck/contracts';
import { DEFAULT_PAGE_SIZE } from '@caredeck/domain';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { hasAnyRole } from '../../../app/auth/roles';
import { readItem, writeItem } from '../../../shared/browser-storage';
import { deferredControl } from '../../../shared/ui/deferred';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useScrollRestored } from '../../../shared/ui/useScrollRestored';
import { useCurrentUser } from '../../identity/api';
import { type ActiveScope, useActiveScope } from '../../tenancy/scope';
import { type PatientListParams, type PatientSortField, usePatientList, usePatientSummaries } from '../api';
import { ExportButton } from '../components/ExportButton';
import {
  activeFilterCount,
  changedFilterParams,
  filterChanges,
  PatientFilters,
  type PatientFilterValues,
  readFilters,
} from '../components/PatientFilters';
import { PatientListFooter, PER_PAGE_OPTIONS } from '../components/PatientListFooter';
import { PatientsTable } from '../components/PatientsTable';
import { SavedViews } from '../components/SavedViews';
import { patientSearch, usePatientSearch } from '../searchStore';

/** Offered to the roles that may enrol (ADR 065): the role rules load after the list, with this button. */
const AddPatientButton = deferredControl(
  () => import('../components/AddPatientButton').then((m) => m.AddPatientButton),
  () => null,
);

/** Shown once patients are selected: its code (a Select, the confirmation dialog) loads after the list. */
const BulkStatusBar = deferredControl(
  () => import('../components/BulkStatusBar').then((m) => m.BulkStatusBar),
  () => null,
);

function isSortField(value: string | null): value is PatientSortField {
  return value !== null && (PATIENT_SORT_FIELDS as readonly string[]).includes(value);
}

function positiveInt(value: string | null, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

/** The page size the user last chose on this browser (the spec's 10 until they choose; ADR 024). */
const PER_PAGE_KEY = 'caredeck.patients.perPage';
function preferredPerPage(): number {
  const stored = Number(readItem(PER_PAGE_KEY));
  return (PER_PAGE_OPTIONS as readonly number[]).includes(stored) ? stored : DEFAULT_PAGE_SIZE;
}

/**
 * Paging, sorting, filters and the search text live in the URL (shareable, kept on reload, Back restores them);
 * the search text is mirrored in the patient store so the patient pages can lead back to the same search.
 * The URL is the only source: a search the user cleared is gone (the stored text is brought back once, when the
 * list is opened without a search of its own: see `useSearchLedBack`).
 */
function readParams(searchParams: URLSearchParams): PatientListParams {
  const fallback = preferredPerPage();
  const perPage = positiveInt(searchParams.get('per_page'), fallback);
  const sortBy = searchParams.get('sort_by');
  const filters = filterChanges(readFilters(searchParams));
  const id = (key: string) => {
    const value = searchParams.get(key) ?? '';
    return /^[1-9]\d{0,15}$/.test(value) ? value : '';
  };
  return {
    ...filters,
    after: id('after'),
    before: id('before'),
    name: searchParams.get('name') ?? '',
    page: positiveInt(searchParams.get('page'), 1),
    per_page: (PER_PAGE_OPTIONS as readonly number[]).includes(perPage) ? perPage : fallback,
    sort_by: isSortField(sortBy) ? sortBy : 'name',
    sort_direction: searchParams.get('sort_direction') === 'DESC' ? 'DESC' : 'ASC',
  };
}

/** /patients: the worklist of the active program or enterprise (01 §2, §7): filters, bulk status, rows open the patient. */
export function PatientsPage() {
  const scope = useActiveScope();
  if (!scope) return null;
  // A user without any program (e.g. just registered) has nothing to list: say so instead of asking the API.
  if (!scope.program && !scope.enterpriseScope) return <NoProgram />;
  return <PatientList scope={scope} />;
}

function NoProgram() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        {t('patients.title')}
      </Title>
      <Paper withBorder radius="md" p="md">
        <Text c="dimmed" ta="center" py="xl" data-testid="patients-empty">
          {t('patients.noProgram')}
        </Text>
      </Paper>
    </Stack>
  );
}

function PatientList({ scope }: { scope: ActiveScope }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const storedSearch = usePatientSearch();
  const [searchParams, setSearchParams] = useSearchParams();
  // The search the patient pages lead back to: applied once, when the list is opened without one in its URL.
  const ledBack = useRef(searchParams.has('name') ? '' : storedSearch);
  const params = readParams(searchParams);
  if (ledBack.current && !params.name) params.name = ledBack.current;
  const search = params.name;
  const filters = readFilters(searchParams);
  const list = usePatientList(scope, params);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const canChangeStatus = user ? hasAnyRole(user, CARE_ROLES, scope) : false;
  const programNames = useMemo(
    () =>
      scope.enterpriseScope && user ? new Map(user.programs.map((p) => [p.id, p.name] as const)) : undefined,
    [scope.enterpriseScope, user],
  );

  // A search in the URL (a reload, a shared link) is the one the patient pages lead back to; a cleared one is
  // cleared there too. Only once the address changed: the store is set before the address when the user types.
  const seenSearch = useRef(storedSearch);
  useEffect(() => {
    if (search === seenSearch.current) return;
    seenSearch.current = search;
    patientSearch.set(search);
  }, [search]);

  // Paging, sorting and filters are history entries: Back returns to the previous state of the list, not out
  // of it. Typing a search replaces the entry (one entry per search, not per keystroke).
  // The address as the last change left it: a second change made before the list re-rendered the first (clear
  // the filters, then pick one at once) builds on it, never on the older address this render saw. A navigation
  // from elsewhere (Back, a link) resets it when it renders.
  const latest = useRef(searchParams);
  const rendered = useRef(searchParams);
  if (rendered.current !== searchParams) {
    rendered.current = searchParams;
    latest.current = searchParams;
    // The led-back search is in the address now (or the user moved on): the address alone tells from here.
    ledBack.current = '';
  }
  // The led-back search written into the address (replacing the entry), so paging and filters keep it.
  useEffect(() => {
    if (!ledBack.current) return;
    const next = new URLSearchParams(latest.current);
    next.set('name', ledBack.current);
    setSearchParams(next, { replace: true });
  }, [setSearchParams]);
  const update = (changes: Record<string, string>, options?: { replace?: boolean }) => {
    const next = new URLSearchParams(latest.current);
    // A seek anchor belongs to one page move; any other change drops it.
    next.delete('after');
    next.delete('before');
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    latest.current = next;
    setSearchParams(next, options);
  };

  const onSearch = (value: string) => {
    patientSearch.set(value);
    update({ name: value, page: '1' }, { replace: true });
  };
  const onFilters = (changes: Partial<PatientFilterValues>) => {
    setSelected(new Set());
    update({ ...changedFilterParams(changes), page: '1' });
  };
  const filtered = activeFilterCount(filters) > 0;
  const onSort = (field: PatientSortField) => {
    const direction = params.sort_by === field && params.sort_direction === 'ASC' ? 'DESC' : 'ASC';
    update({ sort_by: field, sort_direction: direction, page: '1' });
  };

  const data = list.data;
  // Back from a patient shows the list where it was scrolled.
  useScrollRestored(data !== undefined && !list.isPlaceholderData);
  const summaries = usePatientSummaries(data?.data ?? []);
  // A page beyond the last one (a stale link, or fewer patients after a scope change) shows the last page, not
  // "No patients yet".
  const lastPage = data?.last_page ?? 1;
  const outOfRange =
    data !== undefined &&
    !list.isPlaceholderData &&
    data.data.length === 0 &&
    data.total > 0 &&
    params.page > lastPage;
  useEffect(() => {
    if (!outOfRange) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('page', String(Math.max(1, lastPage)));
        return next;
      },
      { replace: true },
    );
  }, [outOfRange, lastPage, setSearchParams]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz="h2">
          {t('patients.title')}
        </Title>
        <Group gap="xs" align="flex-end">
          <SearchBox
            label={t('patients.search')}
            placeholder={t('patients.searchPlaceholder')}
            value={search}
            onSearch={onSearch}
            w={320}
          />
          {scope.enterpriseScope ? null : (
            <>
              <SavedViews programId={scope.programId} />
              <ExportButton programId={scope.programId} />
              <AddPatientButton scope={scope} />
            </>
          )}
        </Group>
      </Group>
      <PatientFilters
        values={filters}
        onChange={onFilters}
        programId={scope.enterpriseScope ? null : scope.programId}
      />
      {canChangeStatus ? (
        <BulkStatusBar
          selected={selected}
          programId={scope.enterpriseScope ? null : scope.programId}
          onDone={() => setSelected(new Set())}
        />
      ) : null}
      <Paper withBorder radius="md" p="md" pos="relative">
        {list.isPending || outOfRange ? (
          <Center py="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : list.isError && !data ? (
          <Alert
            color="danger"
            icon={<IconAlertTriangle size={18} />}
            title={t('patients.error')}
            role="alert"
          >
            <Button size="xs" variant="light" color="danger" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          </Alert>
        ) : data && data.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl" data-testid="patients-empty">
            {search
              ? t('patients.emptySearch', { search })
              : filtered
                ? t('patients.emptyFiltered')
                : t('patients.empty')}
          </Text>
        ) : data ? (
          <Stack gap="md" aria-busy={list.isFetching}>
            <PatientsTable
              patients={data.data}
              sort={{ field: params.sort_by, direction: params.sort_direction }}
              onSort={onSort}
              timeZone={user?.tz ?? null}
              programNames={programNames}
              selection={canChangeStatus ? { selected, onChange: setSelected } : undefined}
              summaries={summaries.data}
            />
            <Text id="patients-keyboard-hint" size="xs" c="dimmed" visibleFrom="sm">
              {t('patients.keyboardHint')}
            </Text>
            <PatientListFooter
              total={data.total}
              page={data.current_page}
              lastPage={data.last_page}
              perPage={params.per_page}
              onPage={(page) => {
                // Next and previous seek from the row at the edge of this page (keyset, issue 6 §4).
                const rows = data.data;
                const edge: Record<string, string> =
                  page === data.current_page + 1
                    ? { after: String(rows.at(-1)?.id ?? '') }
                    : page === data.current_page - 1
                      ? { before: String(rows[0]?.id ?? '') }
                      : {};
                update({ page: String(page), ...edge });
              }}
              onPerPage={(perPage) => {
                writeItem(PER_PAGE_KEY, String(perPage));
                update({ per_page: String(perPage), page: '1' });
              }}
            />
          </Stack>
        ) : null}
      </Paper>
    </Stack>
  );
}
