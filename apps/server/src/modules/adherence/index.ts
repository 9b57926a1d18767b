import { defineModule } from '../../platform/module';
import { adherenceRoutes } from './adherence.routes';
import { createAdherenceService } from './adherence.service';
import { kpiRoutes } from './kpi.routes';
import { createKpiService } from './kpi.service';

/**
 * Data views: dose-by-dose adherence and compliance (the engine of packages/domain over the patient's
 * regimens and dose events), measurements, usage views and the KPI of programs and enterprises.
 */
export const adherenceModule = defineModule({
  name: 'adherence',
  async register(app, { db }) {
    await app.register(adherenceRoutes, { adherence: createAdherenceService({ db }) });
    await app.register(kpiRoutes, { kpi: createKpiService({ db }) });
  },
});
