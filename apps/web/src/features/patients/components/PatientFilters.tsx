import { PATIENT_STATUSES, SEXES } from '@caredeck/contracts';
import { Badge, Button, Chip, Group, Stack } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconFilterOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeferredMultiSelect, DeferredSelect } from '../../../shared/ui/DeferredSelect';
import { deferredControl } from '../../../shared/ui/deferred';
import { useCohorts } from '../../cohorts/api';
import { usePipelines } from '../../pipelines/api';

/** The list's filters as the URL holds them (01 §7 names; lists comma-separated). */
export interface PatientFilterValues {
  statuses: string[];
  sex: string[];
  assignedAdmin: '' | 'me' | 'none';
  group: string;
  /** A pipeline id (patients in it now). */
  pipelines: string;
  followUp: '' | FollowUpWhen;
  assessment: '' | AssessmentState;
  escalated: boolean;
  /** The demographic and care filters of 01 §7 (behind 'More filters'). */
  race: string[];
  ethnicity: string[];
  income: string[];
  /** USPS codes (v2 `states`). */
  states: string[];
  /** A staff id. */
  physicians: string;
  /** An ICD-10-CM code prefix (E11) or a disease state name. */
  diseaseState: string;
  patientType: '' | PatientType;
  /** '1': the account is active; '0': deactivated. */
  active: '' | '1' | '0';
}

export const PATIENT_TYPES = ['pipeline', 'enrolled'] as const;
type PatientType = (typeof PATIENT_TYPES)[number];
const FOLLOW_UP_WHEN = ['overdue', 'today', 'week'] as const;
type FollowUpWhen = (typeof FOLLOW_UP_WHEN)[number];
const ASSESSMENT_STATES = ['open', 'overdue', 'completed', 'flagged'] as const;
type AssessmentState = (typeof ASSESSMENT_STATES)[number];
const NO_FILTERS: PatientFilterValues = {
  statuses: [],
  sex: [],
  assignedAdmin: '',
  group: '',
  pipelines: '',
  followUp: '',
  assessment: '',
  escalated: false,
  race: [],
  ethnicity: [],
  income: [],
  states: [],
  physicians: '',
  diseaseState: '',
  patientType: '',
  active: '',
};

/** Race, ethnicity, income, state, physician, disease state, patient type and account: loaded when first opened. */
const MoreFilters = deferredControl(
  () => import('./MoreFilters').then((m) => m.MoreFilters),
  () => null,
);

/** The fields behind 'More filters'. */
const MORE_FIELDS = [
  'race',
  'ethnicity',
  'income',
  'states',
  'physicians',
  'diseaseState',
  'patientType',
  'active',
] as const satisfies readonly (keyof PatientFilterValues)[];

export const FILTER_KEYS = [
  'statuses',
  'sex',
  'assignedAdmin',
  'group',
  'pipelines',
  'follow_up_for',
  'assessment_type',
  'escalation',
  'race',
  'ethnicity',
  'income',
  'states',
  'physicians',
  'disease_state',
  'patientType',
  'active',
] as const;
const isId = (v: string) => /^[1-9]\d{0,15}$/.test(v);
const pick = <T extends string>(value: string | null, allowed: readonly T[]): '' | T =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : '';

const list = (value: string | null, allowed: readonly string[]) =>
  (value ?? '').split(',').filter((v) => allowed.includes(v));

const matching = (value: string | null, shape: RegExp) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => shape.test(v));

