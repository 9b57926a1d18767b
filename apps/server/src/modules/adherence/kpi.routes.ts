import { kpiContract as c, summariesContract } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { KpiService } from './kpi.service';

export async function kpiRoutes(app: App, deps: { kpi: KpiService }) {
  const { kpi } = deps;
  route(app, summariesContract.summaries, {
    access: access.program(),
    handler: async (req) => kpi.summaries(staffActor(req), req.query),
  });
  route(app, c.program, {
    access: access.program(),
    handler: async (req) => kpi.program(staffActor(req), req.params),
  });
  route(app, c.enterprise, {
    access: access.enterprise(),
    handler: async (req) => kpi.enterprise(staffActor(req), req.params),
  });
  route(app, c.export, {
    access: access.program(),
    handler: async (req, reply) => {
      const { fileName, stream } = await kpi.export(staffActor(req), req.params);
      reply
        .type(c.export.file.contentType)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  });
}
