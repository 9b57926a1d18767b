import { defineModule } from '../../platform/module';
import { createDoses, createRegimen } from './medications.factories';
import { medicationsRoutes } from './medications.routes';
import { createMedicationsService } from './medications.service';

/** The patient's medication plan: orders, regimens, pods and their labels, scripts, doses, disease states. */
export const medicationsModule = defineModule({
  name: 'medications',
  async register(app, { db }) {
    await app.register(medicationsRoutes, { medications: createMedicationsService({ db }) });
  },
  factories: { regimen: createRegimen, doses: createDoses },
});