export function readFilters(params: URLSearchParams): PatientFilterValues {
  const assigned = params.get('assignedAdmin');
  const group = params.get('group') ?? '';
  return {
    statuses: list(params.get('statuses'), PATIENT_STATUSES),
    sex: list(params.get('sex'), SEXES),
    assignedAdmin: assigned === 'me' || assigned === 'none' ? assigned : '',
    group: isId(group) ? group : '',
    pipelines: isId(params.get('pipelines') ?? '') ? (params.get('pipelines') ?? '') : '',
    followUp: pick(params.get('follow_up_for'), FOLLOW_UP_WHEN),
    assessment: pick(params.get('assessment_type'), ASSESSMENT_STATES),
    escalated: params.get('escalation') === '1',
    // Checked by shape, not against the lists (those load with 'More filters'; the server checks the values).
    race: matching(params.get('race'), /^[A-Za-z][A-Za-z ]{0,79}$/),
    ethnicity: matching(params.get('ethnicity'), /^[A-Za-z][A-Za-z ]{0,79}$/),
    income: matching(params.get('income'), /^[a-z0-9_]{1,20}$/),
    states: matching(params.get('states'), /^[A-Z]{2}$/),
    physicians: isId(params.get('physicians') ?? '') ? (params.get('physicians') ?? '') : '',
    diseaseState: (params.get('disease_state') ?? '').trim().slice(0, 100),
    patientType: pick(params.get('patientType'), PATIENT_TYPES),
    active: pick(params.get('active'), ['1', '0'] as const),
  };
}

/** URL values of the filters: empty ones are dropped. */
export function filterChanges(values: PatientFilterValues): Record<(typeof FILTER_KEYS)[number], string> {
  return {
    statuses: values.statuses.join(','),
    sex: values.sex.join(','),
    assignedAdmin: values.assignedAdmin,
    group: values.group,
    pipelines: values.pipelines,
    follow_up_for: values.followUp,
    assessment_type: values.assessment,
    escalation: values.escalated ? '1' : '',
    race: values.race.join(','),
    ethnicity: values.ethnicity.join(','),
    income: values.income.join(','),
    states: values.states.join(','),
    physicians: values.physicians,
    disease_state: values.diseaseState.trim(),
    patientType: values.patientType,
    active: values.active,
  };
}

/** The URL parameter of each filter field. */
const PARAM_OF: Record<keyof PatientFilterValues, (typeof FILTER_KEYS)[number]> = {
  statuses: 'statuses',
  sex: 'sex',
  assignedAdmin: 'assignedAdmin',
  group: 'group',
  pipelines: 'pipelines',
  followUp: 'follow_up_for',
  assessment: 'assessment_type',
  escalated: 'escalation',
  race: 'race',
  ethnicity: 'ethnicity',
  income: 'income',
  states: 'states',
  physicians: 'physicians',
  diseaseState: 'disease_state',
  patientType: 'patientType',
  active: 'active',
};

/**
 * The URL parameters of the fields that changed, and only those: merged into the URL as it is when the change
 * lands, so a change made before the list re-rendered the previous one never brings an old value back.
 */
export function changedFilterParams(changes: Partial<PatientFilterValues>): Record<string, string> {
  const all = filterChanges({ ...NO_FILTERS, ...changes });
  return Object.fromEntries(
    (Object.keys(changes) as (keyof PatientFilterValues)[]).map((key) => [PARAM_OF[key], all[PARAM_OF[key]]]),
  );
}

export function activeFilterCount(values: PatientFilterValues): number {
  return Object.values(filterChanges(values)).filter(Boolean).length;
}

export interface PatientFiltersProps {
  values: PatientFilterValues;
  /** The fields that changed (all of them when the filters are cleared). */
  onChange: (changes: Partial<PatientFilterValues>) => void;
  /** Cohorts belong to one program: offered in program scope only. */
  programId: number | null;
}

/**
 * Status, sex, assignment, cohort, pipeline, follow-up, assessment and escalation filters, and behind 'More
 * filters' race, ethnicity, income, state, physician, disease state, patient type and account; every change is
 * a history entry (the page keeps them in the URL). On a phone the whole panel folds behind one 'Filters' button
 * (with the number of active filters), so the list starts on the first screen.
 */
export function PatientFilters({ values, onChange, programId }: PatientFiltersProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const active = activeFilterCount(values);
  const [panelOpen, panel] = useDisclosure(false);
  const id = 'patient-filters-panel';
  if (!phone) return <FilterFields values={values} onChange={onChange} programId={programId} />;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconAdjustmentsHorizontal size={14} aria-hidden />}
          aria-expanded={panelOpen}
          aria-controls={id}
          onClick={panel.toggle}
          data-testid="filters-toggle"
        >
          {active > 0 ? t('patients.filters.showCount', { count: active }) : t('patients.filters.title')}
        </Button>
        {active > 0 && !panelOpen ? (
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconFilterOff size={14} aria-hidden />}
            onClick={() => onChange(NO_FILTERS)}
          >
            {t('patients.filters.clear')}
          </Button>
        ) : null}
      </Group>
      {panelOpen ? (
        <div id={id}>
          <FilterFields values={values} onChange={onChange} programId={programId} />
        </div>
      ) : null}
    </Stack>
  );
}

