import { IconBellRinging } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/router';

/** The alert board (02 §2 /alerts). */
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
];
