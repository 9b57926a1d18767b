import { CARE_ROLES, notificationsContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { NotificationsService } from './notifications.service';

export async function notificationsRoutes(app: App, deps: { notifications: NotificationsService }) {
  const { notifications } = deps;
  route(app, c.send, {
    access: access.program(CARE_ROLES),
    handler: async (req) => notifications.send(staffActor(req), req.params.id, req.body),
  });
  route(app, c.history, {
    access: access.program(),
    handler: async (req) => notifications.history(staffActor(req), req.params.id, req.query),
  });
  route(app, c.staff, {
    access: access.program(),
    handler: async (req) => notifications.staff(staffActor(req)),
  });
  route(app, c.readAt, {
    access: access.program(),
    handler: async (req) => notifications.readAt(staffActor(req), req.query.notification_ids),
  });
  route(app, c.schedule, {
    access: access.program(CARE_ROLES),
    handler: async (req) => notifications.schedule(staffActor(req), req.params.id, req.body),
  });
  route(app, c.schedules, {
    access: access.program(),
    handler: async (req) => notifications.schedules(staffActor(req), req.params.id),
  });
  route(app, c.stopSchedule, {
    access: access.program(CARE_ROLES),
    handler: async (req) => notifications.stopSchedule(staffActor(req), req.params.id, req.params.scheduleId),
  });
  route(app, c.audios, {
    access: access.staff(),
    handler: async () => notifications.audios(),
  });
  route(app, c.audioAssignments, {
    access: access.program(),
    handler: async (req) => notifications.audioAssignments(staffActor(req), req.params.id),
  });
  route(app, c.assignAudio, {
    access: access.program(CARE_ROLES),
    handler: async (req) => notifications.assignAudio(staffActor(req), req.body),
  });
}
