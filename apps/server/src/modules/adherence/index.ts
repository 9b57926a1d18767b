import { populationCacheOf } from '../../platform/cache/population-cache';
import { repeatJob } from '../../platform/jobs/repeat';
import { defineModule } from '../../platform/module';
import { adherenceRoutes } from './adherence.routes';
import { createAdherenceService } from './adherence.service';
import { kpiRoutes } from './kpi.routes';
import { createKpiService } from './kpi.service';
import { createRollupJob } from './rollup.job';

/**
 * The background job rolls a patient up at most once a minute: a device sending all the time would otherwise be
 * classified again every pass. The KPI stays exact (it reads patients not rolled up yet live).
 */
export const ROLLUP_REST_MS = 60_000;

/**
 * Data views: dose-by-dose adherence and compliance (the engine of packages/domain over the patient's
 * regimens and dose events), measurements, usage views and the KPI of programs and enterprises, added up
 * from the daily rollup the rollup job keeps (ADR 046).
 */
export const adherenceModule = defineModule({
  name: 'adherence',
  async register(app, { db, config, log, onClose }) {
    await app.register(adherenceRoutes, { adherence: createAdherenceService({ db }) });
    await app.register(kpiRoutes, {
      kpi: createKpiService({ db, cache: populationCacheOf(config, log) }),
    });
    const rollup = createRollupJob({ db });
    app.decorate('adherenceRollup', { run: (options) => rollup.run(options) });
    repeatJob('adherence-rollup', config.ADHERENCE_ROLLUP_MS, () => rollup.run({ restMs: ROLLUP_REST_MS }), {
      log,
      onClose,
      config,
    });
  },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Rolls up stale adherence now (tests and the bench; the timer does it every ADHERENCE_ROLLUP_MS). */
    adherenceRollup: { run(options?: { budgetMs?: number; restMs?: number }): Promise<number> };
  }
}
