import { CARE_ROLES } from '@caredeck/contracts';
import { IconStack2 } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** Bulk actions of the program (02 §1 /bulk-events): proposed by the care roles, approved by administrators. */
export const bulkActionRoutes: readonly AppRoute[] = [
  {
    id: 'bulk-events',
    titleKey: 'nav.bulkActions',
    path: '/bulk-events',
    auth: 'staff',
    roles: CARE_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/BulkActionsPage'), 'BulkActionsPage'),
    menu: { labelKey: 'nav.bulkActions', icon: IconStack2, section: 'care' },
  },
];
