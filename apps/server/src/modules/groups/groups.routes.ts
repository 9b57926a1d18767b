import { CARE_ROLES, groupsContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { groupObject } from './groups.queries';
import type { GroupsService } from './groups.service';

export async function groupsRoutes(app: App, deps: { groups: GroupsService }) {
  const { groups } = deps;

  route(app, c.list, {
    access: access.program(),
    handler: async (req) => groups.list(staffActor(req), req.query),
  });

  route(app, c.create, {
    access: access.program(CARE_ROLES),
    handler: async (req) => groups.create(staffActor(req), req.body),
  });

  route(app, c.update, {
    access: access.program(CARE_ROLES),
    handler: async (req) => groups.update(staffActor(req), { groupId: req.params.id, ...req.body }),
  });

  route(app, c.addUser, {
    access: access.program(CARE_ROLES),
    handler: async (req) =>
      groups.addUser(staffActor(req), { groupId: req.params.groupId, patientId: req.params.userId }),
  });

  route(app, c.removeUser, {
    access: access.program(CARE_ROLES),
    handler: async (req) =>
      groups.removeUser(staffActor(req), { groupId: req.params.groupId, patientId: req.params.userId }),
  });

  route(app, c.get, {
    access: access.object(groupObject),
    handler: async (req) => groups.get(staffActor(req), { groupId: req.params.id }),
  });

  route(app, c.patientGroups, {
    access: access.staff(),
    handler: async (req) => groups.ofPatient(staffActor(req), { patientId: req.query.patient_id }),
  });

  route(app, c.delete, {
    access: access.object(groupObject, { roles: CARE_ROLES }),
    handler: async (req) => groups.delete(staffActor(req), { groupId: req.params.id }),
  });

  route(app, c.addUsers, {
    access: access.object(groupObject, { roles: CARE_ROLES }),
    handler: async (req) =>
      groups.addUsers(staffActor(req), { groupId: req.params.id, patientIds: req.body.users }),
  });
}
