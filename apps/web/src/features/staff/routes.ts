import { IconId } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/router';

/** Staff of the program (01 §2 /admins), for its administrators. */
export const staffRoutes: readonly AppRoute[] = [
  {
    id: 'admins',
    titleKey: 'nav.staff',
    path: '/admins',
    auth: 'staff',
    roles: ['admin', 'enterprise_admin'],
    inShell: true,
    page: lazyPage(() => import('./pages/StaffPage'), 'StaffPage'),
    menu: { labelKey: 'nav.staff', icon: IconId },
  },
];
