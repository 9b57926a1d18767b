import { IconTimeline } from '@tabler/icons-react';
import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** Pipelines and a pipeline's board (02 §1 /pipelines, /pipeline/{pipeline_id}; ADR 037). */
export const pipelineRoutes: readonly AppRoute[] = [
  {
    id: 'pipelines',
    titleKey: 'nav.pipelines',
    path: '/pipelines',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/PipelinesPage'), 'PipelinesPage'),
    menu: { labelKey: 'nav.pipelines', icon: IconTimeline, section: 'care' },
  },
  {
    id: 'pipeline',
    titleKey: 'pages.pipeline.title',
    path: '/pipeline/:pipeline_id',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/PipelinePage'), 'PipelinePage'),
  },
];
