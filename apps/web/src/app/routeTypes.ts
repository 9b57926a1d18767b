// The console's route types: a leaf module that every feature's `routes.ts` and the shell import, so that the
// route table (router.tsx), which imports the features, is imported by none of them.
import type { StaffRole } from '@caredeck/contracts';
import type { TablerIcon } from '@tabler/icons-react';
import type { ParseKeys } from 'i18next';
import type { LoaderFunction } from 'react-router';
import type { en } from '../shared/i18n/en';
import type { PageLoader } from './lazyPage';

type TranslationShape = typeof en;

/**
 * Who may open a route: anyone (`public`), only visitors without a staff session (`signedOut`, the login
 * page), signed-in staff (`staff`, optionally with `roles`), or the controller realm.
 */
export type RouteAuth = 'public' | 'signedOut' | 'staff' | 'controller' | 'controllerSignedOut';

/** A screen's entry in the navigation and the page search: one of the `nav.*` texts (the English file is the
 * reference, so a new screen's label is added there and in the other languages, nowhere else). */
export type MenuLabelKey = `nav.${Exclude<keyof TranslationShape['nav'], 'label' | 'sections'>}`;

/** The navigation's sections: the day's care work, alerts, figures, the program's set-up (in this order). */
export const NAV_SECTIONS = ['care', 'alerts', 'insights', 'program'] as const;
export type NavSection = (typeof NAV_SECTIONS)[number];

export interface AppRoute {
  /** Stable id; also the page name recorded with page time. */
  id: string;
  path: string;
  auth: RouteAuth;
  /** Staff routes only: the user needs one of these roles in the active program or enterprise. */
  roles?: readonly StaffRole[];
  /** Rendered inside the staff console (navigation, navbar, footer). */
  inShell?: boolean;
  page?: PageLoader;
  redirectTo?: string;
  /** Every route with a page has its own title ('Patients · CareDeck'): any text of the console. */
  titleKey?: ParseKeys;
  /** An extra rule of a public route (runs after the guard). */
  rule?: LoaderFunction;
  /** Listed in the navigation (in its section) and the page search. */
  menu?: { labelKey: MenuLabelKey; icon: TablerIcon; section: NavSection };
}

export interface AppRouteHandle {
  appRoute: AppRoute;
}
