import { PATIENT_STATUSES, SEXES } from '@caredeck/contracts';
import { Button, Chip, Group, MultiSelect, Select } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCohorts } from '../../cohorts/api';

/** The list's filters as the URL holds them (01 §7 names; lists comma-separated). */
export interface PatientFilterValues {
  statuses: string[];
  sex: string[];
  assignedAdmin: '' | 'me' | 'none';
  group: string;
}

export const FILTER_KEYS = ['statuses', 'sex', 'assignedAdmin', 'group'] as const;

const list = (value: string | null, allowed: readonly string[]) =>
  (value ?? '').split(',').filter((v) => allowed.includes(v));

export function readFilters(params: URLSearchParams): PatientFilterValues {
  const assigned = params.get('assignedAdmin');
  const group = params.get('group') ?? '';
  return {
    statuses: list(params.get('statuses'), PATIENT_STATUSES),
    sex: list(params.get('sex'), SEXES),
    assignedAdmin: assigned === 'me' || assigned === 'none' ? assigned : '',
    group: /^[1-9]\d{0,15}$/.test(group) ? group : '',
  };
}

/** URL values of the filters: empty ones are dropped. */
export function filterChanges(values: PatientFilterValues): Record<(typeof FILTER_KEYS)[number], string> {
  return {
    statuses: values.statuses.join(','),
    sex: values.sex.join(','),
    assignedAdmin: values.assignedAdmin,
    group: values.group,
  };
}

export function activeFilterCount(values: PatientFilterValues): number {
  return Object.values(filterChanges(values)).filter(Boolean).length;
}

export interface PatientFiltersProps {
  values: PatientFilterValues;
  onChange: (values: PatientFilterValues) => void;
  /** Cohorts belong to one program: offered in program scope only. */
  programId: number | null;
}

/** Status, sex, assignment and cohort filters; every change is a history entry (the page keeps them in the URL). */
export function PatientFilters({ values, onChange, programId }: PatientFiltersProps) {
  const { t } = useTranslation();
  const cohorts = useCohorts(programId ?? 0, { page: 1, keyword: '' }, programId !== null);
  const set = (changes: Partial<PatientFilterValues>) => onChange({ ...values, ...changes });
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" role="group" aria-label={t('patients.filters.title')}>
      <Chip
        checked={values.assignedAdmin === 'me'}
        onChange={(checked) => set({ assignedAdmin: checked ? 'me' : '' })}
        data-testid="filter-mine"
      >
        {t('patients.filters.mine')}
      </Chip>
      <MultiSelect
        label={t('patients.filters.status')}
        placeholder={values.statuses.length ? undefined : t('patients.filters.any')}
        data={PATIENT_STATUSES.map((s) => ({ value: s, label: t(`patients.status.${s}`) }))}
        value={values.statuses}
        onChange={(statuses) => set({ statuses })}
        clearable
        size="xs"
        w={220}
        data-testid="filter-status"
      />
      <MultiSelect
        label={t('patients.filters.sex')}
        placeholder={values.sex.length ? undefined : t('patients.filters.any')}
        data={SEXES.map((s) => ({ value: s, label: t(`patients.sex.${s}`) }))}
        value={values.sex}
        onChange={(sex) => set({ sex })}
        clearable
        size="xs"
        w={180}
        data-testid="filter-sex"
      />
      <Select
        label={t('patients.filters.assigned')}
        data={[
          { value: '', label: t('patients.filters.anyone') },
          { value: 'me', label: t('patients.filters.me') },
          { value: 'none', label: t('patients.unassigned') },
        ]}
        value={values.assignedAdmin}
        onChange={(value) => set({ assignedAdmin: (value ?? '') as PatientFilterValues['assignedAdmin'] })}
        allowDeselect={false}
        size="xs"
        w={150}
        data-testid="filter-assigned"
      />
      {programId !== null ? (
        <Select
          label={t('patients.filters.cohort')}
          placeholder={t('patients.filters.any')}
          data={(cohorts.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={values.group || null}
          onChange={(value) => set({ group: value ?? '' })}
          searchable
          clearable
          size="xs"
          w={200}
          data-testid="filter-cohort"
        />
      ) : null}
      {activeFilterCount(values) > 0 ? (
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconFilterOff size={14} aria-hidden />}
          onClick={() => onChange({ statuses: [], sex: [], assignedAdmin: '', group: '' })}
          data-testid="filters-clear"
        >
          {t('patients.filters.clear')}
        </Button>
      ) : null}
    </Group>
  );
}
