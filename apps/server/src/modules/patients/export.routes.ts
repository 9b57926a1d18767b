import { exportsContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { ExportService } from './export.service';

export async function exportRoutes(app: App, deps: { exports: ExportService }) {
  route(app, c.patients, {
    access: access.program(),
    handler: async (req, reply) => {
      const { fileName, stream } = await deps.exports.patients(staffActor(req), req.params);
      reply
        .type(c.patients.file.contentType)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  });

  route(app, c.pods, {
    access: access.program(),
    handler: async (req, reply) => {
      const { fileName, stream } = await deps.exports.pods(staffActor(req), req.params);
      reply
        .type(c.pods.file.contentType)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  });
}
