import { en, Faker } from '@faker-js/faker';
import { sql } from 'drizzle-orm';
import { createAdmin, createControllerAccount } from '../modules/identity/identity.factories';
import { createPatients } from '../modules/patients/patients.factories';
import { createEnterprise, createProgram } from '../modules/tenancy/tenancy.factories';
import { hashPassword } from '../platform/auth/passwords';
import type { Database } from '../platform/db/client';
import { fakePatients } from './fake-patients';

export const DEMO_SEED = 20_261_121;
export const DEMO_LOGINS = [
  { email: 'admin@caredeck.demo', role: 'admin of both programs of Northwind Health' },
  { email: 'physician@caredeck.demo', role: 'physician in CareDeck Monitoring' },
  { email: 'coordinator@caredeck.demo', role: 'care coordinator in CareDeck Monitoring' },
  { email: 'enterprise@caredeck.demo', role: 'enterprise admin of Northwind Health' },
  { email: 'pharma@caredeck.demo', role: 'pharma user in Northwind Cardiology' },
  { email: 'pharmacy@caredeck.demo', role: 'pharmacy user in Northwind Cardiology' },
  { email: 'outsider@caredeck.demo', role: 'admin of Harbor Clinics only (second enterprise)' },
] as const;
export const DEMO_CONTROLLER = { email: 'controller@caredeck.demo', name: 'Demo Controller' };

export async function databaseIsEmpty(db: Database): Promise<boolean> {
  const res = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM programs`);
  return (res.rows[0]?.n ?? 0) === 0;
}

/**
 * Deterministic demo data (fixed faker seed): two enterprises, three programs, one staff login per
 * role, 240 patients in the default program. Demo users have not given HIPAA consent yet.
 */
export async function seedDemo(db: Database, password: string): Promise<void> {
  const faker = new Faker({ locale: [en], seed: DEMO_SEED });
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const northwind = await createEnterprise(tx, { name: 'Northwind Health', slug: 'northwind-health' });
    const harbor = await createEnterprise(tx, { name: 'Harbor Clinics', slug: 'harbor-clinics' });
    const monitoring = await createProgram(tx, {
      name: 'CareDeck Monitoring',
      slug: 'caredeck',
      enterpriseId: northwind.id,
      type: 'monitoring',
      modules: ['patients', 'messenger', 'alerts', 'pipelines', 'reports', 'billing'],
    });
    const cardiology = await createProgram(tx, {
      name: 'Northwind Cardiology',
      slug: 'northwind-cardiology',
      enterpriseId: northwind.id,
      type: 'pharma',
      modules: ['patients', 'reports'],
    });
    const harborCare = await createProgram(tx, {
      name: 'Harbor Adherence',
      slug: 'harbor-adherence',
      enterpriseId: harbor.id,
      type: 'pharmacy',
      modules: ['patients', 'messenger'],
    });

    const base = { password, passwordHash, confirmed: true, hipaaConsented: false };
    const admin = await createAdmin(tx, {
      ...base,
      email: 'admin@caredeck.demo',
      givenName: 'Avery',
      familyName: 'Morgan',
      title: 'Program Administrator',
      programRoles: [
        { programId: monitoring.id, role: 'admin' },
        { programId: cardiology.id, role: 'admin' },
      ],
    });
    const physician = await createAdmin(tx, {
      ...base,
      email: 'physician@caredeck.demo',
      givenName: 'Priya',
      familyName: 'Raman',
      title: 'MD',
      programRoles: [{ programId: monitoring.id, role: 'physician' }],
    });
    const coordinator = await createAdmin(tx, {
      ...base,
      email: 'coordinator@caredeck.demo',
      givenName: 'Carlos',
      familyName: 'Diaz',
      title: 'RN, Care Coordinator',
      programRoles: [{ programId: monitoring.id, role: 'care_coordinator' }],
    });
    await createAdmin(tx, {
      ...base,
      email: 'enterprise@caredeck.demo',
      givenName: 'Elena',
      familyName: 'Fischer',
      title: 'Enterprise Administrator',
      enterpriseAdminOf: [northwind.id],
    });
    const pharma = await createAdmin(tx, {
      ...base,
      email: 'pharma@caredeck.demo',
      givenName: 'Jonas',
      familyName: 'Becker',
      title: 'Medical Science Liaison',
      programRoles: [{ programId: cardiology.id, role: 'pharma' }],
    });
    await createAdmin(tx, {
      ...base,
      email: 'pharmacy@caredeck.demo',
      givenName: 'Mei',
      familyName: 'Chen',
      title: 'PharmD',
      programRoles: [{ programId: cardiology.id, role: 'pharmacy' }],
    });
    const outsider = await createAdmin(tx, {
      ...base,
      email: 'outsider@caredeck.demo',
      givenName: 'Oliver',
      familyName: 'Grant',
      title: 'Clinic Manager',
      programRoles: [{ programId: harborCare.id, role: 'admin' }],
    });
    await createControllerAccount(tx, { ...DEMO_CONTROLLER, password });

    await createPatients(
      tx,
      fakePatients(faker, monitoring.id, 240, [admin.id, physician.id, coordinator.id]),
    );
    await createPatients(tx, fakePatients(faker, cardiology.id, 45, [admin.id, pharma.id]));
    await createPatients(tx, fakePatients(faker, harborCare.id, 30, [outsider.id]));
  });
}
