import { defineModule } from '../../platform/module';
import { administrationRoutes } from './administration.routes';
import { createAdministrationService } from './administration.service';

/** Staff directory and accounts, programs and enterprises management (02 §7 "Admins, programs, enterprises"). */
export const administrationModule = defineModule({
  name: 'administration',
  async register(app, { db, realtime }) {
    await app.register(administrationRoutes, {
      administration: createAdministrationService({ db, realtime }),
    });
  },
});
