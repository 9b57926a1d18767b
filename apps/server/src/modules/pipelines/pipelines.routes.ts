import type { Readable } from 'node:stream';
import { pipelinesContract as c, PIPELINE_MESSAGES as M, RULE_EDITOR_ROLES } from '@caredeck/contracts';
import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { receiveCsvForm } from '../../platform/files/upload';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import { pipelineObject, stageObject } from './pipelines.queries';
import { PIPELINE_EDITOR_ROLES, type PipelinesService } from './pipelines.service';

const CSV_MAX_BYTES = 2 * 1024 * 1024;

const sendFile = (reply: FastifyReply, file: { fileName: string; stream: Readable }) =>
  reply
    .type(c.download.file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(file.stream);

export async function pipelinesRoutes(app: App, deps: { pipelines: PipelinesService }) {
  const { pipelines } = deps;
  await app.register(multipart, { throwFileSizeLimit: true });
  const read = access.program();
  const edit = access.program(PIPELINE_EDITOR_ROLES);

  // The program's pipelines ({P}) and the enterprise variants.
  route(app, c.list, { access: read, handler: async (req) => pipelines.list(staffActor(req), req.query) });
  route(app, c.get, {
    access: read,
    handler: async (req) => pipelines.get(staffActor(req), req.params.pipeline_id),
  });
  route(app, c.create, { access: edit, handler: async (req) => pipelines.create(staffActor(req), req.body) });
  route(app, c.remove, {
    access: edit,
    handler: async (req) => pipelines.remove(staffActor(req), req.params.pipeline_id),
  });
  route(app, c.download, {
    access: read,
    handler: async (req, reply) =>
      sendFile(reply, await pipelines.download(staffActor(req), req.params.pipeline_id, req.query.month)),
  });
  const enterprise = access.enterprise();
  route(app, c.enterpriseList, {
    access: enterprise,
    handler: async (req) => pipelines.list(staffActor(req), req.query, true),
  });
  route(app, c.enterpriseGet, {
    access: enterprise,
    handler: async (req) => pipelines.get(staffActor(req), req.params.pipeline_id, true),
  });
  route(app, c.enterpriseCreate, {
    access: enterprise,
    handler: async (req) => pipelines.create(staffActor(req), req.body, true),
  });
  route(app, c.enterpriseRemove, {
    access: enterprise,
    handler: async (req) => pipelines.remove(staffActor(req), req.params.pipeline_id, true),
  });
  route(app, c.enterpriseDownload, {
    access: enterprise,
    handler: async (req, reply) =>
      sendFile(
        reply,
        await pipelines.download(staffActor(req), req.params.pipeline_id, req.query.month, true),
      ),
  });

  // Paths naming the pipeline: its program is resolved from it (another program's: 404).
  const onPipeline = access.object(pipelineObject, { param: 'pipeline_id', notFound: M.notFound });
  const editPipeline = access.object(pipelineObject, {
    param: 'pipeline_id',
    roles: PIPELINE_EDITOR_ROLES,
    notFound: M.notFound,
  });
  route(app, c.stagesDownload, {
    access: onPipeline,
    handler: async (req, reply) =>
      sendFile(reply, await pipelines.stagesDownload(staffActor(req), req.params.pipeline_id)),
  });
  route(app, c.stages, {
    access: onPipeline,
    handler: async (req) => pipelines.stages(staffActor(req), req.params.pipeline_id),
  });
  route(app, c.createStage, {
    access: editPipeline,
    handler: async (req) => pipelines.createStage(staffActor(req), req.params.pipeline_id, req.body),
  });
  route(app, c.updateStage, {
    access: editPipeline,
    handler: async (req) =>
      pipelines.updateStage(staffActor(req), req.params.pipeline_id, req.params.stage_id, req.body),
  });
  route(app, c.deleteStage, {
    access: editPipeline,
    handler: async (req) =>
      pipelines.deleteStage(staffActor(req), req.params.pipeline_id, req.params.stage_id),
  });
  route(app, c.addUsers, {
    access: editPipeline,
    handler: async (req) => pipelines.addUsers(staffActor(req), req.params.pipeline_id, req.body),
  });
  route(app, c.bulkUpload, {
    access: editPipeline,
    handler: async (req) => {
      const { file } = await receiveCsvForm(req, {
        maxBytes: CSV_MAX_BYTES,
        messages: { required: M.csvRequired, tooLarge: M.csvTooLarge, tooManyFiles: M.csvOneFile },
      });
      return pipelines.bulkUpload(staffActor(req), req.params.pipeline_id, file.text);
    },
  });
  route(app, c.move, {
    access: editPipeline,
    handler: async (req) =>
      pipelines.move(staffActor(req), req.params.pipeline_id, req.params.u, req.body.to_id),
  });
  route(app, c.history, {
    access: onPipeline,
    handler: async (req) => pipelines.history(staffActor(req), req.params.pipeline_id, req.params.u),
  });
  route(app, c.logs, {
    access: onPipeline,
    handler: async (req) => pipelines.logs(staffActor(req), req.params.pipeline_id, req.params.u),
  });
  route(app, c.stageUsers, {
    access: read,
    handler: async (req) =>
      pipelines.stageUsers(staffActor(req), req.params.pipeline_id, req.params.stage_id, req.query),
  });
  route(app, c.complete, {
    access: edit,
    handler: async (req) =>
      pipelines.complete(
        staffActor(req),
        req.params.pipeline_id,
        req.params.userId,
        req.body.new_pipeline_id,
      ),
  });

  // Calls naming no program: the service checks the query's or body's program or patient.
  route(app, c.templates, {
    access: access.staff(),
    handler: async (req) => pipelines.templates(staffActor(req), req.query.program_id),
  });
  route(app, c.createTemplate, {
    access: access.staff({ programRoles: PIPELINE_EDITOR_ROLES }),
    handler: async (req) => pipelines.createTemplate(staffActor(req), req.body),
  });
  route(app, c.allUserPipelines, {
    access: access.staff(),
    handler: async (req) => pipelines.allUserPipelines(staffActor(req), req.query),
  });
  route(app, c.userPipelines, {
    access: access.staff(),
    handler: async (req) => pipelines.userPipelines(staffActor(req), req.query.user_id),
  });
  // The same roles as `pipelines/{id}/users`, in the program of the pipeline the body names.
  route(app, c.addUserToPipeline, {
    access: access.objects(pipelineObject, {
      field: 'pipeline_id',
      roles: PIPELINE_EDITOR_ROLES,
      notFound: M.notFound,
    }),
    handler: async (req) => pipelines.addUserToPipeline(staffActor(req), req.body),
  });
  route(app, c.setUserPipelines, {
    access: access.object(patientObject, { roles: PIPELINE_EDITOR_ROLES }),
    handler: async (req) => pipelines.setUserPipelines(staffActor(req), req.params.id, req.body.pipelines),
  });
  route(app, c.stageRules, {
    access: access.staff(),
    handler: async (req) => pipelines.stageRules(staffActor(req), req.query.program_id),
  });
  const editStageRule = access.object(stageObject, {
    param: 'stage',
    roles: RULE_EDITOR_ROLES,
    notFound: M.stageNotFound,
  });
  route(app, c.assignPreStageRule, {
    access: editStageRule,
    handler: async (req) => pipelines.assignPreStageRule(staffActor(req), req.params.stage, req.params.rule),
  });
  route(app, c.removePreStageRule, {
    access: editStageRule,
    handler: async (req) => pipelines.assignPreStageRule(staffActor(req), req.params.stage, null),
  });
}
