import type { ActiveUser, PatientListItem } from '@caredeck/contracts';

export function makeUser(overrides: Partial<ActiveUser> = {}): ActiveUser {
  return {
    id: 7,
    email: 'admin@caredeck.demo',
    given_name: 'Ada',
    family_name: 'Admin',
    title: null,
    about: null,
    phoneNumber: null,
    picture: null,
    status: 'online',
    roles: [{ name: 'admin', program_id: 1, enterprise_id: 1 }],
    permissions: [],
    modules: [],
    programs: [
      { id: 1, slug: 'caredeck', name: 'CareDeck Main', type: 'monitoring', enterprise_id: 1 },
      { id: 2, slug: 'cardio', name: 'Cardio Care', type: 'monitoring', enterprise_id: 1 },
    ],
    enterprises: [{ id: 1, name: 'Northwind Health', slug: 'northwind' }],
    settings: { language: 'en', theme: 'light' },
    hipaa_consented_at: '2026-01-01T10:00:00Z',
    tz: 'America/New_York',
    is_internal: false,
    mfa_enabled: false,
    ...overrides,
  };
}

export function makePatient(id: number, overrides: Partial<PatientListItem> = {}): PatientListItem {
  return {
    id,
    program_id: 1,
    mrn: `MRN-${id}`,
    age: 76,
    first_name: `First${id}`,
    last_name: `Last${id}`,
    name: `First${id} Last${id}`,
    email: null,
    phone_number: null,
    dob: '1950-03-09',
    sex: 'female',
    status: 'active',
    active: true,
    assigned_admin: { id: 7, name: 'Ada Admin' },
    follow_up: null,
    created_at: '2026-02-01T15:00:00Z',
    ...overrides,
  };
}

/** A paged envelope (01 §3) around any rows; patients by default. */
export function pageOf<T = PatientListItem>(patients: T[], page = 1, perPage = 10, total = patients.length) {
  return {
    data: patients,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
  };
}

export const CONFIG = {
  idle_timeout_seconds: 900,
  default_program_slug: 'caredeck',
  password_max_age_days: 90,
};
