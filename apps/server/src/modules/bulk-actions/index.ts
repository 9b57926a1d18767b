import { defineModule } from '../../platform/module';
import { bulkActionsRoutes } from './bulk-actions.routes';
import { createBulkActionsService } from './bulk-actions.service';

/** Bulk actions: one change for many patients, approved by an administrator (02 §7 "Bulk actions"; ADR 042). */
export const bulkActionsModule = defineModule({
  name: 'bulk-actions',
  async register(app, { db }) {
    await app.register(bulkActionsRoutes, { bulk: createBulkActionsService({ db }) });
  },
});
