import type { StaffRole } from './tenancy';

// Plain values, no schemas: the console's first screens use them before zod and the contracts' schemas have
// loaded (ADR 048). A module here must not import zod or any module that builds schemas (types only).

export const THEMES = ['light', 'dark', 'semi-dark'] as const;
export const LANGUAGES = ['en', 'de', 'fr', 'pt'] as const;

/** The product's default program slug, preferred when a user has several programs (spec 01 §4). */
export const DEFAULT_PROGRAM_SLUG = 'caredeck';
/** Program id used when no program is chosen; on enterprise scope it means "no program filter". */
export const DEFAULT_PROGRAM_ID = 1;

/** Roles that look after patients: they enrol, edit and change the status of patients (ADR 019). */
export const CARE_ROLES = [
  'admin',
  'physician',
  'care_coordinator',
  'enterprise_admin',
] as const satisfies readonly StaffRole[];

/** Who works on external orders: the program's pharmacy staff and its administrators. */
export const EXTERNAL_ORDER_ROLES = [
  'pharmacy',
  'admin',
  'enterprise_admin',
] as const satisfies readonly StaffRole[];

export const PASSWORD_MIN_LENGTH = 10;
/** The message of the 403 that a sign-in with an expired password gets (the console then offers a new one). */
export const PASSWORD_EXPIRED = 'password_expired';

/**
 * The session refresh's method and path (`authContract.refresh` is built from them): the console sends it at
 * start-up, before the schemas that read its answer have loaded.
 */
export const AUTH_REFRESH_ROUTE = { method: 'POST', path: '/api/auth/refresh' } as const;

/** The console's default when /api/config cannot be read: 15 minutes. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 900;
