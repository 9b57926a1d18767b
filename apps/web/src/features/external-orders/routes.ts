import { EXTERNAL_ORDER_ROLES } from '@caredeck/contracts';
import { IconPackageImport } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** External pharmacy orders (02 §2 /external-orders): for pharmacy staff and the program's administrators. */
export const externalOrderRoutes: readonly AppRoute[] = [
  {
    id: 'external-orders',
    titleKey: 'nav.externalOrders',
    path: '/external-orders',
    auth: 'staff',
    roles: EXTERNAL_ORDER_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/ExternalOrdersPage'), 'ExternalOrdersPage'),
    menu: { labelKey: 'nav.externalOrders', icon: IconPackageImport, section: 'care' },
  },
];
