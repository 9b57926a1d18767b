import {
  CONSENT_METHODS,
  ETHNICITIES,
  INCOMES,
  PATIENT_STATUSES,
  type PatientRecord,
  RACES,
  SEXES,
  US_STATE_CODES,
  US_STATE_NAMES,
  US_TIME_ZONES,
} from '@caredeck/contracts';
import { Autocomplete, Select, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../shared/ui/DateField';
import { TextField } from '../../../shared/ui/TextField';
import type { Form, FormRules } from '../../../shared/ui/useForm';
import { email, maxLength, required } from '../../../shared/ui/validators';
import { useCities, useProgramStaff } from '../api';

export const PATIENT_FIELDS = [
  'first_name',
  'middle_name',
  'last_name',
  'mrn',
  'dob',
  'sex',
  'race',
  'ethnicity',
  'income',
  'language',
  'email',
  'phone_number',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'zip',
  'time_zone',
  'physician_id',
  'assigned_admin_id',
  'consent_at',
  'consent_method',
  'status',
] as const;
export type PatientField = (typeof PATIENT_FIELDS)[number];
export type PatientFormValues = Record<PatientField, string>;

const TODAY = () => new Date().toISOString().slice(0, 10);

/** Client rules mirror the server's (the server stays the judge: its 422 messages show under the fields). */
export const PATIENT_RULES: FormRules<PatientFormValues> = {
  first_name: [required, maxLength(100)],
  last_name: [required, maxLength(100)],
  middle_name: [maxLength(100)],
  mrn: [maxLength(64)],
  dob: [required],
  sex: [required],
  email: [(value) => (value === '' ? null : email(value, {}))],
};

export function emptyPatientValues(): PatientFormValues {
  return Object.fromEntries(PATIENT_FIELDS.map((f) => [f, ''])) as PatientFormValues;
}

export function valuesOf(patient: PatientRecord): PatientFormValues {
  const v = emptyPatientValues();
  for (const field of PATIENT_FIELDS) {
    if (field === 'physician_id') v[field] = patient.physician ? String(patient.physician.id) : '';
    else if (field === 'assigned_admin_id')
      v[field] = patient.assigned_admin ? String(patient.assigned_admin.id) : '';
    else {
      const value = patient[field as keyof PatientRecord];
      v[field] = value === null || value === undefined ? '' : String(value);
    }
  }
  return v;
}

/** The body of a create or edit: blanks become null (cleared), ids numbers; only `fields` are sent. */
export function bodyOf(values: PatientFormValues, fields: readonly PatientField[] = PATIENT_FIELDS) {
  const body: Record<string, string | number | null> = {};
  for (const field of fields) {
    const value = values[field].trim();
    if (field === 'physician_id' || field === 'assigned_admin_id') body[field] = value ? Number(value) : null;
    else if (field === 'status') {
      if (value) body[field] = value;
    } else body[field] = value === '' ? null : value;
  }
  return body;
}

/** The inputs of some of the patient's fields, laid out in a responsive grid. */
export function PatientFields({
  form,
  fields,
  programId,
}: {
  form: Pick<Form<PatientFormValues>, 'field'>;
  fields: readonly PatientField[];
  programId: number;
}) {
  const { t } = useTranslation('patientRecord');
  const common = useTranslation().t;
  const staff = useProgramStaff(programId);
  const staffOptions = (staff.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  const physicians = (staff.data?.data ?? [])
    .filter((s) => s.roles.includes('physician'))
    .map((s) => ({ value: String(s.id), label: s.name }));

  const select = (
    field: PatientField,
    data: { value: string; label: string }[],
    opts: { required?: boolean } = {},
  ) => {
    const props = form.field(field);
    return (
      <Select
        key={field}
        label={t(`fields.${field}`)}
        data={data}
        value={props.value || null}
        onChange={(value) => props.onChange(value ?? '')}
        error={props.error}
        clearable={!opts.required}
        // Enter (or a click) on the chosen value keeps it; the clear button empties an optional field.
        allowDeselect={false}
        searchable={data.length > 8}
        // Typing 'Penn' then Enter chooses Pennsylvania (otherwise Enter submitted the step without it).
        selectFirstOptionOnChange={data.length > 8}
        // And on opening while empty: Mantine's opening step, a moment later, dropped the highlight the first
        // character set, so a pasted name then Enter chose nothing. With a value, opening shows that value.
        selectFirstOptionOnDropdownOpen={data.length > 8 && !props.value}
        required={opts.required}
        data-testid={`field-${field}`}
      />
    );
  };

  const input = (field: PatientField, opts: { required?: boolean; type?: string } = {}) => (
    <TextField
      key={field}
      label={t(`fields.${field}`)}
      required={opts.required}
      type={opts.type}
      {...form.field(field)}
      data-testid={`field-${field}`}
    />
  );

  const render = (field: PatientField) => {
    switch (field) {
      case 'city':
        return (
          <CityField
            key={field}
            label={t('fields.city')}
            state={String(form.field('state').value ?? '')}
            {...form.field('city')}
          />
        );
      case 'first_name':
      case 'last_name':
        return input(field, { required: true });
      case 'email':
        return input(field, { type: 'email' });
      case 'phone_number':
        return input(field, { type: 'tel' });
      case 'dob':
        return (
          <DateField
            key={field}
            label={t('fields.dob')}
            required
            max={TODAY()}
            min="1900-01-01"
            {...form.field('dob')}
            data-testid="field-dob"
          />
        );
      case 'consent_at':
        return (
          <DateField key={field} label={t('fields.consent_at')} max={TODAY()} {...form.field('consent_at')} />
        );
      case 'sex':
        return select(
          field,
          SEXES.map((s) => ({ value: s, label: common(`patients.sex.${s}`) })),
          { required: true },
        );
      case 'race':
        return select(
          field,
          RACES.map((r) => ({ value: r, label: r })),
        );
      case 'ethnicity':
        return select(
          field,
          ETHNICITIES.map((e) => ({ value: e, label: e })),
        );
      case 'income':
        return select(
          field,
          INCOMES.map((i) => ({ value: i, label: t(`income.${i}`) })),
        );
      case 'state':
        return select(
          field,
          US_STATE_CODES.map((c) => ({ value: c, label: `${US_STATE_NAMES[c]} (${c})` })),
        );
      case 'time_zone':
        return select(
          field,
          US_TIME_ZONES.map((z) => ({ value: z, label: z.replace(/_/g, ' ') })),
        );
      case 'consent_method':
        return select(
          field,
          CONSENT_METHODS.map((m) => ({ value: m, label: t(`consent.${m}`) })),
        );
      case 'status':
        return select(
          field,
          PATIENT_STATUSES.map((s) => ({ value: s, label: common(`patients.status.${s}`) })),
        );
      case 'physician_id':
        return select(field, physicians.length ? physicians : staffOptions);
      case 'assigned_admin_id':
        return select(field, staffOptions);
      default:
        return input(field);
    }
  };

  return <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{fields.map(render)}</SimpleGrid>;
}

/**
 * The city: free text, with the chosen state's cities offered as the user types (shipped data, largest
 * first; ADR 025). Without a state it is a plain text field.
 */
function CityField({
  label,
  state,
  value,
  onChange,
  onBlur,
  error,
}: {
  label: string;
  state: string;
  value: unknown;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | null;
}) {
  const text = typeof value === 'string' ? value : '';
  const [search] = useDebouncedValue(text.trim(), 300);
  const cities = useCities(state, search);
  const names = [...new Set((cities.data?.data ?? []).map((city) => city.name))];
  return (
    <Autocomplete
      label={label}
      data={names}
      value={text}
      onChange={onChange}
      onBlur={onBlur}
      error={error || undefined}
      limit={20}
      data-testid="field-city"
    />
  );
}
