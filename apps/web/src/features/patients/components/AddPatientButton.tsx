import { patientRecordContract } from '@caredeck/contracts';
import { Button } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMayCall } from '../../../app/auth/allowed';
import type { ActiveScope } from '../../tenancy/scope';

/** 'Add patient', offered only to the roles that may enrol a patient in the program (ADR 065). */
export function AddPatientButton({ scope }: { scope: ActiveScope }) {
  const { t } = useTranslation();
  if (!useMayCall(patientRecordContract.create, scope)) return null;
  return (
    <Button component={Link} to="/add-patient/new" leftSection={<IconUserPlus size={16} aria-hidden />}>
      {t('patients.addPatient')}
    </Button>
  );
}
