import { IconBuildingHospital, IconId } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** Staff of the program (01 §2 /admins) and the programs of the enterprise (/programs-management), for their administrators. */
export const staffRoutes: readonly AppRoute[] = [
  {
    id: 'admins',
    titleKey: 'nav.staff',
    path: '/admins',
    auth: 'staff',
    roles: ['admin', 'enterprise_admin'],
    inShell: true,
    page: lazyPage(() => import('./pages/StaffPage'), 'StaffPage'),
    menu: { labelKey: 'nav.staff', icon: IconId, section: 'program' },
  },
  {
    id: 'programs-management',
    titleKey: 'nav.programs',
    path: '/programs-management',
    auth: 'staff',
    roles: ['admin', 'enterprise_admin'],
    inShell: true,
    page: lazyPage(() => import('./pages/ProgramsPage'), 'ProgramsPage'),
    menu: { labelKey: 'nav.programs', icon: IconBuildingHospital, section: 'program' },
  },
];
