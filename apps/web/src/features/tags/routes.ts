import { IconListCheck } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** The program's care protocols (02 §1 /protocols; ADR 038). Tags live on the content library's Tags tab. */
export const protocolRoutes: readonly AppRoute[] = [
  {
    id: 'protocols',
    titleKey: 'nav.protocols',
    path: '/protocols',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/ProtocolsPage'), 'ProtocolsPage'),
    menu: { labelKey: 'nav.protocols', icon: IconListCheck, section: 'program' },
  },
];
