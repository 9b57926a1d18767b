import { repeatJob } from '../../platform/jobs/repeat';
import { defineModule } from '../../platform/module';
import { reportsRoutes } from './reports.routes';
import { createReportsService } from './reports.service';

/** Reports: definitions, recurring runs, SFTP delivery, patient PDFs and CSVs (02 §7 "Reports"; ADR 043). */
export const reportsModule = defineModule({
  name: 'reports',
  async register(app, { db, storage, config, log, onClose }) {
    const reports = createReportsService({ db, storage, encryptionKey: config.ENCRYPTION_KEY });
    app.decorate('reportRunner', { runDue: () => reports.runDue() });
    await app.register(async (scope) => {
      await reportsRoutes(scope, { reports, storage });
    });
    repeatJob('reports', config.REPORTS_MS, () => reports.runDue(), { log, onClose, config });
  },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Generates queued report runs and delivers finished ones now (tests; the timer does it every REPORTS_MS). */
    reportRunner: { runDue(): Promise<number> };
  }
}
