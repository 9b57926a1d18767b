import { contentContract as c, CONTENT_MESSAGES as M } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { categoryObject, folderObject, templateObject } from './content.queries';
import { CONTENT_EDITOR_ROLES, type ContentService } from './content.service';

export async function contentRoutes(app: App, deps: { content: ContentService }) {
  const { content } = deps;
  // Calls naming no program: the service checks the query's or body's program (404 outside it).
  route(app, c.categories, {
    access: access.staff(),
    handler: async (req) => content.categories(staffActor(req), req.query.program_id),
  });
  route(app, c.createCategory, {
    access: access.staff({ programRoles: CONTENT_EDITOR_ROLES }),
    handler: async (req) => content.createCategory(staffActor(req), req.body),
  });
  const editCategory = access.object(categoryObject, {
    roles: CONTENT_EDITOR_ROLES,
    notFound: M.categoryNotFound,
  });
  route(app, c.updateCategory, {
    access: editCategory,
    handler: async (req) => content.updateCategory(staffActor(req), req.params.id, req.body),
  });
  route(app, c.deleteCategory, {
    access: editCategory,
    handler: async (req) => content.deleteCategory(staffActor(req), req.params.id),
  });
  route(app, c.createContent, {
    access: editCategory,
    handler: async (req) => content.createContent(staffActor(req), req.params.id, req.body),
  });
  route(app, c.folders, {
    access: access.staff(),
    handler: async (req) => content.folders(staffActor(req), req.query.program_id),
  });
  route(app, c.createFolder, {
    access: access.staff(),
    handler: async (req) => content.createFolder(staffActor(req), req.body),
  });
  // Folders and templates are their owner's: the service answers 404 to anyone else in the program.
  const ownFolder = access.object(folderObject, { notFound: M.folderNotFound });
  route(app, c.updateFolder, {
    access: ownFolder,
    handler: async (req) => content.updateFolder(staffActor(req), req.params.id, req.body),
  });
  route(app, c.deleteFolder, {
    access: ownFolder,
    handler: async (req) => content.deleteFolder(staffActor(req), req.params.id),
  });
  route(app, c.createTemplate, {
    access: ownFolder,
    handler: async (req) => content.createTemplate(staffActor(req), req.params.id, req.body),
  });
  const ownTemplate = access.object(templateObject, { notFound: M.templateNotFound });
  route(app, c.updateTemplate, {
    access: ownTemplate,
    handler: async (req) => content.updateTemplate(staffActor(req), req.params.id, req.body),
  });
  route(app, c.deleteTemplate, {
    access: ownTemplate,
    handler: async (req) => content.deleteTemplate(staffActor(req), req.params.id),
  });
  route(app, c.smsQuestions, {
    access: access.staff(),
    handler: async (req) => content.smsQuestions(staffActor(req), req.query.program_id),
  });
}
