import type { Queryable } from '../platform/db/client';
import { adherenceModule } from './adherence';
import { administrationModule } from './administration';
import { alertsModule } from './alerts';
import { billingModule } from './billing';
import { bulkActionsModule } from './bulk-actions';
import { caregiversModule } from './caregivers';
import { catalogueModule } from './catalogue';
import { contentModule } from './content';
import { devicesModule } from './devices';
import { externalOrdersModule } from './external-orders';
import { fhirModule } from './fhir';
import { groupsModule } from './groups';
import { identityModule } from './identity';
import { logsModule } from './logs';
import { medicationsModule } from './medications';
import { memoryModule } from './memory';
import { messengerModule } from './messenger';
import { notesModule } from './notes';
import { notificationsModule } from './notifications';
import { orderFormsModule } from './order-forms';
import { patientsModule } from './patients';
import { pipelinesModule } from './pipelines';
import { reconciliationModule } from './reconciliation';
import { reportsModule } from './reports';
import { smsModule } from './sms';
import { staffModule } from './staff';
import { statusLogsModule } from './status-logs';
import { surveysModule } from './surveys';
import { tagsModule } from './tags';
import { tenancyModule } from './tenancy';

/**
 * Every server module, in registration order. A new domain adds its folder and one line here
 * (docs/architecture.md, "Adding a domain").
 */
export const MODULES = [
  identityModule,
  tenancyModule,
  patientsModule,
  groupsModule,
  caregiversModule,
  medicationsModule,
  catalogueModule,
  reconciliationModule,
  staffModule,
  administrationModule,
  devicesModule,
  adherenceModule,
  alertsModule,
  memoryModule,
  messengerModule,
  smsModule,
  notificationsModule,
  contentModule,
  notesModule,
  surveysModule,
  pipelinesModule,
  tagsModule,
  logsModule,
  billingModule,
  bulkActionsModule,
  statusLogsModule,
  reportsModule,
  orderFormsModule,
  externalOrdersModule,
  fhirModule,
] as const;

/** Every module's shipped data, after the migrations (start-up, the tests' template database, the bench). */
export async function prepareModules(db: Queryable): Promise<void> {
  for (const module of MODULES as readonly { prepare?: (db: Queryable) => Promise<void> }[])
    await module.prepare?.(db);
}
