import { defineModule } from '../../platform/module';
import { importExternalOrders } from './external-orders.import';
import { externalOrdersRoutes } from './external-orders.routes';
import { createExternalOrdersService } from './external-orders.service';

/** External pharmacy orders: CSV import, patient matching, fill-file and schedule review, finalize (ADR 045). */
export const externalOrdersModule = defineModule({
  name: 'external-orders',
  async register(app, { db, storage }) {
    const orders = createExternalOrdersService({ db, storage });
    // Its own scope: the multipart parser is registered for these routes only.
    await app.register(async (scope) => {
      await externalOrdersRoutes(scope, { orders });
    });
  },
  factories: { externalOrders: importExternalOrders },
});
