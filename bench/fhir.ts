/**
 * FHIR page statements at size (issue 31; ADR 073), on a throwaway database: 200,000 patients in 20 programs
 * (the reader's program holding the last ids, the worst case for an id-ordered walk), one patient with 30 days of
 * readings every 5 minutes (25,920 rows) beside 600,000 readings of 100,000 others. Each figure is the mean of
 * 10 runs after one warm-up. `npm run fhir` in bench/ (DATABASE_URL: a server where databases may be created).
 */

import { sql } from 'drizzle-orm';
import pg from 'pg';
import { staffScope } from '../apps/server/src/modules/fhir/fhir.queries';
import { observationDefinition } from '../apps/server/src/modules/fhir/resources/observation';
import { patientDefinition } from '../apps/server/src/modules/fhir/resources/patient';
import { parseSearch } from '../apps/server/src/modules/fhir/search';
import { createDatabase } from '../apps/server/src/platform/db/client';
import { applyMigrations } from '../apps/server/src/platform/db/migrate';

const ADMIN = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `fhir_measure_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(ADMIN);
url.pathname = `/${name}`;
const db = createDatabase(url.toString(), 2);
try {
  await applyMigrations(db);
  await db.execute(sql`INSERT INTO enterprises (name, slug) VALUES ('E', 'e')`);
  await db.execute(
    sql`INSERT INTO programs (name, slug, enterprise_id) SELECT 'P' || g, 'p' || g, 1 FROM generate_series(1, 20) g`,
  );
  await db.execute(
    sql`INSERT INTO admins (email, given_name, family_name, password_hash) VALUES ('a@x', 'A', 'B', 'x'), ('b@x', 'C', 'D', 'x')`,
  );
  await db.execute(
    sql`INSERT INTO admin_program_roles (admin_id, program_id, role) VALUES (1, 20, 'physician')`,
  );
  await db.execute(
    sql`INSERT INTO admin_enterprise_roles (admin_id, enterprise_id, role) VALUES (2, 1, 'enterprise_admin')`,
  );
  // 200,000 patients in 20 programs; program 20's are the last ids (the worst case for an id-ordered scan).
  await db.execute(sql`INSERT INTO patients (program_id, first_name, last_name, mrn, sex)
    SELECT least(20, 1 + (g - 1) / 10000), 'F' || g, 'L' || g, 'MRN-' || g, 'female' FROM generate_series(1, 200000) g`);
  // One patient of program 20 with 30 days of readings every 5 minutes of 3 types (25,920 rows), others none.
  const pid = 195000;
  await db.execute(sql`INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    SELECT ${pid}, 20, t, 100, 'x', timestamptz '2026-03-01' + (g * interval '5 minutes')
    FROM generate_series(0, 8639) g, unnest(ARRAY['systolic', 'diastolic', 'pulse']) t`);
  // Other patients' readings: 600,000 rows over 100,000 patients, so the table is not one patient's.
  await db.execute(sql`INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    SELECT g, 1 + (g - 1) / 10000, 'pulse', 70, 'bpm', timestamptz '2026-03-01' + (k * interval '1 day')
    FROM generate_series(1, 100000) g, generate_series(1, 6) k`);
  await db.execute(sql`ANALYZE`);
  const time = async (label: string, fn: () => Promise<unknown>) => {
    await fn();
    const runs = 10;
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) await fn();
    console.log(`${label}: ${((performance.now() - t0) / runs).toFixed(1)} ms`);
  };
  const page = (def: typeof patientDefinition, adminId: number, q: string) =>
    def.page(db, staffScope(adminId), parseSearch(q, def.params, false));
  await time('Patient search, physician of program 20 (10,000 of 200,000), page 1 of 50', () =>
    page(patientDefinition, 1, ''),
  );
  const last = await page(patientDefinition, 1, '_count=500');
  let cursor = last.next;
  for (let i = 0; i < 15 && cursor; i++) {
    const p = await patientDefinition.page(db, staffScope(1), {
      ...parseSearch('_count=500', patientDefinition.params, false),
      cursor,
    });
    cursor = p.next;
  }
  await time('Patient search, same reader, a page 8,000 rows in', () =>
    patientDefinition.page(db, staffScope(1), {
      ...parseSearch('', patientDefinition.params, false),
      cursor,
    }),
  );
  await time('Patient search, enterprise admin (all 200,000), page 1', () => page(patientDefinition, 2, ''));
  await time('Patient by identifier (MRN, no system), enterprise admin', () =>
    page(patientDefinition, 2, 'identifier=mrn-123456'),
  );
  await time(`Observation search patient=${pid} (25,920 rows), page 1 of 50`, () =>
    page(observationDefinition, 1, `patient=${pid}`),
  );
  const obs = await page(observationDefinition, 1, `patient=${pid}&_count=500`);
  let oc = obs.next;
  for (let i = 0; i < 30 && oc; i++) {
    const p = await observationDefinition.page(db, staffScope(1), {
      ...parseSearch(`patient=${pid}&_count=500`, observationDefinition.params, false),
      cursor: oc,
    });
    oc = p.next;
  }
  await time('Observation search, a page 15,500 readings in', () =>
    observationDefinition.page(db, staffScope(1), {
      ...parseSearch(`patient=${pid}`, observationDefinition.params, false),
      cursor: oc,
    }),
  );
  await time('Observation search with code=85354-9 and a date range (one day)', () =>
    page(observationDefinition, 1, `patient=${pid}&code=85354-9&date=ge2026-03-10&date=lt2026-03-11`),
  );
  await time('Observation search, _count=500', () =>
    page(observationDefinition, 1, `patient=${pid}&_count=500`),
  );
} finally {
  await db.$client.end();
  if (!process.env.KEEP) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  else console.log(name);
  await admin.end();
}
