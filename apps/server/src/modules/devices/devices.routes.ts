import { CARE_ROLES, devicesContract as c, DEVICE_MESSAGES } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import type { Actor, DeviceActor, FhirClientActor } from '../../platform/access/actor';
import { access } from '../../platform/access/rules';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { deviceObject, dispenserObject } from './devices.queries';
import type { DevicesService } from './devices.service';

/** Staff or a controller: the routes the /controller area shares with the staff console. */
function anyActor(req: { actor: Actor | DeviceActor | FhirClientActor | null }): Actor {
  if (!req.actor || req.actor.realm === 'device' || req.actor.realm === 'fhir_client')
    throw AppError.unauthenticated();
  return req.actor;
}

export async function devicesRoutes(app: App, deps: { devices: DevicesService }) {
  const { devices } = deps;
  const dispenser = access.object(dispenserObject, { controller: true, notFound: 'Dispenser not found' });
  const operate = access.object(dispenserObject, {
    controller: true,
    notFound: 'Dispenser not found',
    roles: ['admin', 'physician', 'care_coordinator', 'enterprise_admin', 'pharmacy'],
  });

  route(app, c.dispenser, {
    access: dispenser,
    handler: async (req) => devices.dispenser(anyActor(req), req.params.id),
  });
  route(app, c.subscribe, {
    access: dispenser,
    handler: async (req) =>
      devices.subscribe(anyActor(req), {
        id: req.params.id,
        dispenserType: req.body.dispenserType,
        on: true,
      }),
  });
  route(app, c.unsubscribe, {
    access: dispenser,
    handler: async (req) =>
      devices.subscribe(anyActor(req), {
        id: req.params.id,
        dispenserType: req.body.dispenserType,
        on: false,
      }),
  });
  route(app, c.message, {
    access: operate,
    handler: async (req, reply) => {
      const result = await devices.message(anyActor(req), { id: req.params.id, ...req.body });
      if (result.timedOut) reply.status(504);
      return result.body;
    },
  });
  route(app, c.patientDispenser, {
    access: access.program(),
    handler: async (req) => devices.patientDispenser(staffActor(req), { patientId: req.params.id }),
  });
  for (const contract of [c.list, c.deviceList])
    route(app, contract, {
      access: access.staffOrController(),
      handler: async (req) => devices.list(anyActor(req), req.query),
    });
  route(app, c.provision, {
    access: access.staffOrController({ programRoles: CARE_ROLES }),
    handler: async (req) => devices.provision(anyActor(req), { vendor: req.params.vendor, ...req.body }),
  });
  route(app, c.medesto, {
    access: access.staffOrController({ programRoles: CARE_ROLES }),
    handler: async (req) => devices.registerMedesto(anyActor(req), req.body),
  });
  // The roles that may register a device into the program may give it a new secret (ADR 051).
  route(app, c.replaceSecret, {
    access: access.object(deviceObject, {
      controller: true,
      notFound: DEVICE_MESSAGES.deviceNotFound,
      roles: CARE_ROLES,
    }),
    handler: async (req) => devices.replaceSecret(anyActor(req), req.params.id),
  });
  route(app, c.inhalers, {
    access: access.staffOrController(),
    handler: async (req) => devices.list(anyActor(req), { ...req.query, kind: 'inhaler' }),
  });
  route(app, c.createInhaler, {
    access: access.staffOrController({ programRoles: CARE_ROLES }),
    handler: async (req) => devices.registerInhaler(anyActor(req), req.body),
  });
  route(app, c.gateway, {
    access: access.controller(),
    handler: async () => devices.gatewayStatus(),
  });
  route(app, c.integrations, {
    access: access.staffOrController(),
    handler: async (req) => devices.integrations(anyActor(req)),
  });
}
