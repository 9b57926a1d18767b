import { IconClipboardList } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** Surveys (assessments): the library and the worklist (02 §1 /surveys and /surveys-v2; ADR 036). */
export const surveyRoutes: readonly AppRoute[] = [
  {
    id: 'surveys',
    titleKey: 'nav.surveys',
    path: '/surveys',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/SurveysPage'), 'SurveysPage'),
    menu: { labelKey: 'nav.surveys', icon: IconClipboardList, section: 'care' },
  },
  // 02 §1 lists /surveys-v2: the same screen, opened on the worklist.
  { id: 'surveys-v2', path: '/surveys-v2', auth: 'staff', redirectTo: '/surveys?tab=worklist' },
];
