import { IconBooks } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** The content library and the staff's text-message templates (02 §1 "message-content folders"). */
export const contentRoutes: readonly AppRoute[] = [
  {
    id: 'content',
    titleKey: 'nav.content',
    path: '/content',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/ContentPage'), 'ContentPage'),
    menu: { labelKey: 'nav.content', icon: IconBooks, section: 'program' },
  },
];
