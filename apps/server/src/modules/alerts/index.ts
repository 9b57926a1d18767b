import { runs } from '../../config';
import { populationCacheOf } from '../../platform/cache/population-cache';
import { defineModule } from '../../platform/module';
import { createAlertEngine } from './alerts.engine';
import { alertsRoutes } from './alerts.routes';
import { createAlertsService } from './alerts.service';
import { createAnalyticsService } from './analytics.service';
import { rulesRoutes } from './rules.routes';
import { createRulesService } from './rules.service';

/**
 * Alerts (02 §7 "Alerts and analytics"; docs/alerts.md): the engine that evaluates every patient's
 * readings, devices and doses against the program's thresholds, and the board staff triage it from.
 * Registered after the devices module: it listens to the gateway's committed batches.
 */
export const alertsModule = defineModule({
  name: 'alerts',
  async register(app, { db, config, log, realtime, onClose }) {
    const engine = createAlertEngine({
      db,
      realtime,
      log,
      sweepMs: config.ALERT_SWEEP_MS,
      evaluateWaitMs: config.ALERT_EVALUATE_WAIT_MS,
    });
    app.decorate('alertEngine', engine);
    app.deviceGateway.onBatch((result) => {
      const measured = result.patients
        .filter((p) => p.kinds.includes('measurements'))
        .map((p) => p.patient_id);
      if (measured.length > 0) engine.markDirty(measured);
    });
    await app.register(alertsRoutes, {
      alerts: createAlertsService({ db, realtime }),
      analytics: createAnalyticsService({ db, engine, cache: populationCacheOf(config, log) }),
    });
    await app.register(rulesRoutes, { rules: createRulesService({ db }) });
    // The sweep is a worker's job; the vitals of ingested readings are evaluated where they are ingested.
    if (runs(config, 'worker')) app.addHook('onReady', async () => engine.start());
    onClose(() => engine.close());
  },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The alert engine of this process (tests and the bench evaluate and sweep through it). */
    alertEngine: import('./alerts.engine').AlertEngine;
  }
}
