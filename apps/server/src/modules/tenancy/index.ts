import { defineModule } from '../../platform/module';
import { createEnterprise, createProgram } from './tenancy.factories';
import { tenancyRoutes } from './tenancy.routes';
import { createTenancyService } from './tenancy.service';

/** Enterprises, programs and the staff roles in them. */
export const tenancyModule = defineModule({
  name: 'tenancy',
  async register(app, { db }) {
    await app.register(tenancyRoutes, { tenancy: createTenancyService({ db }) });
  },
  factories: { enterprise: createEnterprise, program: createProgram },
});
