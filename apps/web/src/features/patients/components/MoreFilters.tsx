import { ETHNICITIES, INCOMES, RACES, US_STATE_CODES, US_STATE_NAMES } from '@caredeck/contracts';
import { Group, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeferredMultiSelect, DeferredSelect } from '../../../shared/ui/DeferredSelect';
import { useProgramStaff } from '../../patient-record/api';
import { PATIENT_TYPES, type PatientFiltersProps, type PatientFilterValues } from './PatientFilters';

/** The filters behind 'More filters' (01 §7: race, ethnicity, income, disease_state, active; v2 physicians, states, patientType). */
export function MoreFilters({ values, onChange, programId }: PatientFiltersProps) {
  const { t } = useTranslation();
  const staff = useProgramStaff(programId ?? 0, programId !== null);
  const physicians = (staff.data?.data ?? []).filter((s) => s.roles.includes('physician'));
  const set = (changes: Partial<PatientFilterValues>) => onChange(changes);
  const [disease, setDisease] = useState(values.diseaseState);
  useEffect(() => setDisease(values.diseaseState), [values.diseaseState]);
  const applyDisease = () => {
    if (disease.trim() !== values.diseaseState) set({ diseaseState: disease.trim() });
  };
  const any = t('patients.filters.any');
  return (
    <Group
      gap="sm"
      align="flex-end"
      wrap="wrap"
      role="group"
      aria-label={t('patients.filters.moreTitle')}
      id="patient-filters-more"
    >
      <DeferredMultiSelect
        label={t('patients.filters.race')}
        placeholder={values.race.length ? undefined : any}
        data={RACES.map((r) => ({ value: r, label: r }))}
        value={values.race}
        onChange={(race) => set({ race })}
        clearable
        size="xs"
        w={240}
      />
      <DeferredMultiSelect
        label={t('patients.filters.ethnicity')}
        placeholder={values.ethnicity.length ? undefined : any}
        data={ETHNICITIES.map((e) => ({ value: e, label: e }))}
        value={values.ethnicity}
        onChange={(ethnicity) => set({ ethnicity })}
        clearable
        size="xs"
        w={220}
      />
      <DeferredMultiSelect
        label={t('patients.filters.income')}
        placeholder={values.income.length ? undefined : any}
        data={INCOMES.map((i) => ({ value: i, label: t(`patients.filters.incomes.${i}`) }))}
        value={values.income}
        onChange={(income) => set({ income })}
        clearable
        size="xs"
        w={200}
      />
      <DeferredMultiSelect
        label={t('patients.filters.state')}
        placeholder={values.states.length ? undefined : any}
        data={US_STATE_CODES.map((c) => ({ value: c, label: `${US_STATE_NAMES[c]} (${c})` }))}
        value={values.states}
        onChange={(states) => set({ states })}
        clearable
        size="xs"
        w={200}
      />
      {programId !== null ? (
        <DeferredSelect
          label={t('patients.filters.physician')}
          placeholder={any}
          data={physicians.map((p) => ({ value: String(p.id), label: p.name }))}
          value={values.physicians || null}
          onChange={(value) => set({ physicians: value ?? '' })}
          searchable
          clearable
          size="xs"
          w={180}
        />
      ) : null}
      <TextInput
        label={t('patients.filters.diseaseState')}
        placeholder={t('patients.filters.diseaseStatePlaceholder')}
        value={disease}
        onChange={(event) => setDisease(event.currentTarget.value)}
        onBlur={applyDisease}
        onKeyDown={(event) => {
          if (event.key === 'Enter') applyDisease();
        }}
        maxLength={100}
        size="xs"
        w={180}
        data-testid="filter-disease-state"
      />
      <DeferredSelect
        label={t('patients.filters.patientType')}
        placeholder={any}
        data={PATIENT_TYPES.map((p) => ({ value: p, label: t(`patients.filters.patientTypes.${p}`) }))}
        value={values.patientType || null}
        onChange={(value) => set({ patientType: (value ?? '') as PatientFilterValues['patientType'] })}
        clearable
        size="xs"
        w={170}
      />
      <DeferredSelect
        label={t('patients.filters.account')}
        placeholder={any}
        data={[
          { value: '1', label: t('patients.filters.accountStates.active') },
          { value: '0', label: t('patients.filters.accountStates.deactivated') },
        ]}
        value={values.active || null}
        onChange={(value) => set({ active: (value ?? '') as PatientFilterValues['active'] })}
        clearable
        size="xs"
        w={150}
      />
    </Group>
  );
}
