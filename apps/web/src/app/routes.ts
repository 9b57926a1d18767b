// The one route table (DESIGN §6): the console's own routes and, one line each, every feature's `routes.ts`.
// A feature declares its screens there (path, guard, page, title, menu entry and section); the router
// (router.tsx), the navigation, the page search and the tests read them from here.
import { IconSettings, IconUsers } from '@tabler/icons-react';
import { alertRoutes } from '../features/alerts/routes';
import { billingRoutes } from '../features/billing/routes';
import { bulkActionRoutes } from '../features/bulk-actions/routes';
import { cohortRoutes } from '../features/cohorts/routes';
import { contentRoutes } from '../features/content/routes';
import { dashboardRoutes } from '../features/dashboards/routes';
import { dataViewRoutes } from '../features/data-views/routes';
import { escalationRoutes } from '../features/escalations/routes';
import { externalOrderRoutes } from '../features/external-orders/routes';
import { guestRoutes } from '../features/guest/routes';
import { kpiRoutes } from '../features/kpi/routes';
import { logRoutes } from '../features/logs/routes';
import { messengerRoutes } from '../features/messenger/routes';
import { patientRecordRoutes } from '../features/patient-record/routes';
import { pipelineRoutes } from '../features/pipelines/routes';
import { reportRoutes } from '../features/reports/routes';
import { staffRoutes } from '../features/staff/routes';
import { statusLogRoutes } from '../features/status-logs/routes';
import { surveyRoutes } from '../features/surveys/routes';
import { protocolRoutes } from '../features/tags/routes';
import { firstScreenPage, lazyPage } from './lazyPage';
import type { AppRoute } from './routeTypes';

/** The one route table (DESIGN §6): every route of the console, its guard and its page. */
export const APP_ROUTES: readonly AppRoute[] = [
  { id: 'root', path: '/', auth: 'public', redirectTo: '/patients' },
  {
    id: 'login',
    titleKey: 'auth.signIn',
    path: '/login',
    auth: 'signedOut',
    page: firstScreenPage(() => import('../features/identity/pages/LoginPage'), 'LoginPage'),
  },
  {
    id: 'terms',
    titleKey: 'legal.terms.title',
    path: '/terms',
    auth: 'public',
    page: lazyPage(() => import('../features/legal/pages/TermsPage'), 'TermsPage'),
  },
  {
    id: 'privacy',
    titleKey: 'legal.privacy.title',
    path: '/privacy',
    auth: 'public',
    page: lazyPage(() => import('../features/legal/pages/PrivacyPage'), 'PrivacyPage'),
  },
  {
    id: 'notAuthorized',
    titleKey: 'pages.notAuthorized.title',
    path: '/error/not-authorized',
    auth: 'public',
    page: lazyPage(() => import('./pages/NotAuthorizedPage'), 'NotAuthorizedPage'),
  },
  ...guestRoutes,
  {
    id: 'controllerLogin',
    titleKey: 'controller.signInTitle',
    path: '/controller/login',
    auth: 'controllerSignedOut',
    page: lazyPage(() => import('../features/identity/pages/ControllerLoginPage'), 'ControllerLoginPage'),
  },
  {
    id: 'controller',
    titleKey: 'controller.title',
    path: '/controller',
    auth: 'controller',
    page: lazyPage(() => import('../features/identity/pages/ControllerPage'), 'ControllerPage'),
  },
  {
    id: 'patients',
    titleKey: 'patients.title',
    path: '/patients',
    auth: 'staff',
    inShell: true,
    page: firstScreenPage(() => import('../features/patients/pages/PatientsPage'), 'PatientsPage'),
    menu: { labelKey: 'nav.patients', icon: IconUsers, section: 'care' },
  },
  // Each feature's screens: one line per feature.
  ...messengerRoutes,
  ...alertRoutes,
  ...dashboardRoutes,
  ...patientRecordRoutes,
  ...dataViewRoutes,
  ...cohortRoutes,
  ...pipelineRoutes,
  ...surveyRoutes,
  ...escalationRoutes,
  ...contentRoutes,
  ...protocolRoutes,
  ...kpiRoutes,
  ...billingRoutes,
  ...reportRoutes,
  ...bulkActionRoutes,
  ...statusLogRoutes,
  ...externalOrderRoutes,
  ...staffRoutes,
  ...logRoutes,
  {
    id: 'settings',
    titleKey: 'settings.title',
    path: '/settings',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('../features/identity/pages/SettingsPage'), 'SettingsPage'),
    menu: { labelKey: 'nav.settings', icon: IconSettings, section: 'program' },
  },
];

/** Routes shown in the navigation and the page search. */
export function menuRoutes(routes: readonly AppRoute[] = APP_ROUTES): AppRoute[] {
  return routes.filter((route) => route.menu !== undefined);
}
