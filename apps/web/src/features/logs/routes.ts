import { IconHistory } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** Staff activity logs (01 §2 /logs; ADR 039). */
export const logRoutes: readonly AppRoute[] = [
  {
    id: 'logs',
    titleKey: 'nav.logs',
    path: '/logs',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/LogsPage'), 'LogsPage'),
    menu: { labelKey: 'nav.logs', icon: IconHistory, section: 'program' },
  },
];
