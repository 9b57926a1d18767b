import { defineModule } from '../../platform/module';
import { statusChangeFactories } from './status-logs.factories';
import { statusLogsRoutes } from './status-logs.routes';
import { createStatusLogsService } from './status-logs.service';

/** The log of patients' status changes of a program or enterprise (02 §2 /status-logs; ADR 047). */
export const statusLogsModule = defineModule({
  name: 'status-logs',
  async register(app, { db }) {
    await app.register(statusLogsRoutes, { statusLogs: createStatusLogsService({ db }) });
  },
  factories: statusChangeFactories,
});
