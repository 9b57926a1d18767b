import { en, Faker } from '@faker-js/faker';
import { sql } from 'drizzle-orm';
import { createAdmin } from '../apps/server/src/modules/identity/identity.factories';
import { createPatients } from '../apps/server/src/modules/patients/patients.factories';
import { createEnterprise, createProgram } from '../apps/server/src/modules/tenancy/tenancy.factories';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import type { Database } from '../apps/server/src/platform/db/client';
import { fakePatients } from '../apps/server/src/seed/fake-patients';

export const BENCH_SEED = 20_260_501;
export const BENCH_ADMIN = { email: 'bench-admin@caredeck.bench', password: 'CareDeck-bench-2026' };
const BATCH_SIZE = 5_000;
const STAFF_COUNT = 12;
export type Dataset = {
  bigProgramId: number;
  smallProgramId: number;
  bigCount: number;
  smallCount: number;
  staffCount: number;
  /** A staff member many patients of the large program are assigned to (the 'assigned to' filter). */
  assigneeId: number;
  seconds: number;
};

async function insertPatients(
  db: Database,
  faker: Faker,
  programId: number,
  total: number,
  staffIds: number[],
  log: (line: string) => void,
): Promise<void> {
  for (let done = 0; done < total; done += BATCH_SIZE) {
    const size = Math.min(BATCH_SIZE, total - done);
    await createPatients(db, fakePatients(faker, programId, size, staffIds));
    if ((done + size) % 25_000 === 0 || done + size === total)
      log(`  program ${programId}: ${done + size}/${total}`);
  }
}

/**
 * A large tenant (program 1) and a smaller neighbour (program 2) in one enterprise, built with the shared
 * factories and a fixed faker seed, so two runs measure the same rows. The bench admin has consented.
 */
export async function generateDataset(
  db: Database,
  counts: { big: number; small: number },
  log: (line: string) => void,
): Promise<Dataset> {
  const started = performance.now();
  const faker = new Faker({ locale: [en], seed: BENCH_SEED });
  const enterprise = await createEnterprise(db, { name: 'Bench Health', slug: 'bench-health' });
  const big = await createProgram(db, {
    name: 'Bench Monitoring',
    slug: 'caredeck',
    enterpriseId: enterprise.id,
  });
  const small = await createProgram(db, {
    name: 'Bench Cardiology',
    slug: 'bench-cardiology',
    enterpriseId: enterprise.id,
  });
  // One argon2 hash for every account: hashing is deliberately slow and not what is measured here.
  const passwordHash = await hashPassword(BENCH_ADMIN.password);
  await createAdmin(db, {
    email: BENCH_ADMIN.email,
    password: BENCH_ADMIN.password,
    passwordHash,
    givenName: 'Bench',
    familyName: 'Admin',
    hipaaConsented: true,
    programRoles: [
      { programId: big.id, role: 'admin' },
      { programId: small.id, role: 'admin' },
    ],
  });
  const staffIds: number[] = [];
  for (let i = 0; i < STAFF_COUNT; i++) {
    const staff = await createAdmin(db, {
      email: `bench-staff-${i}@caredeck.bench`,
      password: BENCH_ADMIN.password,
      passwordHash,
      givenName: faker.person.firstName(),
      familyName: faker.person.lastName(),
      hipaaConsented: true,
      programRoles: [
        { programId: i % 3 === 0 ? small.id : big.id, role: i % 2 ? 'physician' : 'care_coordinator' },
      ],
    });
    staffIds.push(staff.id);
  }
  await insertPatients(db, faker, big.id, counts.big, staffIds, log);
  await insertPatients(db, faker, small.id, counts.small, staffIds, log);
  // What autovacuum would have done on a table in steady state: fresh statistics and visibility map.
  await db.execute(sql`VACUUM (ANALYZE) patients`);
  await db.execute(sql`ANALYZE admins`);
  return {
    bigProgramId: big.id,
    smallProgramId: small.id,
    bigCount: counts.big,
    smallCount: counts.small,
    staffCount: STAFF_COUNT + 1,
    assigneeId: staffIds[1]!,
    seconds: (performance.now() - started) / 1000,
  };
}
