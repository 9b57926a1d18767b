import { guestMessengerEntry } from '../../app/guards';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

const redirectPage = lazyPage(() => import('./pages/GuestRedirectPage'), 'GuestRedirectPage');

/** The guest channel (02 §2): the link's landing page (also at /guest) and the guest messenger. */
export const guestRoutes: readonly AppRoute[] = [
  {
    id: 'guestRedirect',
    titleKey: 'pages.guest.title',
    path: '/guest/external-redirect',
    auth: 'public',
    page: redirectPage,
  },
  { id: 'guest', titleKey: 'pages.guest.title', path: '/guest', auth: 'public', page: redirectPage },
  {
    id: 'guestMessenger',
    titleKey: 'pages.guest.title',
    path: '/guest/messenger',
    auth: 'public',
    rule: guestMessengerEntry,
    page: lazyPage(() => import('./pages/GuestMessengerPage'), 'GuestMessengerPage'),
  },
];
