import { PATIENT_SORT_FIELDS } from '@caredeck/contracts';
import { DEFAULT_PAGE_SIZE } from '@caredeck/domain';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconUserPlus } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useCurrentUser } from '../../identity/api';
import { type ActiveScope, useActiveScope } from '../../tenancy/scope';
import { type PatientListParams, type PatientSortField, usePatientList } from '../api';
import { ExportButton } from '../components/ExportButton';
import { PatientListFooter, PER_PAGE_OPTIONS } from '../components/PatientListFooter';
import { PatientsTable } from '../components/PatientsTable';
import { patientSearch, usePatientSearch } from '../searchStore';

function isSortField(value: string | null): value is PatientSortField {
  return value !== null && (PATIENT_SORT_FIELDS as readonly string[]).includes(value);
}

function positiveInt(value: string | null, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

/** Paging and sorting live in the URL (shareable, back button); the search text lives in the patient store. */
function readParams(searchParams: URLSearchParams, name: string): PatientListParams {
  const perPage = positiveInt(searchParams.get('per_page'), DEFAULT_PAGE_SIZE);
  const sortBy = searchParams.get('sort_by');
  return {
    name,
    page: positiveInt(searchParams.get('page'), 1),
    per_page: (PER_PAGE_OPTIONS as readonly number[]).includes(perPage) ? perPage : DEFAULT_PAGE_SIZE,
    sort_by: isSortField(sortBy) ? sortBy : 'name',
    sort_direction: searchParams.get('sort_direction') === 'DESC' ? 'DESC' : 'ASC',
  };
}

/** /patients: the patient list of the active program or enterprise (01 §2, §7). Rows link nowhere yet. */
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
  const search = usePatientSearch();
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams, search);
  const list = usePatientList(scope, params);

  // Paging and sorting are history entries: Back returns to the previous page of the list, not out of it.
  const update = (changes: Partial<Record<'page' | 'per_page' | 'sort_by' | 'sort_direction', string>>) => {
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) next.set(key, value);
      return next;
    });
  };

  const onSearch = (value: string) => {
    patientSearch.set(value);
    update({ page: '1' });
  };
  const onSort = (field: PatientSortField) => {
    const direction = params.sort_by === field && params.sort_direction === 'ASC' ? 'DESC' : 'ASC';
    update({ sort_by: field, sort_direction: direction, page: '1' });
  };

  const data = list.data;
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
              <ExportButton programId={scope.programId} />
              <Button
                component={Link}
                to="/add-patient/new"
                leftSection={<IconUserPlus size={16} aria-hidden />}
              >
                {t('patients.addPatient')}
              </Button>
            </>
          )}
        </Group>
      </Group>
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
            {search ? t('patients.emptySearch', { search }) : t('patients.empty')}
          </Text>
        ) : data ? (
          <Stack gap="md" aria-busy={list.isFetching}>
            <PatientsTable
              patients={data.data}
              sort={{ field: params.sort_by, direction: params.sort_direction }}
              onSort={onSort}
              timeZone={user?.tz ?? null}
            />
            <PatientListFooter
              total={data.total}
              page={data.current_page}
              lastPage={data.last_page}
              perPage={params.per_page}
              onPage={(page) => update({ page: String(page) })}
              onPerPage={(perPage) => update({ per_page: String(perPage), page: '1' })}
            />
          </Stack>
        ) : null}
      </Paper>
    </Stack>
  );
}
