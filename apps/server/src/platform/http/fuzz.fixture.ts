import * as contracts from '@caredeck/contracts';
import { errorBody, type RouteContract } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { seedDemoData, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import type { Database } from '../db/client';

// What the fuzz walks share (fuzz.test.ts: hostile bodies and queries; fuzz-ids.test.ts: hostile ids in paths): the
// contracts' routes, real ids of the demo data for their paths, and the shape every refusal must have.

/** Every route of the contracts, by its export and key (`tagsContract.create`). */
export const routes: { name: string; contract: RouteContract }[] = Object.entries(contracts).flatMap(
  ([exportName, value]) =>
    exportName.endsWith('Contract') && value && typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .filter(
            (entry): entry is [string, RouteContract] =>
              !!entry[1] && typeof entry[1] === 'object' && 'path' in entry[1] && 'method' in entry[1],
          )
          .map(([key, contract]) => ({ name: `${exportName}.${key}`, contract }))
      : [],
);

/** Routes left out: they end the session the walk runs in (sign-out, password, MFA) or are not staff API. */
export const skipped = (c: RouteContract) =>
  /^\/api\/auth\//.test(c.path) || /password|sign-out|logout|mfa|\/sessions/.test(c.path);

/**
 * Real ids of the demo data for path parameters (the administrator's first program, its enterprise, a patient of
 * it, that program's pipeline, conversation, note …), so hostile bodies reach the services instead of stopping
 * at a 404 for an object that does not exist. Keyed by the segment before the parameter, then by its name;
 * anything unknown gets 1.
 */
const DATES: Record<string, string> = {
  start: '2026-01-01',
  end: '2026-12-31',
  startDate: '2026-01-01',
  endDate: '2026-12-31',
};
export const pathOf = (c: RouteContract, ids: Record<string, string>) =>
  c.path.replace(/([^/]*)\/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, segment: string, param: string) => {
    const value = ids[`${segment}/:${param}`] ?? ids[`:${param}`] ?? DATES[param] ?? '1';
    return `${segment}/${value}`;
  });

export async function loadIds(db: Database): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const one = async (query: ReturnType<typeof sql>): Promise<string | undefined> => {
    try {
      const res = await db.execute<{ id: string | number | null }>(query);
      const id = res.rows[0]?.id;
      return id === null || id === undefined ? undefined : String(id);
    } catch {
      return undefined;
    }
  };
  const admin = await one(sql`SELECT id FROM admins WHERE email = 'admin@caredeck.demo'`);
  const program = await one(
    sql`SELECT program_id AS id FROM admin_program_roles WHERE admin_id = ${admin} AND role = 'admin' ORDER BY program_id LIMIT 1`,
  );
  const enterprise = await one(sql`SELECT enterprise_id AS id FROM programs WHERE id = ${program}`);
  const patient = await one(
    sql`SELECT patient_id AS id FROM patient_programs WHERE program_id = ${program} ORDER BY patient_id LIMIT 1`,
  );
  const pipeline = await one(sql`SELECT id FROM pipelines WHERE program_id = ${program} ORDER BY id LIMIT 1`);
  const stage = await one(
    sql`SELECT id FROM pipeline_stages WHERE pipeline_id = ${pipeline} ORDER BY id LIMIT 1`,
  );
  const conversation = await one(
    sql`SELECT conversation_id AS id FROM conversation_members WHERE admin_id = ${admin} ORDER BY conversation_id LIMIT 1`,
  );
  const found: Record<string, string | undefined> = {
    ':programId': program,
    'programs/:id': program,
    'show/:programId': program,
    ':enterpriseId': enterprise,
    'enterprises/:id': enterprise,
    ':pipeline_id': pipeline,
    ':stage_id': stage,
    'conversations/:id': conversation,
    'messages/:conversationId': conversation,
    'admins/:id': admin,
    'admins/:adminId': admin,
    'adminlogs/:id': admin,
    'notes/:id': await one(sql`SELECT id FROM notes WHERE patient_id = ${patient} ORDER BY id LIMIT 1`),
    'groups/:id': await one(sql`SELECT id FROM groups WHERE program_id = ${program} ORDER BY id LIMIT 1`),
    'surveys/:s': await one(sql`SELECT id FROM surveys WHERE program_id = ${program} ORDER BY id LIMIT 1`),
    'regimens/:regimenId': await one(
      sql`SELECT id FROM regimens WHERE patient_id = ${patient} ORDER BY id LIMIT 1`,
    ),
    'orders/:orderId': await one(
      sql`SELECT id FROM medication_orders WHERE patient_id = ${patient} ORDER BY id LIMIT 1`,
    ),
    'tags/:id': await one(sql`SELECT id FROM tags WHERE program_id = ${program} ORDER BY id LIMIT 1`),
    'devices/:id': await one(sql`SELECT id FROM devices WHERE program_id = ${program} ORDER BY id LIMIT 1`),
    'alerts/:id': await one(sql`SELECT id FROM alerts WHERE program_id = ${program} ORDER BY id LIMIT 1`),
  };
  found['groups/:groupId'] = found['groups/:id'];
  found['surveys/:surveyId'] = found['surveys/:s'];
  for (const key of [
    'users/:id',
    'users/:userId',
    'users/:patientId',
    'users/:u',
    'user/:patientId',
    'patients/:id',
  ]) {
    found[key] = patient;
  }
  for (const key of [
    'caregivers/:patient_id',
    'external_orders/:userId',
    'generate/:userId',
    'merge/:patientId',
  ]) {
    found[key] = patient;
  }
  for (const [key, value] of Object.entries(found)) if (value) ids[key] = value;
  return ids;
}

export async function auditRows(db: Database): Promise<number> {
  const res = await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM audit_events`);
  return Number(res.rows[0]!.n);
}

export function expectRefusal(res: { statusCode: number; body: string }, where: string) {
  expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  const parsed = errorBody.strict().safeParse(JSON.parse(res.body));
  expect(parsed.success, `${where}: ${res.body.slice(0, 300)}`).toBe(true);
}

/** The walks' start: an app on the demo data, the demo's ids for paths, and the administrator signed in. */
export async function demoWalk() {
  const built = await testApp();
  await seedDemoData(built.db);
  const ids = await loadIds(built.db);
  const token = (await signIn(built.app, 'admin@caredeck.demo')).token;
  return { ...built, ids, token };
}
