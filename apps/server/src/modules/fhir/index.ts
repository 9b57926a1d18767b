import { repeatJob } from '../../platform/jobs/repeat';
import { defineModule } from '../../platform/module';
import { fhirClientRoutes } from './clients.routes';
import { createFhirClientsService } from './clients.service';
import { exportRoutes } from './export.routes';
import { createExportService } from './export.service';
import { fhirRoutes } from './fhir.routes';
import { createFhirService } from './fhir.service';
import { deviceDefinition } from './resources/device';
import { medicationAdministrationDefinition, medicationRequestDefinition } from './resources/medication';
import { observationDefinition } from './resources/observation';
import { organizationDefinition } from './resources/organization';
import { patientDefinition } from './resources/patient';
import { practitionerDefinition } from './resources/practitioner';
import { smartRoutes } from './smart.routes';
import { createSmartService } from './smart.service';

/** The resource types served under /fhir/R4, in the CapabilityStatement's order. */
export const FHIR_RESOURCES = [
  patientDefinition,
  observationDefinition,
  deviceDefinition,
  organizationDefinition,
  practitionerDefinition,
  medicationRequestDefinition,
  medicationAdministrationDefinition,
] as const;

/** FHIR R4 out (issue 31; docs/fhir.md, ADR 073): CareDeck's own tables read as US Core resources. */
export const fhirModule = defineModule({
  name: 'fhir',
  async register(app, { db, config, tokens, storage, log, onClose }) {
    fhirRoutes(app, {
      fhir: createFhirService({ db, resources: FHIR_RESOURCES }),
      config,
      resources: FHIR_RESOURCES,
    });
    const exports = createExportService({ db, storage, resources: FHIR_RESOURCES, log });
    exportRoutes(app, { exports, config });
    app.decorate('fhirExportRunner', { runDue: () => exports.runDue() });
    repeatJob('fhir-export', config.FHIR_EXPORT_MS, () => exports.runDue(), { log, onClose, config });
    fhirClientRoutes(app, { clients: createFhirClientsService({ db }) });
    await smartRoutes(app, { smart: createSmartService({ db, tokens }), config, db });
  },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs queued Bulk Data exports and deletes expired ones now (bench; the timer does it every FHIR_EXPORT_MS). */
    fhirExportRunner: { runDue(): Promise<number> };
  }
}
