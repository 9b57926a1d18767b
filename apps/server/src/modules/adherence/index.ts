import { repeatJob } from '../../platform/jobs/repeat';
import { defineModule } from '../../platform/module';
import { adherenceRoutes } from './adherence.routes';
import { createAdherenceService } from './adherence.service';
import { kpiRoutes } from './kpi.routes';
import { createKpiService } from './kpi.service';
import { createRollupJob } from './rollup.job';

/**
 * Data views: dose-by-dose adherence and compliance (the engine of packages/domain over the patient's
 * regimens and dose events), measurements, usage views and the KPI of programs and enterprises, added up
 * from the daily rollup the rollup job keeps (ADR 046).
 */
export const adherenceModule = defineModule({
  name: 'adherence',
  async register(app, { db, config, log, onClose }) {
    await app.register(adherenceRoutes, { adherence: createAdherenceService({ db }) });
    await app.register(kpiRoutes, { kpi: createKpiService({ db }) });
    const rollup = createRollupJob({ db });
    app.decorate('adherenceRollup', { run: (options) => rollup.run(options) });
    repeatJob('adherence-rollup', config.ADHERENCE_ROLLUP_MS, () => rollup.run(), { log, onClose });
  },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Rolls up stale adherence now (tests and the bench; the timer does it every ADHERENCE_ROLLUP_MS). */
    adherenceRollup: { run(options?: { budgetMs?: number }): Promise<number> };
  }
}
