import { defineModule } from '../../platform/module';
import { caregiversRoutes } from './caregivers.routes';
import { createCaregiversService } from './caregivers.service';

/** Caregivers of patients: people the care team can reach on a patient's behalf. */
export const caregiversModule = defineModule({
  name: 'caregivers',
  async register(app, { db }) {
    await app.register(caregiversRoutes, { caregivers: createCaregiversService({ db }) });
  },
});
