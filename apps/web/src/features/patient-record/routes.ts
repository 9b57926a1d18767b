import { CARE_ROLES } from '@caredeck/contracts';
import { redirect } from 'react-router';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** The patient record's screens (01 §2): registered into the one route table by app/router.tsx. */
export const patientRecordRoutes: readonly AppRoute[] = [
  {
    id: 'patient',
    titleKey: 'pages.patient.title',
    path: '/patient/:patientId',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/PatientPage'), 'PatientPage'),
  },
  {
    id: 'patientSettings',
    titleKey: 'pages.patientSettings.title',
    path: '/patient/:patientId/settings',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/PatientSettingsPage'), 'PatientSettingsPage'),
  },
  {
    id: 'patientMedRec',
    titleKey: 'pages.medRec.title',
    path: '/patient/:patientId/medication/details',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/MedRecPage'), 'MedRecPage'),
  },
  {
    id: 'patientMedication',
    path: '/patient/:patientId/medication',
    auth: 'staff',
    rule: ({ params }) => {
      throw redirect(`/patient/${params.patientId}?tab=medication`);
    },
  },
  {
    id: 'addPatient',
    titleKey: 'pages.addPatient.title',
    path: '/add-patient/:patientId',
    auth: 'staff',
    roles: CARE_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/AddPatientPage'), 'AddPatientPage'),
  },
  {
    // 01 §2: enrol a new patient straight into a pipeline (its first stage); the board opens afterwards.
    id: 'addPatientToPipeline',
    titleKey: 'pages.addPatientToPipeline.title',
    path: '/add-patient/pipeline/:pipelineId/patient/:patientId',
    auth: 'staff',
    roles: CARE_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/AddPatientPage'), 'AddPatientPage'),
  },
];
