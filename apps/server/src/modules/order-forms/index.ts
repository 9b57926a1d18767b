import { defineModule } from '../../platform/module';
import { createOrderForm } from './order-forms.factories';
import { loadOrderFormTemplates } from './order-forms.queries';
import { orderFormsRoutes } from './order-forms.routes';
import { createOrderFormsService } from './order-forms.service';

/** Order forms sent on a patient's behalf, from the shipped templates, as PDFs behind signed links (ADR 044). */
export const orderFormsModule = defineModule({
  name: 'order-forms',
  prepare: loadOrderFormTemplates,
  factories: { orderForm: createOrderForm },
  async register(app, { db, config, storage }) {
    await app.register(orderFormsRoutes, { orderForms: createOrderFormsService({ db, config, storage }) });
  },
});
