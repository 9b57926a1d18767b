import { CARE_ROLES, medicationsContract as c, MEDICATION_MESSAGES } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { regimenObject } from './medications.queries';
import type { MedicationsService } from './medications.service';

/** Pharmacy and pharma staff fill orders and print labels too; changes to the plan itself are the care roles'. */
const PLAN_ROLES = [...CARE_ROLES, 'pharmacy'] as const;

export async function medicationsRoutes(app: App, deps: { medications: MedicationsService }) {
  const { medications: m } = deps;
  const read = access.program();
  const write = access.program(PLAN_ROLES);

  route(app, c.plan, {
    access: read,
    handler: async (req) => m.plan(staffActor(req), { patientId: req.params.id }),
  });

  route(app, c.createOrder, {
    access: write,
    handler: async (req) => {
      const [order] = await m.createOrders(staffActor(req), {
        patientId: req.params.id,
        regimenId: req.query.regimen_id,
        orders: [req.body],
      });
      return order!;
    },
  });
  route(app, c.createOrders, {
    access: write,
    handler: async (req) => ({
      data: await m.createOrders(staffActor(req), { patientId: req.params.id, orders: req.body.orders }),
    }),
  });
  route(app, c.orders, {
    access: read,
    handler: async (req) => m.orders(staffActor(req), { patientId: req.params.id }),
  });

  route(app, c.createRegimen, {
    access: write,
    handler: async (req) => {
      const [regimen] = await m.createRegimens(staffActor(req), {
        patientId: req.params.id,
        orderId: req.params.orderId,
        regimens: [req.body],
      });
      return regimen!;
    },
  });
  route(app, c.createRegimens, {
    access: write,
    handler: async (req) => ({
      data: await m.createRegimens(staffActor(req), {
        patientId: req.params.id,
        orderId: req.params.orderId,
        regimens: req.body.regimens,
      }),
    }),
  });
  route(app, c.regimens, {
    access: read,
    handler: async (req) => ({ data: await m.regimens(staffActor(req), { patientId: req.params.id }) }),
  });
  route(app, c.regimen, {
    access: read,
    handler: async (req) =>
      (await m.regimens(staffActor(req), { patientId: req.params.id, regimenId: req.params.regimenId }))[0]!,
  });
  route(app, c.completeRegimen, {
    access: write,
    handler: async (req) =>
      m.completeRegimen(staffActor(req), { patientId: req.params.id, regimenId: req.params.regimenId }),
  });
  route(app, c.updateRegimen, {
    access: access.object(regimenObject, {
      param: 'regimenId',
      roles: PLAN_ROLES,
      notFound: MEDICATION_MESSAGES.regimenNotFound,
    }),
    handler: async (req) =>
      m.updateRegimen(staffActor(req), { regimenId: req.params.regimenId, changes: req.body }),
  });
  route(app, c.inhalerRegimen, {
    access: write,
    handler: async (req) =>
      m.createInhalerRegimen(staffActor(req), { patientId: req.params.userId, regimen: req.body }),
  });
  route(app, c.scripts, {
    access: write,
    handler: async (req) =>
      m.setScripts(staffActor(req), { patientId: req.params.id, scripts: req.body.scripts }),
  });
  route(app, c.createPods, {
    access: write,
    handler: async (req) => ({
      data: await m.createPods(staffActor(req), {
        patientId: req.params.id,
        regimenId: req.params.regimenId,
        pods: req.body,
      }),
    }),
  });
  route(app, c.podCodes, {
    access: read,
    handler: async (req) =>
      m.podCodes(staffActor(req), {
        patientId: req.params.userId,
        regimenId: req.params.regimenId,
        pods: req.body,
      }),
  });
  route(app, c.linkPods, {
    access: write,
    handler: async (req) => {
      const { regimen, linked_regimen, ...pods } = req.body;
      const data = await m.createPods(staffActor(req), {
        patientId: req.params.userId,
        regimenId: regimen,
        linkedRegimenId: linked_regimen,
        pods,
      });
      return { message: MEDICATION_MESSAGES.podsLinked, data };
    },
  });
  route(app, c.podLabel, {
    access: read,
    handler: async (req, reply) => {
      const { stream, fileName } = await m.labels(staffActor(req), {
        patientId: req.params.userId,
        barcodes: [req.params.barcode],
        podId: req.params.podId,
        regimenId: req.params.regimenId,
      });
      reply
        .type(c.podLabel.file.contentType)
        .header('content-disposition', `inline; filename="${fileName}"`)
        .send(stream);
    },
  });
  route(app, c.labels, {
    access: read,
    handler: async (req, reply) => {
      const { stream, fileName } = await m.labels(staffActor(req), {
        patientId: req.params.userId,
        barcodes: req.query.barcodes.split(','),
      });
      reply
        .type(c.labels.file.contentType)
        .header('content-disposition', `inline; filename="${fileName}"`)
        .send(stream);
    },
  });
  route(app, c.recordUsage, {
    access: write,
    handler: async (req) =>
      m.recordUsage(staffActor(req), {
        patientId: req.params.id,
        regimenId: req.body.regimen_id,
        podId: req.body.pod_id,
        takenAt: req.body.taken_at,
        servings: req.body.servings,
        note: req.body.note,
      }),
  });
  route(app, c.deleteUsage, {
    access: write,
    handler: async (req) =>
      m.deleteUsage(staffActor(req), { patientId: req.params.id, usageId: req.params.usageId }),
  });
  route(app, c.addDiseaseState, {
    access: write,
    handler: async (req) =>
      m.addDiseaseState(staffActor(req), {
        patientId: req.params.id,
        conditions: req.body.conditions,
        regimenId: req.query.regimen_id,
        scriptId: req.query.script_id,
      }),
  });
  route(app, c.linkDiseaseStateRegimens, {
    access: write,
    handler: async (req) =>
      (await m.changeDiseaseState(staffActor(req), {
        patientId: req.params.id,
        id: req.body.disease_state_id,
        regimenIds: req.body.regimen_ids,
      }))!,
  });
  route(app, c.endDiseaseState, {
    access: write,
    handler: async (req) =>
      (await m.changeDiseaseState(staffActor(req), {
        patientId: req.params.id,
        id: req.body.disease_state_id,
        end: true,
      }))!,
  });
  route(app, c.deleteDiseaseState, {
    access: write,
    handler: async (req) => {
      await m.changeDiseaseState(staffActor(req), {
        patientId: req.params.id,
        id: req.body.disease_state_id,
        delete: true,
      });
    },
  });
}
