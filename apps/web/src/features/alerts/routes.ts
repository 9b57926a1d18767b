import { IconBellRinging, IconChartDots } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/router';

/** The alert board and its analytics (02 §2 /alerts, /alerts-analytics). */
export const alertRoutes: readonly AppRoute[] = [
  {
    id: 'alerts',
    titleKey: 'nav.alerts',
    path: '/alerts',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/AlertsPage'), 'AlertsPage'),
    menu: { labelKey: 'nav.alerts', icon: IconBellRinging },
  },
  {
    id: 'alertsAnalytics',
    titleKey: 'nav.alertsAnalytics',
    path: '/alerts-analytics',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/AlertAnalyticsPage'), 'AlertAnalyticsPage'),
    menu: { labelKey: 'nav.alertsAnalytics', icon: IconChartDots },
  },
];
