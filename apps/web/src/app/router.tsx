import type { StaffRole } from '@caredeck/contracts';
import { IconSettings, IconUsers, type TablerIcon } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  type LoaderFunction,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
} from 'react-router';
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
import { i18n } from '../shared/i18n';
import { toast } from '../shared/ui/toasts';
import {
  redirectSignedInController,
  redirectSignedInFromLogin,
  requireController,
  requireStaff,
} from './guards';
import { firstScreenPage, lazyPage, type PageLoader } from './lazyPage';
import { FullPageLoader } from './pages/FullPageLoader';
import { ChunkErrorScreen, RouteErrorScreen } from './pages/RouteErrorScreen';
import { AppRoot } from './shell/AppRoot';

/**
 * Who may open a route: anyone (`public`), only visitors without a staff session (`signedOut`, the login
 * page), signed-in staff (`staff`, optionally with `roles`), or the controller realm.
 */
export type RouteAuth = 'public' | 'signedOut' | 'staff' | 'controller' | 'controllerSignedOut';

export type MenuLabelKey =
  | 'nav.patients'
  | 'nav.messenger'
  | 'nav.alerts'
  | 'nav.alertsAnalytics'
  | 'nav.escalations'
  | 'nav.worklist'
  | 'nav.providerDashboard'
  | 'nav.pharmaDashboard'
  | 'nav.cohorts'
  | 'nav.pipelines'
  | 'nav.surveys'
  | 'nav.content'
  | 'nav.protocols'
  | 'nav.kpi'
  | 'nav.billing'
  | 'nav.reports'
  | 'nav.pharmaReports'
  | 'nav.patientReports'
  | 'nav.bulkActions'
  | 'nav.statusLogs'
  | 'nav.externalOrders'
  | 'nav.staff'
  | 'nav.programs'
  | 'nav.logs'
  | 'nav.settings';

/** The screen's name in the browser tab ('Patients · CareDeck'). */
export type PageTitleKey =
  | 'auth.signIn'
  | 'pages.guest.title'
  | 'legal.terms.title'
  | 'legal.privacy.title'
  | 'pages.notAuthorized.title'
  | 'controller.signInTitle'
  | 'controller.title'
  | 'patients.title'
  | 'settings.title'
  | 'pages.patient.title'
  | 'pages.patientSettings.title'
  | 'pages.addPatient.title'
  | 'pages.addPatientToPipeline.title'
  | 'pages.medRec.title'
  | 'pages.cohort.title'
  | 'pages.cohortPatients.title'
  | 'pages.servings.title'
  | 'pages.activities.title'
  | 'pages.activitiesRange.title'
  | 'pages.sleep.title'
  | 'nav.cohorts'
  | 'nav.kpi'
  | 'nav.billing'
  | 'nav.reports'
  | 'nav.pharmaReports'
  | 'nav.patientReports'
  | 'nav.bulkActions'
  | 'nav.statusLogs'
  | 'nav.externalOrders'
  | 'nav.alerts'
  | 'nav.alertsAnalytics'
  | 'nav.escalations'
  | 'nav.worklist'
  | 'nav.providerDashboard'
  | 'nav.pharmaDashboard'
  | 'nav.messenger'
  | 'nav.content'
  | 'nav.protocols'
  | 'nav.surveys'
  | 'nav.pipelines'
  | 'pages.pipeline.title'
  | 'nav.staff'
  | 'nav.programs'
  | 'nav.logs'
  | 'pages.patientEscalations.title'
  | 'pages.patientMessages.title'
  | 'pages.groupEscalations.title'
  | 'pages.groupMessages.title';

export interface AppRoute {
  /** Stable id; also the page name recorded with page time. */
  id: string;
  path: string;
  auth: RouteAuth;
  /** Staff routes only: the user needs one of these roles in the active program or enterprise. */
  roles?: readonly StaffRole[];
  /** Rendered inside the staff console (navigation, navbar, footer). */
  inShell?: boolean;
  page?: PageLoader;
  redirectTo?: string;
  /** Every route with a page has its own title. */
  titleKey?: PageTitleKey;
  /** An extra rule of a public route (runs after the guard). */
  rule?: LoaderFunction;
  /** Listed in the navigation and the page search. */
  menu?: { labelKey: MenuLabelKey; icon: TablerIcon };
}

export interface AppRouteHandle {
  appRoute: AppRoute;
}

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
    menu: { labelKey: 'nav.patients', icon: IconUsers },
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
    menu: { labelKey: 'nav.settings', icon: IconSettings },
  },
];

/** The guard a route's `auth` (and `roles`) stand for, as a loader; public routes have none. */
export function guardFor(route: AppRoute): LoaderFunction | undefined {
  switch (route.auth) {
    case 'staff':
      return async ({ request }: LoaderFunctionArgs) => {
        await requireStaff(request, route.roles);
        return null;
      };
    case 'signedOut':
      return redirectSignedInFromLogin;
    case 'controller':
      return requireController;
    case 'controllerSignedOut':
      return redirectSignedInController;
    case 'public':
      return undefined;
  }
}

function loaderFor(route: AppRoute): LoaderFunction | undefined {
  const guard = guardFor(route);
  const { rule, redirectTo } = route;
  if (!guard && !rule && !redirectTo) return undefined;
  return async (args) => {
    if (guard) await guard(args);
    if (rule) await rule(args);
    if (redirectTo) throw redirect(redirectTo);
    return null;
  };
}

/** A page that cannot be loaded resolves to the retry screen: a failed `lazy` would leave the route blank. */
async function loadComponent(page: PageLoader): Promise<{ Component: ComponentType }> {
  try {
    return { Component: await page() };
  } catch (error) {
    console.error('A page could not be loaded', error);
    return { Component: ChunkErrorScreen };
  }
}

function toRouteObject(route: AppRoute): RouteObject {
  const page = route.page;
  const handle: AppRouteHandle = { appRoute: route };
  return {
    id: route.id,
    path: route.path,
    loader: loaderFor(route),
    lazy: page ? () => loadComponent(page) : undefined,
    // A redirect-only route never renders.
    element: page ? undefined : null,
    handle,
    errorElement: <RouteErrorScreen />,
  };
}

const loadShell = firstScreenPage(() => import('./shell/ConsoleShell'), 'ConsoleShell');

/** An unknown URL: a toast names it, then the root (01 §2 redirects silently; users thought their link worked). */
function redirectUnknownPath({ request }: LoaderFunctionArgs): Response {
  toast.warning(i18n.t('pages.notFound.message', { path: new URL(request.url).pathname }), {
    title: i18n.t('pages.notFound.title'),
  });
  return redirect('/');
}

export function buildRouteObjects(routes: readonly AppRoute[] = APP_ROUTES): RouteObject[] {
  return [
    {
      id: 'app',
      element: <AppRoot />,
      errorElement: <RouteErrorScreen />,
      hydrateFallbackElement: <FullPageLoader />,
      children: [
        ...routes.filter((route) => !route.inShell).map(toRouteObject),
        {
          id: 'shell',
          // The console's frame loads with the first signed-in page, not with the sign-in page.
          lazy: () => loadComponent(loadShell),
          children: routes.filter((route) => route.inShell).map(toRouteObject),
        },
        // Any unknown path goes to the root, which goes to /patients (01 §2), and the user is told why.
        { id: 'unknown', path: '*', loader: redirectUnknownPath, element: null },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}

/** Routes shown in the navigation and the page search. */
export function menuRoutes(routes: readonly AppRoute[] = APP_ROUTES): AppRoute[] {
  return routes.filter((route) => route.menu !== undefined);
}
