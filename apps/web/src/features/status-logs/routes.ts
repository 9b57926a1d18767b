import { IconStatusChange } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** The log of patients' status changes (02 §2 /status-logs; ADR 047): for whoever sees the patients. */
export const statusLogRoutes: readonly AppRoute[] = [
  {
    id: 'statusLogs',
    titleKey: 'nav.statusLogs',
    path: '/status-logs',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/StatusLogsPage'), 'StatusLogsPage'),
    menu: { labelKey: 'nav.statusLogs', icon: IconStatusChange, section: 'care' },
  },
];
