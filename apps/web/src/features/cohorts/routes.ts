import { IconUsersGroup } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

const cohortPage = lazyPage(() => import('./pages/CohortPage'), 'CohortPage');

/** Cohorts (01 §2: /groups, /group/{id}, /group/{groupId}/group-users). */
export const cohortRoutes: readonly AppRoute[] = [
  {
    id: 'cohorts',
    titleKey: 'nav.cohorts',
    path: '/groups',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/CohortsPage'), 'CohortsPage'),
    menu: { labelKey: 'nav.cohorts', icon: IconUsersGroup, section: 'care' },
  },
  {
    id: 'cohort',
    titleKey: 'pages.cohort.title',
    path: '/group/:id',
    auth: 'staff',
    inShell: true,
    page: cohortPage,
  },
  {
    id: 'cohortPatients',
    titleKey: 'pages.cohortPatients.title',
    path: '/group/:groupId/group-users',
    auth: 'staff',
    inShell: true,
    page: cohortPage,
  },
];
