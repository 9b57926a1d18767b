import { CARE_ROLES } from '@caredeck/contracts';
import { IconFileAnalytics, IconFileReport, IconReportMedical } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** Who requests pharma reports (per medication, no patient identifiers): ADR 043. */
const PHARMA_REPORT_ROLES = ['admin', 'enterprise_admin', 'pharma', 'pharmacy'] as const;

/** Reports (02 §2 /reports, /pharma-reports, /patients/reports). */
export const reportRoutes: readonly AppRoute[] = [
  {
    id: 'reports',
    titleKey: 'nav.reports',
    path: '/reports',
    auth: 'staff',
    roles: CARE_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/ReportsPage'), 'CareReportsPage'),
    menu: { labelKey: 'nav.reports', icon: IconFileReport, section: 'insights' },
  },
  {
    id: 'pharma-reports',
    titleKey: 'nav.pharmaReports',
    path: '/pharma-reports',
    auth: 'staff',
    roles: PHARMA_REPORT_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/ReportsPage'), 'PharmaReportsPage'),
    menu: { labelKey: 'nav.pharmaReports', icon: IconFileAnalytics, section: 'insights' },
  },
  {
    id: 'patient-reports',
    titleKey: 'nav.patientReports',
    path: '/patients/reports',
    auth: 'staff',
    roles: CARE_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/PatientReportsPage'), 'PatientReportsPage'),
    menu: { labelKey: 'nav.patientReports', icon: IconReportMedical, section: 'insights' },
  },
];
