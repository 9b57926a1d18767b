import { caregiversModule } from './caregivers';
import { groupsModule } from './groups';
import { identityModule } from './identity';
import { medicationsModule } from './medications';
import { patientsModule } from './patients';
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
] as const;
