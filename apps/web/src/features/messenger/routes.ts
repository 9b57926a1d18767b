import { IconMessages } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** The staff messenger (02 §2 /messenger). */
export const messengerRoutes: readonly AppRoute[] = [
  {
    id: 'messenger',
    titleKey: 'nav.messenger',
    path: '/messenger',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/MessengerPage'), 'MessengerPage'),
    menu: { labelKey: 'nav.messenger', icon: IconMessages, section: 'care' },
  },
];
