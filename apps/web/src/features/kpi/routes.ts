import { IconChartBar } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** KPI of the program or the enterprise (01 §2 /kpi). */
export const kpiRoutes: readonly AppRoute[] = [
  {
    id: 'kpi',
    titleKey: 'nav.kpi',
    path: '/kpi',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/KpiPage'), 'KpiPage'),
    menu: { labelKey: 'nav.kpi', icon: IconChartBar, section: 'insights' },
  },
];
