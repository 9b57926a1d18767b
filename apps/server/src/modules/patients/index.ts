import { defineModule } from '../../platform/module';
import { createAppAccountService } from './app-account.service';
import { exportRoutes } from './export.routes';
import { createExportService } from './export.service';
import { createPatient, createPatients } from './patients.factories';
import { patientsRoutes } from './patients.routes';
import { createPatientsService } from './patients.service';
import { patientRecordRoutes } from './record.routes';
import { createPatientRecordService } from './record.service';

/** Patients of a program: lists, search and (later) the patient record. */
export const patientsModule = defineModule({
  name: 'patients',
  async register(app, { db }) {
    await app.register(patientsRoutes, { patients: createPatientsService({ db }) });
    await app.register(patientRecordRoutes, {
      records: createPatientRecordService({ db }),
      appAccounts: createAppAccountService({ db }),
    });
    await app.register(exportRoutes, { exports: createExportService({ db }) });
  },
  factories: { patient: createPatient, patients: createPatients },
});
