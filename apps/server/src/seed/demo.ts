import { en, Faker } from '@faker-js/faker';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createAdmin, createControllerAccount } from '../modules/identity/identity.factories';
import { addMembers, insertConversation, insertMessage } from '../modules/messenger/messenger.queries';
import { createPatients } from '../modules/patients/patients.factories';
import { createEnterprise, createProgram } from '../modules/tenancy/tenancy.factories';
import { hashPassword } from '../platform/auth/passwords';
import type { Database, Queryable } from '../platform/db/client';
import { seedDemoBilling } from './demo-billing';
import { seedDemoCare } from './demo-care';
import { seedDemoDevices } from './demo-devices';
import { seedDemoExternalOrders } from './demo-external-orders';
import { seedDemoOrderForms } from './demo-order-forms';
import { seedDemoPipelines } from './demo-pipelines';
import { seedDemoReports } from './demo-reports';
import { seedDemoStatusHistory } from './demo-status-logs';
import { seedDemoSurveys } from './demo-surveys';
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

/**
 * What a clinic records beyond the generated demographics: an MRN, the time zone of the patient's state,
 * the program physician and the consent on enrolment. Derived from each row (no random draws), so the
 * generated names stay the same as before these fields existed.
 */
async function completeDemoRecords(tx: Queryable, ids: { monitoring: number; physician: number }) {
  await tx.execute(sql`
    UPDATE patients SET
      mrn = 'MRN-' || lpad((100000 + id * 37 % 900000)::text, 6, '0'),
      time_zone = CASE
        WHEN state IN ('CA', 'WA', 'OR', 'NV') THEN 'America/Los_Angeles'
        WHEN state IN ('AZ') THEN 'America/Phoenix'
        WHEN state IN ('CO', 'UT', 'NM', 'MT', 'WY', 'ID') THEN 'America/Denver'
        WHEN state IN ('TX', 'IL', 'MN', 'WI', 'IA', 'MO', 'AR', 'LA', 'MS', 'AL', 'OK', 'KS', 'NE', 'SD', 'ND', 'TN')
          THEN 'America/Chicago'
        WHEN state = 'AK' THEN 'America/Anchorage'
        WHEN state = 'HI' THEN 'Pacific/Honolulu'
        ELSE 'America/New_York' END,
      zip = lpad((10000 + id * 7919 % 89999)::text, 5, '0'),
      consent_at = created_at, consent_method = CASE WHEN id % 3 = 0 THEN 'verbal' ELSE 'written' END,
      physician_id = CASE WHEN program_id = ${ids.monitoring} THEN ${ids.physician}::bigint ELSE NULL END`);
}

export async function databaseIsEmpty(db: Database): Promise<boolean> {
  const res = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM programs`);
  return (res.rows[0]?.n ?? 0) === 0;
}

/**
 * Deterministic demo data (fixed faker seed): two enterprises, three programs, one staff login per
 * role, 240 patients in the default program. Demo users have not given HIPAA consent yet.
 */
export async function seedDemo(db: Database, password: string, now = Date.now()): Promise<void> {
  const faker = new Faker({ locale: [en], seed: DEMO_SEED });
  const passwordHash = await hashPassword(password);
  // One transaction on one connection: the drizzle statements and the gateway's batch statement alike.
  const client = await db.$client.connect();
  const tx = drizzle(client) as unknown as Queryable;
  try {
    await client.query('BEGIN');
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
    await completeDemoRecords(tx, { monitoring: monitoring.id, physician: physician.id });

    // Cohorts a monitoring team works with: chosen by age and status, so they are the same on every seed.
    const cohorts = [
      {
        name: 'Hypertension, uncontrolled',
        description: 'Systolic above 140 mmHg on three readings in a row.',
        where: sql`date_part('year', age(dob)) >= 65`,
      },
      {
        name: 'New enrolments',
        description: 'Patients in their first 30 days of monitoring.',
        where: sql`status = 'pending'`,
      },
      {
        name: 'Heart failure',
        description: 'Daily weight; alert on a gain of 1 kg in a day.',
        where: sql`id % 7 = 0`,
      },
    ];
    for (const cohort of cohorts) {
      const created = await tx.execute<{ id: number }>(sql`
        INSERT INTO groups (program_id, name, description, created_by)
        VALUES (${monitoring.id}, ${cohort.name}, ${cohort.description}, ${admin.id}) RETURNING id`);
      await tx.execute(sql`
        INSERT INTO group_patients (group_id, patient_id, added_by)
        SELECT ${created.rows[0]!.id}, id, ${admin.id} FROM patients
        WHERE program_id = ${monitoring.id} AND ${cohort.where} ORDER BY id LIMIT 25`);
    }
    // The monitoring team's conversation, so the messenger opens on a real exchange.
    const team = await insertConversation(tx, {
      programId: monitoring.id,
      name: 'Monitoring care team',
      createdBy: admin.id,
    });
    await addMembers(tx, team, [admin.id], 'owner');
    await addMembers(tx, team, [physician.id, coordinator.id], 'member');
    const say = (who: { id: number }, name: string, body: string, parentId: number | null = null) =>
      insertMessage(tx, {
        conversationId: team,
        parentId,
        senderAdminId: who.id,
        guestInviteId: null,
        senderName: name,
        body,
        urgent: false,
        mentions: [],
      });
    await say(
      admin,
      'Avery Morgan',
      'Welcome to the team channel: handovers and questions about our patients go here.',
    );
    const handover = await say(
      coordinator,
      'Carlos Diaz',
      'Handover: three patients missed their evening doses yesterday; I will call them this morning.',
    );
    await say(physician, 'Priya Raman', 'Thanks. Flag anyone with a BP above 160 to me directly.', handover);
    await seedDemoPipelines(tx, { programId: monitoring.id, coordinatorId: coordinator.id, now });
    await seedDemoSurveys(tx, {
      programId: monitoring.id,
      adminId: admin.id,
      coordinatorId: coordinator.id,
      now,
    });
    await seedDemoDevices(tx, client, {
      programIds: [monitoring.id, cardiology.id],
      demoPassword: password,
      now,
      createdBy: admin.id,
    });
    await seedDemoBilling(tx, {
      programId: monitoring.id,
      coordinatorId: coordinator.id,
      physicianId: physician.id,
      now,
    });
    await seedDemoReports(tx, {
      monitoringId: monitoring.id,
      cardiologyId: cardiology.id,
      adminId: admin.id,
      pharmaId: pharma.id,
      now,
    });
    await seedDemoOrderForms(tx, {
      programId: monitoring.id,
      coordinatorId: coordinator.id,
      physicianId: physician.id,
    });
    await seedDemoExternalOrders(tx, { programId: cardiology.id });
    await seedDemoStatusHistory(tx, {
      staff: [
        { programId: monitoring.id, adminIds: [admin.id, coordinator.id, physician.id] },
        { programId: cardiology.id, adminIds: [admin.id, pharma.id] },
        { programId: harborCare.id, adminIds: [outsider.id] },
      ],
      now,
    });
    await seedDemoCare(tx, faker, {
      monitoringId: monitoring.id,
      cardiologyId: cardiology.id,
      adminId: admin.id,
      physicianId: physician.id,
      coordinatorId: coordinator.id,
      now,
    });
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
