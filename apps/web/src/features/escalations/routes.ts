import { lazyPage } from '../../app/lazyPage';
import type { AppRoute } from '../../app/routeTypes';

/** A patient's and a cohort's escalation messages and message history (02 §2). */
export const escalationRoutes: readonly AppRoute[] = [
  {
    id: 'patientEscalations',
    titleKey: 'pages.patientEscalations.title',
    path: '/patient/:patientId/escalation-messages',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/PatientEscalationsPage'), 'PatientEscalationsPage'),
  },
  {
    id: 'patientMessagesHistory',
    titleKey: 'pages.patientMessages.title',
    path: '/patient/:patientId/messages-history',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/PatientMessagesHistoryPage'), 'PatientMessagesHistoryPage'),
  },
  {
    id: 'groupEscalations',
    titleKey: 'pages.groupEscalations.title',
    path: '/group/:groupId/escalation-messages',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/GroupEscalationsPage'), 'GroupEscalationsPage'),
  },
  {
    id: 'groupMessagesHistory',
    titleKey: 'pages.groupMessages.title',
    path: '/group/:groupId/messages-history',
    auth: 'staff',
    inShell: true,
    page: lazyPage(() => import('./pages/GroupMessagesHistoryPage'), 'GroupMessagesHistoryPage'),
  },
];
