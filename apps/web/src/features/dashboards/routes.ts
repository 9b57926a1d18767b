import { IconLayoutDashboard, IconPill } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** The dashboards of 01 §2: /provider-dashboard and /pharma-dashboard. */
export const dashboardRoutes: readonly AppRoute[] = [
  {
    id: 'providerDashboard',
    titleKey: 'nav.providerDashboard',
    path: '/provider-dashboard',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/ProviderDashboardPage'), 'ProviderDashboardPage'),
    menu: { labelKey: 'nav.providerDashboard', icon: IconLayoutDashboard, section: 'insights' },
  },
  {
    id: 'pharmaDashboard',
    titleKey: 'nav.pharmaDashboard',
    path: '/pharma-dashboard',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/PharmaDashboardPage'), 'PharmaDashboardPage'),
    menu: { labelKey: 'nav.pharmaDashboard', icon: IconPill, section: 'insights' },
  },
];
