import { defineModule } from '../../platform/module';
import { pipelinesRoutes } from './pipelines.routes';
import { createPipelinesService } from './pipelines.service';

/** Pipelines of stages patients move through (02 §7 "Pipelines"; 01 §7 stage-users, complete; ADR 037). */
export const pipelinesModule = defineModule({
  name: 'pipelines',
  async register(app, { db, realtime }) {
    await app.register(pipelinesRoutes, { pipelines: createPipelinesService({ db, realtime }) });
  },
});
