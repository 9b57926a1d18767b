import {
  ALERT_MESSAGES,
  analyticsContract as analyticsRoutes,
  alertsContract as c,
  legacyAlertsContract as legacy,
  RULE_EDITOR_ROLES,
} from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { alertObject } from './alerts.queries';
import type { AlertsService } from './alerts.service';
import type { AnalyticsService } from './analytics.service';

export async function alertsRoutes(app: App, deps: { alerts: AlertsService; analytics: AnalyticsService }) {
  const { alerts, analytics } = deps;
  // Alerts named by id in the body: each must be an alert of a program the actor works in (any role, as
  // `alerts/{id}` and the program's analytics clear/hide), else 404 and nothing changes.
  const bodyAlerts = access.objects(alertObject, { field: 'ids', notFound: ALERT_MESSAGES.notFound });
  // Calls without a path program: the service scopes them to the programs the actor sees (404 outside).
  route(app, c.groups, {
    access: access.staff(),
    handler: async (req) => alerts.groups(staffActor(req), req.query),
  });
  route(app, c.stepResolved, {
    access: access.staff(),
    handler: async (req) => alerts.resolved(staffActor(req), req.query),
  });
  route(app, c.usersCount, {
    access: access.staff(),
    handler: async (req) => alerts.counts(staffActor(req), req.query),
  });
  route(app, c.usersCountCohort, {
    access: access.staff(),
    handler: async (req) => alerts.counts(staffActor(req), { ...req.query, cohort_id: req.params.cohort }),
  });
  route(app, c.list, {
    access: access.staff(),
    handler: async (req) => alerts.list(staffActor(req), req.params, req.query),
  });
  route(app, c.detail, {
    access: access.object(alertObject, { notFound: 'Alert not found' }),
    handler: async (req) => alerts.detail(staffActor(req), req.params.id),
  });
  route(app, c.deleteAlerts, {
    access: bodyAlerts,
    handler: async (req) => alerts.clear(staffActor(req), req.body.ids),
  });
  route(app, c.acknowledge, {
    access: bodyAlerts,
    handler: async (req) => alerts.acknowledge(staffActor(req), req.body.ids),
  });
  route(app, c.snooze, {
    access: bodyAlerts,
    handler: async (req) => alerts.snooze(staffActor(req), req.body.ids, req.body.minutes),
  });
  route(app, c.assign, {
    access: bodyAlerts,
    handler: async (req) => alerts.assign(staffActor(req), req.body.ids, req.body.admin_id),
  });
  route(app, c.analyticsClear, {
    access: access.program(),
    handler: async (req) => alerts.clear(staffActor(req), req.body.alerts, [req.params.programId]),
  });
  route(app, c.analyticsHide, {
    access: access.program(),
    handler: async (req) => alerts.hide(staffActor(req), req.body.alerts, [req.params.programId]),
  });
  // 01 §7 "Alert list (legacy form)".
  route(app, legacy.list, {
    access: access.program(),
    handler: async (req) => alerts.legacyList(staffActor(req), req.query),
  });
  route(app, legacy.markEscalationCompleted, {
    access: access.program(),
    handler: async (req) => alerts.completeEscalations(staffActor(req), req.body.users),
  });
  route(app, legacy.stepResolved, {
    access: access.program(),
    handler: async (req) => alerts.resolveStep(staffActor(req), req.params.id),
  });
  route(app, legacy.summary, {
    access: access.program(),
    handler: async (req) => alerts.summary(staffActor(req), req.query),
  });
  route(app, legacy.pathways, {
    access: access.program(),
    handler: async (req) => alerts.pathways(staffActor(req)),
  });
  // Analytics and dashboards.
  route(app, analyticsRoutes.process, {
    access: access.program(),
    handler: async (req) => analytics.process(staffActor(req)),
  });
  route(app, analyticsRoutes.program, {
    access: access.program(),
    handler: async (req) => analytics.program(staffActor(req), req.params, req.query),
  });
  route(app, analyticsRoutes.enterprise, {
    access: access.enterprise(),
    handler: async (req) => analytics.enterprise(staffActor(req), req.params, req.query),
  });
  route(app, analyticsRoutes.dashboard, {
    access: access.staff(),
    handler: async (req) => analytics.dashboard(staffActor(req), req.params, req.query),
  });
  route(app, c.settings, {
    access: access.program(),
    handler: async (req) => alerts.settings(staffActor(req), req.query),
  });
  route(app, c.saveSettings, {
    access: access.program(RULE_EDITOR_ROLES),
    handler: async (req) => alerts.saveSettings(staffActor(req), req.query, req.body),
  });
}
