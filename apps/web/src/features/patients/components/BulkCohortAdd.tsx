import { groupsContract } from '@caredeck/contracts';
import { Button, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../../shared/api-client';
import { toast, toastErrors } from '../../../shared/ui/toasts';

/**
 * Adds the selected patients to one cohort of the program (`POST groups/{id}/users`, 02 §7: all or none). The
 * cohorts are searched by name on the server, so a program with many cohorts finds each of them.
 */
export function BulkCohortAdd({
  programId,
  selected,
  onDone,
}: {
  programId: number;
  selected: ReadonlySet<number>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [keyword] = useDebouncedValue(search.trim(), 300);
  const [cohortId, setCohortId] = useState<string | null>(null);
  const cohorts = useQuery({
    queryKey: ['cohorts', programId, 'picker', keyword],
    queryFn: ({ signal }) =>
      api.call(
        groupsContract.list,
        {
          params: { programId: String(programId) },
          query: { page: '1', per_page: '100', name: keyword || undefined },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
  const options = (cohorts.data?.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  const chosen = options.find((o) => o.value === cohortId) ?? null;
  const add = useMutation({
    mutationFn: (input: { id: number; users: number[] }) =>
      api.call(groupsContract.addUsers, { params: { id: String(input.id) }, body: { users: input.users } }),
    onSuccess: (_result, input) => {
      void client.invalidateQueries({ queryKey: ['cohorts'] });
      void client.invalidateQueries({ queryKey: ['cohort', input.id] });
      for (const id of input.users) void client.invalidateQueries({ queryKey: ['patient', id, 'cohorts'] });
    },
  });

  const apply = () => {
    if (!cohortId) return;
    const name = chosen?.label ?? '';
    add.mutate(
      { id: Number(cohortId), users: [...selected] },
      {
        onSuccess: () => {
          toast.success(t('patients.bulk.addedToCohort', { count: selected.size, name }));
          setCohortId(null);
          setSearch('');
          onDone();
        },
        onError: (error) =>
          isApiError(error, 422) ? toastErrors(error) : toast.error(t('patients.bulk.cohortFailed')),
      },
    );
  };

  return (
    <>
      <Select
        aria-label={t('patients.bulk.cohort')}
        placeholder={t('patients.bulk.cohort')}
        data={options}
        value={cohortId}
        onChange={setCohortId}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        selectFirstOptionOnChange
        // Also on opening while none is chosen: Mantine's opening step, a moment later, dropped the highlight
        // that the first character set, and Enter after a pasted name picked nothing.
        selectFirstOptionOnDropdownOpen={!cohortId}
        allowDeselect={false}
        // Mantine's own filter (name contains the text, as the server's) also narrows the previous answer
        // while the new one loads, so Enter right after typing picks a matching cohort, never a stale first.
        nothingFoundMessage={
          cohorts.data && !cohorts.isFetching && keyword === search.trim()
            ? t('patients.bulk.noCohort')
            : undefined
        }
        size="xs"
        w={200}
        data-testid="bulk-cohort"
      />
      <Button
        size="xs"
        variant="default"
        disabled={!cohortId}
        loading={add.isPending}
        onClick={apply}
        data-testid="bulk-cohort-add"
      >
        {t('patients.bulk.addToCohort')}
      </Button>
    </>
  );
}
