import { populationCacheOf } from '../../platform/cache/population-cache';
import { defineModule } from '../../platform/module';
import { billingRoutes } from './billing.routes';
import { createBillingService } from './billing.service';
import { createBillingAtRiskService } from './billing-at-risk';
import { createBillingPeriodsExportService } from './billing-period-export';
import { createBillingPeriodsService } from './billing-periods';

/** Billing and time tracking (02 §7 "Billing"; ADR 041). */
export const billingModule = defineModule({
  name: 'billing',
  async register(app, { db, config, log }) {
    await app.register(billingRoutes, {
      billing: createBillingService({ db, cache: populationCacheOf(config, log) }),
      periods: createBillingPeriodsService({ db }),
      atRisk: createBillingAtRiskService({ db }),
      periodsExport: createBillingPeriodsExportService({ db }),
    });
  },
});
