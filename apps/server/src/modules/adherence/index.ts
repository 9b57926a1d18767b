import { defineModule } from '../../platform/module';
import { adherenceRoutes } from './adherence.routes';
import { createAdherenceService } from './adherence.service';

/**
 * Data views: dose-by-dose adherence and compliance (the engine of packages/domain over the patient's
 * regimens and dose events) and measurements.
 */
export const adherenceModule = defineModule({
  name: 'adherence',
  async register(app, { db }) {
    await app.register(adherenceRoutes, { adherence: createAdherenceService({ db }) });
  },
});