function FilterFields({ values, onChange, programId }: PatientFiltersProps) {
  const { t } = useTranslation();
  const cohorts = useCohorts(programId ?? 0, { page: 1, keyword: '' }, programId !== null);
  const pipelines = usePipelines(programId ?? 0, '');
  const set = (changes: Partial<PatientFilterValues>) => onChange(changes);
  const moreActive = MORE_FIELDS.filter(
    (key) => filterChanges({ ...NO_FILTERS, [key]: values[key] })[PARAM_OF[key]],
  ).length;
  const [moreOpen, setMoreOpen] = useState(moreActive > 0);
  // A saved view or a shared link that sets one of them opens the section.
  useEffect(() => {
    if (moreActive > 0) setMoreOpen(true);
  }, [moreActive]);
  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-end" wrap="wrap" role="group" aria-label={t('patients.filters.title')}>
        <Chip
          checked={values.assignedAdmin === 'me'}
          onChange={(checked) => set({ assignedAdmin: checked ? 'me' : '' })}
          data-testid="filter-mine"
        >
          {t('patients.filters.mine')}
        </Chip>
        <DeferredMultiSelect
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
        <DeferredMultiSelect
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
        <DeferredSelect
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
          <DeferredSelect
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
        {programId !== null ? (
          <DeferredSelect
            label={t('patients.filters.pipeline')}
            placeholder={t('patients.filters.any')}
            data={(pipelines.data?.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
            value={values.pipelines || null}
            onChange={(value) => set({ pipelines: value ?? '' })}
            searchable
            clearable
            size="xs"
            w={200}
            data-testid="filter-pipeline"
          />
        ) : null}
        <DeferredSelect
          label={t('patients.filters.followUp')}
          placeholder={t('patients.filters.any')}
          data={FOLLOW_UP_WHEN.map((w) => ({ value: w, label: t(`patients.filters.followUpWhen.${w}`) }))}
          value={values.followUp || null}
          onChange={(value) => set({ followUp: (value ?? '') as PatientFilterValues['followUp'] })}
          clearable
          size="xs"
          w={170}
          data-testid="filter-follow-up"
        />
        <DeferredSelect
          label={t('patients.filters.assessment')}
          placeholder={t('patients.filters.any')}
          data={ASSESSMENT_STATES.map((a) => ({
            value: a,
            label: t(`patients.filters.assessmentStates.${a}`),
          }))}
          value={values.assessment || null}
          onChange={(value) => set({ assessment: (value ?? '') as PatientFilterValues['assessment'] })}
          clearable
          size="xs"
          w={170}
          data-testid="filter-assessment"
        />
        <Chip
          checked={values.escalated}
          onChange={(checked) => set({ escalated: checked })}
          data-testid="filter-escalated"
        >
          {t('patients.filters.escalated')}
        </Chip>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => setMoreOpen((open) => !open)}
          aria-expanded={moreOpen}
          aria-controls="patient-filters-more"
          rightSection={
            moreActive > 0 ? (
              <Badge size="sm" circle aria-hidden>
                {moreActive}
              </Badge>
            ) : null
          }
          data-testid="filters-more"
        >
          {moreOpen ? t('patients.filters.fewer') : t('patients.filters.more')}
        </Button>
        {activeFilterCount(values) > 0 ? (
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconFilterOff size={14} aria-hidden />}
            onClick={() => onChange(NO_FILTERS)}
            data-testid="filters-clear"
          >
            {t('patients.filters.clear')}
          </Button>
        ) : null}
      </Group>
      {moreOpen ? <MoreFilters values={values} onChange={onChange} programId={programId} /> : null}
    </Stack>
  );
}
