import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, seedDemoData, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import type { Database } from '../db/client';
import type { App } from '../http/types';
import { allContractRoutes, programFieldsOf } from './program-fields';

/**
 * ADR 062: every contract field named program_id / program_ids (query or body) is checked by the platform.
 * The routes are read from packages/contracts, so a route added later is walked without editing this file.
 */
let app: App;
let db: Database;
let physician: string;
const ids = { monitoring: 0, cardiology: 0, harbor: 0, northwind: 0, patient: 0, physician: 0 };

beforeAll(async () => {
  ({ app, db } = await testApp());
  await seedDemoData(db);
  const res = await db.execute<{ slug: string; id: number }>(sql`SELECT slug, id::int FROM programs`);
  const bySlug = Object.fromEntries(res.rows.map((r) => [r.slug, Number(r.id)]));
  ids.monitoring = bySlug.caredeck!;
  ids.cardiology = bySlug['northwind-cardiology']!;
  ids.harbor = bySlug['harbor-adherence']!;
  const more = await db.execute<{ northwind: number; patient: number; physician: number }>(sql`
    SELECT (SELECT id FROM enterprises WHERE slug = 'northwind-health')::int AS northwind,
           (SELECT min(id) FROM patients WHERE program_id = ${ids.monitoring})::int AS patient,
           (SELECT id FROM admins WHERE email = 'physician@caredeck.demo')::int AS physician`);
  Object.assign(ids, more.rows[0]);
  // A physician of CareDeck Monitoring only: Northwind Cardiology is their enterprise's, Harbor is another's.
  physician = (await signIn(app, 'physician@caredeck.demo')).token;
});

const PATH_VALUES: Record<string, () => string> = {
  programId: () => String(ids.monitoring),
  enterpriseId: () => String(ids.northwind),
  id: () => String(ids.patient),
  patientId: () => String(ids.patient),
  start: () => '2026-01-01',
  end: () => '2026-01-31',
  phone: () => '+14125550100',
};

function concrete(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => PATH_VALUES[name]?.() ?? '1');
}

const routes = allContractRoutes()
  .map((contract) => ({ contract, fields: programFieldsOf(contract) }))
  .filter(({ fields }) => fields.query.length > 0 || fields.body.length > 0);

async function call(route: (typeof routes)[number], programId: number) {
  const { contract, fields } = route;
  const value = (field: string) => (field === 'program_ids' ? [programId] : programId);
  const query = fields.query.length > 0 ? `?${fields.query.map((f) => `${f}=${programId}`).join('&')}` : '';
  const body = fields.body.length > 0 ? Object.fromEntries(fields.body.map((f) => [f, value(f)])) : undefined;
  return app.inject({
    method: contract.method,
    url: `${concrete(contract.path)}${query}`,
    headers: bearer(physician),
    ...(body ? { payload: body } : {}),
  });
}

describe('program ids in queries and bodies', () => {
  it('finds the routes that take a program id in their input', () => {
    expect(routes.length).toBeGreaterThan(40);
    const names = routes.map((r) => `${r.contract.method} ${r.contract.path}`);
    expect(names).toContain('GET /api/v1/devices');
    expect(names).toContain('GET /api/v1/messenger/conversations');
  });

  it("answers 404 on every such route for a program of another enterprise and for one of the actor's enterprise without a role", async () => {
    for (const route of routes) {
      const name = `${route.contract.method} ${route.contract.path}`;
      for (const program of [ids.harbor, ids.cardiology]) {
        const res = await call(route, program);
        expect(res.statusCode, `${name} program ${program}: ${res.body}`).toBe(404);
      }
    }
  });

  it("lets the same calls through to the route with the actor's own program (so the 404s above are the program's)", async () => {
    for (const route of routes) {
      const name = `${route.contract.method} ${route.contract.path}`;
      const res = await call(route, ids.monitoring);
      expect(res.statusCode === 404 ? res.json().message : '', `${name}: ${res.body}`).not.toBe(
        'Program not found',
      );
      expect(res.statusCode === 404 && res.json().message === 'Not found.', `${name}: ${res.body}`).toBe(
        false,
      );
    }
  });
});
