import { CARE_ROLES } from '@caredeck/contracts';
import { IconReceipt } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** Billing and time tracking of the program (02 §1 /billings), for the roles that look after patients. */
export const billingRoutes: readonly AppRoute[] = [
  {
    id: 'billings',
    titleKey: 'nav.billing',
    path: '/billings',
    auth: 'staff',
    roles: CARE_ROLES,
    inShell: true,
    page: lazyPage(() => import('./pages/BillingsPage'), 'BillingsPage'),
    menu: { labelKey: 'nav.billing', icon: IconReceipt, section: 'insights' },
  },
];
