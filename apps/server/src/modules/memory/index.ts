import { defineModule } from '../../platform/module';
import { memoryRoutes } from './memory.routes';
import { createMemoryService } from './memory.service';

/** User memory: settings each staff member keeps per module and program (saved views, module defaults). */
export const memoryModule = defineModule({
  name: 'memory',
  async register(app, { db }) {
    await app.register(memoryRoutes, { memory: createMemoryService({ db }) });
  },
});
