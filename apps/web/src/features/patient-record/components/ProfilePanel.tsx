import { CARE_ROLES, type PatientRecord, US_STATE_NAMES } from '@caredeck/contracts';
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { hasAnyRole } from '../../../app/auth/roles';
import { identityDate, valueOrNotProvided } from '../../../shared/ui/notProvided';
import { useCurrentUser } from '../../identity/api';
import { PatientTags } from '../../tags/components/PatientTags';
import { useActiveScope } from '../../tenancy/scope';

type Entry = { label: string; value: string };

/** The record read-only, by section; missing values read 'Not Provided' (01 §5); and the patient's tags. */
export function ProfilePanel({ patient }: { patient: PatientRecord }) {
  const { t } = useTranslation('patientRecord');
  const common = useTranslation().t;
  const user = useCurrentUser();
  const scope = useActiveScope();
  const canTag = Boolean(user && scope && hasAnyRole(user, CARE_ROLES, scope));
  const address = [
    patient.address_line1,
    patient.address_line2,
    [
      patient.city,
      patient.state && (US_STATE_NAMES[patient.state as keyof typeof US_STATE_NAMES] ?? patient.state),
      patient.zip,
    ]
      .filter(Boolean)
      .join(', '),
  ]
    .filter(Boolean)
    .join(' · ');
  const sections: { key: 'identity' | 'contact' | 'care' | 'demographics'; entries: Entry[] }[] = [
    {
      key: 'identity',
      entries: [
        { label: t('fields.first_name'), value: patient.first_name },
        { label: t('fields.middle_name'), value: valueOrNotProvided(patient.middle_name) },
        { label: t('fields.last_name'), value: patient.last_name },
        { label: t('fields.mrn'), value: valueOrNotProvided(patient.mrn) },
        { label: t('fields.dob'), value: identityDate(patient.dob) },
        { label: t('fields.sex'), value: common(`patients.sex.${patient.sex}`) },
      ],
    },
    {
      key: 'contact',
      entries: [
        { label: t('fields.phone_number'), value: valueOrNotProvided(patient.phone_number) },
        { label: t('fields.email'), value: valueOrNotProvided(patient.email) },
        { label: t('fields.address_line1'), value: valueOrNotProvided(address) },
        { label: t('fields.time_zone'), value: valueOrNotProvided(patient.time_zone?.replace(/_/g, ' ')) },
        { label: t('fields.language'), value: valueOrNotProvided(patient.language) },
      ],
    },
    {
      key: 'care',
      entries: [
        { label: t('fields.physician_id'), value: valueOrNotProvided(patient.physician?.name) },
        { label: t('fields.assigned_admin_id'), value: valueOrNotProvided(patient.assigned_admin?.name) },
        {
          label: t('fields.consent_at'),
          value: patient.consent_at ? identityDate(patient.consent_at) : valueOrNotProvided(null),
        },
        {
          label: t('fields.consent_method'),
          value: patient.consent_method
            ? t(`consent.${patient.consent_method as 'written'}`)
            : valueOrNotProvided(null),
        },
      ],
    },
    {
      key: 'demographics',
      entries: [
        { label: t('fields.race'), value: valueOrNotProvided(patient.race) },
        { label: t('fields.ethnicity'), value: valueOrNotProvided(patient.ethnicity) },
        {
          label: t('fields.income'),
          value: patient.income ? t(`income.${patient.income as 'declined'}`) : valueOrNotProvided(null),
        },
      ],
    },
  ];
  return (
    <Stack gap="lg">
      {sections.map((section) => (
        <Stack key={section.key} gap="xs">
          <Title order={2} fz="h5">
            {t(`sections.${section.key}`)}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" component="dl" m={0}>
            {section.entries.map((entry) => (
              <div key={entry.label}>
                <Text component="dt" size="xs" c="dimmed">
                  {entry.label}
                </Text>
                <Text component="dd" m={0} size="sm">
                  {entry.value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Stack>
      ))}
      <PatientTags programId={patient.program_id} patientId={patient.id} canEdit={canTag} />
    </Stack>
  );
}
