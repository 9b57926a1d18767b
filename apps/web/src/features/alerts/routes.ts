import { IconAlertTriangle, IconBellRinging, IconChartDots, IconListCheck } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** The alert board, its analytics and the escalations (02 §2 /alerts, /alerts-analytics, /escalations; 01 §2 /worklist). */
export const alertRoutes: readonly AppRoute[] = [
  {
    id: 'alerts',
    titleKey: 'nav.alerts',
    path: '/alerts',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/AlertsPage'), 'AlertsPage'),
    menu: { labelKey: 'nav.alerts', icon: IconBellRinging, section: 'alerts' },
  },
  {
    id: 'alertsAnalytics',
    titleKey: 'nav.alertsAnalytics',
    path: '/alerts-analytics',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/AlertAnalyticsPage'), 'AlertAnalyticsPage'),
    menu: { labelKey: 'nav.alertsAnalytics', icon: IconChartDots, section: 'alerts' },
  },
  {
    id: 'escalations',
    titleKey: 'nav.escalations',
    path: '/escalations',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/EscalationsPage'), 'EscalationsPage'),
    menu: { labelKey: 'nav.escalations', icon: IconAlertTriangle, section: 'alerts' },
  },
  {
    id: 'worklist',
    titleKey: 'nav.worklist',
    path: '/worklist',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/WorklistPage'), 'WorklistPage'),
    menu: { labelKey: 'nav.worklist', icon: IconListCheck, section: 'care' },
  },
];
