import { defineModule } from '../../platform/module';
import { reconciliationRoutes } from './reconciliation.routes';
import { createReconciliationService } from './reconciliation.service';

/** Medication reconciliation: the list of what the patient actually takes (02 §7). */
export const reconciliationModule = defineModule({
  name: 'reconciliation',
  async register(app, { db }) {
    await app.register(reconciliationRoutes, { reconciliation: createReconciliationService({ db }) });
  },
});
