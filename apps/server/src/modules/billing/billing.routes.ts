import {
  billingContract as c,
  billingPeriodsContract as pc,
  billingAtRiskContract as rc,
  billingPeriodsExportContract as xc,
} from '@caredeck/contracts';
import { scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import { timeEntryKind } from './billing.queries';
import { BILLING_ROLES, type BillingService } from './billing.service';
import type { BillingAtRiskService } from './billing-at-risk';
import type { BillingPeriodsExportService } from './billing-period-export';
import type { BillingPeriodsService } from './billing-periods';

export async function billingRoutes(
  app: App,
  deps: {
    billing: BillingService;
    periods: BillingPeriodsService;
    atRisk: BillingAtRiskService;
    periodsExport: BillingPeriodsExportService;
  },
) {
  const { billing: svc, periods, atRisk, periodsExport } = deps;
  const patient = access.object(patientObject, { roles: BILLING_ROLES, notFound: 'Patient not found' });

  // The report names its program in the query: the service checks the caller's roles there (404 outside).
  route(app, c.report, {
    access: access.staff({ programRoles: BILLING_ROLES }),
    handler: async (req) => svc.report(staffActor(req), req.params, req.query),
  });
  route(app, c.download, {
    access: access.staff({ programRoles: BILLING_ROLES }),
    handler: async (req, reply) => {
      const { fileName, stream } = await svc.download(staffActor(req), req.params, req.query);
      reply
        .type(c.download.file.contentType)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  });
  route(app, c.programBillings, {
    access: access.program(BILLING_ROLES),
    handler: async (req) => svc.currentMonth(staffActor(req), scopedProgram(req).id, req.query),
  });
  route(app, c.patient, {
    access: patient,
    handler: async (req) =>
      svc.patientMonth(staffActor(req), req.params.id, scopedProgram(req).id, req.query),
  });
  route(app, c.patientPeriod, {
    access: patient,
    handler: async (req) =>
      svc.patientPeriod(
        staffActor(req),
        req.params.id,
        scopedProgram(req).id,
        { start: req.params.start, end: req.params.end },
        req.query,
      ),
  });
  route(app, c.record, {
    access: access.staff({ programRoles: BILLING_ROLES }),
    handler: async (req) => svc.record(staffActor(req), req.body),
  });
  route(app, c.remove, {
    access: access.object(timeEntryKind, {
      param: 'entryId',
      roles: BILLING_ROLES,
      notFound: 'Time entry not found',
    }),
    handler: async (req) => {
      const program = scopedProgram(req);
      return svc.remove(staffActor(req), req.params.entryId, program.id, program.roles);
    },
  });
  route(app, c.setStatus, {
    access: access.program(BILLING_ROLES),
    handler: async (req) =>
      svc.setStatus(staffActor(req), scopedProgram(req).id, req.params.userId, req.body),
  });
  route(app, c.statuses, {
    access: access.program(),
    handler: async (req) => svc.statuses(scopedProgram(req).id),
  });
  route(app, c.codes, {
    access: access.program(),
    handler: async () => svc.codes(),
  });
  // Issue 30: the 2026 rules per patient, period and month (ADR 071/072).
  route(app, pc.periods, {
    access: access.program(BILLING_ROLES),
    handler: async (req) => periods.periods(staffActor(req), scopedProgram(req).id, req.query),
  });
  route(app, pc.setSupplyStart, {
    access: access.program(BILLING_ROLES),
    handler: async (req) =>
      periods.setSupplyStart(staffActor(req), scopedProgram(req).id, req.params.userId, req.body),
  });
  route(app, rc.atRisk, {
    access: access.program(BILLING_ROLES),
    handler: async (req) => atRisk.atRisk(staffActor(req), scopedProgram(req).id, req.query),
  });
  for (const format of ['csv', 'xlsx'] as const) {
    const contract = xc[format];
    route(app, contract, {
      access: access.program(BILLING_ROLES),
      handler: async (req, reply) => {
        const file = await periodsExport.export(staffActor(req), scopedProgram(req).id, format, req.query);
        reply
          .type(contract.file.contentType)
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .send(file.stream);
      },
    });
  }
}
