import { memoryContract as c } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { MemoryService } from './memory.service';

export async function memoryRoutes(app: App, deps: { memory: MemoryService }) {
  const { memory } = deps;
  route(app, c.get, {
    access: access.staff(),
    handler: async (req) => memory.get(staffActor(req), req.query),
  });
  route(app, c.save, {
    access: access.staff(),
    handler: async (req) => memory.save(staffActor(req), req.body, false),
  });
  route(app, c.remove, {
    access: access.staff(),
    handler: async (req) => memory.remove(staffActor(req), req.body),
  });
  route(app, c.updateDefault, {
    access: access.staff(),
    handler: async (req) => memory.save(staffActor(req), req.body, true),
  });
}
