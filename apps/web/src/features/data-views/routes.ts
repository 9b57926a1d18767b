import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

const load = () => import('./pages/DataViewPages');

/** A patient's data over a period (01 §2: /servings/{id}, /activities/{id}, /activities-range/{id}, /sleep/{id}). */
export const dataViewRoutes: readonly AppRoute[] = [
  {
    id: 'servings',
    titleKey: 'pages.servings.title',
    path: '/servings/:id',
    auth: 'staff',
    inShell: true,
    page: lazyPage(load, 'ServingsPage'),
  },
  {
    id: 'activities',
    titleKey: 'pages.activities.title',
    path: '/activities/:id',
    auth: 'staff',
    inShell: true,
    page: lazyPage(load, 'ActivitiesPage'),
  },
  {
    id: 'activitiesRange',
    titleKey: 'pages.activitiesRange.title',
    path: '/activities-range/:id',
    auth: 'staff',
    inShell: true,
    page: lazyPage(load, 'ActivitiesRangePage'),
  },
  {
    id: 'sleep',
    titleKey: 'pages.sleep.title',
    path: '/sleep/:id',
    auth: 'staff',
    inShell: true,
    page: lazyPage(load, 'SleepPage'),
  },
];
