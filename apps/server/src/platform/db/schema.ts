// Every table of every module, for drizzle's schema-aware queries and for drizzle-kit.
export * from '../../modules/identity/identity.tables';
export * from '../../modules/patients/patients.tables';
export * from '../../modules/tenancy/tenancy.tables';
export * from '../audit/audit.tables';
export * from '../outbox/outbox.tables';
