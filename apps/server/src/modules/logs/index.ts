import { populationCacheOf } from '../../platform/cache/population-cache';
import { defineModule } from '../../platform/module';
import { logsRoutes } from './logs.routes';
import { createLogsService } from './logs.service';

/** Staff activity logs of a program: actions, day by day, patients worked on, sign-ins (02 §7 "Logs"; ADR 039). */
export const logsModule = defineModule({
  name: 'logs',
  async register(app, { db, config, log }) {
    await app.register(logsRoutes, {
      logs: createLogsService({ db, cache: populationCacheOf(config, log) }),
    });
  },
});
