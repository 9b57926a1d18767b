import {
  tagsContract as c,
  TAG_MESSAGES as M,
  PROTOCOL_MESSAGES as PM,
  protocolsContract as p,
} from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import { protocolObject, tagFolderObject, tagObject } from './tags.queries';
import { PROTOCOL_EDITOR_ROLES, TAG_EDITOR_ROLES, type TagsService } from './tags.service';

export async function tagsRoutes(app: App, deps: { tags: TagsService }) {
  const { tags } = deps;
  // Calls naming no program: the service checks the query's or body's program (404 outside it).
  route(app, c.list, {
    access: access.staff(),
    handler: async (req) => tags.list(staffActor(req), req.query),
  });
  route(app, c.create, {
    access: access.staff({ programRoles: TAG_EDITOR_ROLES }),
    handler: async (req) => tags.create(staffActor(req), req.body),
  });
  route(app, c.folders, {
    access: access.staff(),
    handler: async (req) => tags.folders(staffActor(req), req.query.program_id),
  });
  route(app, c.createFolder, {
    access: access.staff({ programRoles: TAG_EDITOR_ROLES }),
    handler: async (req) => tags.createFolder(staffActor(req), req.body),
  });
  route(app, c.update, {
    access: access.object(tagObject, { roles: TAG_EDITOR_ROLES, notFound: M.notFound }),
    handler: async (req) => tags.update(staffActor(req), req.params.id, req.body),
  });
  const editFolder = access.object(tagFolderObject, { roles: TAG_EDITOR_ROLES, notFound: M.folderNotFound });
  route(app, c.updateFolder, {
    access: editFolder,
    handler: async (req) => tags.updateFolder(staffActor(req), req.params.id, req.body.name),
  });
  route(app, c.deleteFolder, {
    access: editFolder,
    handler: async (req) => tags.deleteFolder(staffActor(req), req.params.id),
  });
  route(app, c.patientTags, {
    access: access.object(patientObject),
    handler: async (req) => tags.patientTags(staffActor(req), req.params.id),
  });
  route(app, c.setPatientTags, {
    access: access.object(patientObject, { roles: TAG_EDITOR_ROLES }),
    handler: async (req) => tags.setPatientTags(staffActor(req), req.params.id, req.body.tag_ids),
  });
  route(app, p.list, {
    access: access.staff(),
    handler: async (req) => tags.protocols(staffActor(req), req.query.program_id),
  });
  route(app, p.create, {
    access: access.staff({ programRoles: PROTOCOL_EDITOR_ROLES }),
    handler: async (req) => tags.createProtocol(staffActor(req), req.body),
  });
  route(app, p.update, {
    access: access.object(protocolObject, { roles: PROTOCOL_EDITOR_ROLES, notFound: PM.notFound }),
    handler: async (req) => tags.updateProtocol(staffActor(req), req.params.id, req.body),
  });
}
