import { deviceChannelContract as c } from '@caredeck/contracts';
import { deviceActor, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { groupObject } from '../groups/groups.queries';
import { patientObject } from '../patients/patients.queries';
import type { ChannelService } from './channel.service';
import { deviceObject } from './devices.queries';

const CARE = ['admin', 'physician', 'care_coordinator', 'enterprise_admin'] as const;

export async function channelRoutes(app: App, deps: { channel: ChannelService }) {
  const { channel } = deps;
  const patient = access.object(patientObject, { notFound: 'Patient not found' });
  const group = access.object(groupObject, { notFound: 'Group not found' });
  // The device named in the body decides the program, with the roles of `devices/{id}/secret`.
  const deviceOfBody = access.objects(deviceObject, { field: 'device_id', roles: CARE });

  route(app, c.createPatientSchedule, {
    access: access.object(patientObject, { notFound: 'Patient not found', roles: CARE }),
    handler: async (req) =>
      channel.createForPatient(staffActor(req), { patientId: req.params.id, ...req.body }),
  });
  route(app, c.patientSchedules, {
    access: patient,
    handler: async (req) => channel.ofPatient(staffActor(req), { patientId: req.params.id }),
  });
  route(app, c.createGroupSchedule, {
    access: access.object(groupObject, { notFound: 'Group not found', roles: CARE }),
    handler: async (req) => channel.createForGroup(staffActor(req), { groupId: req.params.id, ...req.body }),
  });
  route(app, c.groupSchedules, {
    access: group,
    handler: async (req) => channel.ofGroup(staffActor(req), { groupId: req.params.id }),
  });
  route(app, c.nfcProgram, {
    access: access.device(),
    handler: async (req) => channel.nfcProgram(deviceActor(req), req.body),
  });
  route(app, c.nfcActivity, {
    access: access.device(),
    handler: async (req) => channel.nfcActivity(deviceActor(req), req.body),
  });
  route(app, c.goals, {
    access: deviceOfBody,
    handler: async (req) => channel.goal(staffActor(req), req.body),
  });
  route(app, c.deviceRegimen, {
    access: deviceOfBody,
    handler: async (req) => channel.deviceRegimen(staffActor(req), req.body),
  });
}
