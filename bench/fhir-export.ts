/**
 * Bulk Data `$export` at size (issue 31 item 2; ADR 079), on a throwaway database: one program of PATIENTS
 * patients (default 20,000), each with 30 days of readings (a pulse and a weight a day: 60 rows each) and a
 * daily regimen with 30 doses, beside a second program of the same size that the export must not walk. A
 * Patient-level export of the first program is queued for its physician and run by the export service's own
 * runner, in this process, with files on local disk (as the server's worker does); reported: resources written
 * per second and the growth of the process's resident memory (sampled every 20 ms) over its size before the run.
 * `npm run fhir-export` in bench/ (DATABASE_URL: a server where databases may be created; PATIENTS=100000).
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { FHIR_RESOURCES } from '../apps/server/src/modules/fhir';
import { createExportService } from '../apps/server/src/modules/fhir/export.service';
import { createDatabase } from '../apps/server/src/platform/db/client';
import { applyMigrations } from '../apps/server/src/platform/db/migrate';
import { diskStorage } from '../apps/server/src/platform/files/storage';

const PATIENTS = Number(process.env.PATIENTS ?? 20_000);
const ADMIN = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `fhir_export_measure_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(ADMIN);
url.pathname = `/${name}`;
const db = createDatabase(url.toString(), 4);
const files = await mkdtemp(join(tmpdir(), 'caredeck-export-bench-'));
const silent = { warn: () => undefined } as unknown as FastifyBaseLogger;
try {
  await applyMigrations(db);
  const t0 = performance.now();
  await db.execute(sql`INSERT INTO enterprises (name, slug) VALUES ('E', 'e')`);
  await db.execute(
    sql`INSERT INTO programs (name, slug, enterprise_id) VALUES ('P1', 'p1', 1), ('P2', 'p2', 1)`,
  );
  await db.execute(
    sql`INSERT INTO admins (email, given_name, family_name, password_hash) VALUES ('a@x', 'A', 'B', 'x')`,
  );
  await db.execute(
    sql`INSERT INTO admin_program_roles (admin_id, program_id, role) VALUES (1, 1, 'physician')`,
  );
  // Program 1's patients interleaved with program 2's, so the export walks its program's index, not the table.
  await db.execute(sql`INSERT INTO patients (program_id, first_name, last_name, mrn, sex, dob)
    SELECT 1 + g % 2, 'F' || g, 'L' || g, 'MRN-' || g, 'female', date '1950-01-01' + g % 10000
    FROM generate_series(1, ${PATIENTS * 2}) g`);
  await db.execute(sql`INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    SELECT p.id, p.program_id, t.type, t.value, t.unit, timestamptz '2026-03-01 08:00Z' + d * interval '1 day'
    FROM patients p, generate_series(0, 29) d,
      (VALUES ('pulse', 70, 'bpm'), ('weight', 80, 'kg')) AS t(type, value, unit)`);
  await db.execute(sql`INSERT INTO regimens (patient_id, program_id, name, repeat, interval, times, scheduled_at, status)
    SELECT p.id, p.program_id, 'Lisinopril 10 mg', 'daily', 1, ARRAY['08:00'], timestamptz '2026-03-01', 'active'
    FROM patients p`);
  await db.execute(sql`INSERT INTO medication_usages (patient_id, regimen_id, taken_at, servings, kind)
    SELECT r.patient_id, r.id, timestamptz '2026-03-01 08:05Z' + d * interval '1 day', 1, 'taken'
    FROM regimens r, generate_series(0, 29) d`);
  await db.execute(sql`ANALYZE`);
  console.log(`generated ${PATIENTS * 2} patients in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const exports = createExportService({
    db,
    storage: diskStorage(files),
    resources: FHIR_RESOURCES,
    log: silent,
  });
  await db.execute(sql`INSERT INTO fhir_bulk_exports (admin_id, types, request, expires_at)
    VALUES (1, ARRAY['Patient', 'Observation', 'MedicationRequest', 'MedicationAdministration'],
      'bench', now() + interval '1 day')`);
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  await exports.runDue();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const job = await db.execute<{ status: string; output: { type: string; count: number }[] }>(
    sql`SELECT status, output FROM fhir_bulk_exports`,
  );
  const { status, output } = job.rows[0]!;
  const total = output.reduce((n, o) => n + o.count, 0);
  console.log(`status ${status}: ${output.map((o) => `${o.type} ${o.count}`).join(', ')}`);
  console.log(
    `${total} resources in ${seconds.toFixed(1)} s: ${Math.round(total / seconds)} resources/s; ` +
      `RSS ${(before / 2 ** 20).toFixed(0)} MiB before, peak growth ${((peak - before) / 2 ** 20).toFixed(0)} MiB`,
  );
} finally {
  await db.$client.end();
  await rm(files, { recursive: true, force: true });
  if (!process.env.KEEP) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  else console.log(name);
  await admin.end();
}
