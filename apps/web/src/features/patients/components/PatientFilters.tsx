import { PATIENT_STATUSES, SEXES } from '@caredeck/contracts';
import { Button, Chip, Group } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DeferredMultiSelect, DeferredSelect } from '../../../shared/ui/DeferredSelect';
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
}

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
};

export const FILTER_KEYS = [
  'statuses',
  'sex',
  'assignedAdmin',
  'group',
  'pipelines',
  'follow_up_for',
  'assessment_type',
  'escalation',
] as const;
const isId = (v: string) => /^[1-9]\d{0,15}$/.test(v);
const pick = <T extends string>(value: string | null, allowed: readonly T[]): '' | T =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : '';

const list = (value: string | null, allowed: readonly string[]) =>
  (value ?? '').split(',').filter((v) => allowed.includes(v));

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

/** Status, sex, assignment, cohort, pipeline, follow-up, assessment and escalation filters; every change is a history entry (the page keeps them in the URL). */
export function PatientFilters({ values, onChange, programId }: PatientFiltersProps) {
  const { t } = useTranslation();
  const cohorts = useCohorts(programId ?? 0, { page: 1, keyword: '' }, programId !== null);
  const pipelines = usePipelines(programId ?? 0, '');
  const set = (changes: Partial<PatientFilterValues>) => onChange(changes);
  return (
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
  );
}
