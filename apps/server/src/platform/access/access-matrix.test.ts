import { STAFF_ROLES, type StaffRole } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FACTORY_PASSWORD } from '../../modules/identity/identity.factories';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import type { Database } from '../db/client';
import { diskStorage, type FileStorage } from '../files/storage';
import type { App } from '../http/types';

import { objectShape } from './program-fields';
import type { AccessRule } from './rules';
import { type Fixture, objectsOf, urlFor } from './world.fixture';

/**
 * The declared access rules, walked (issue 28 item 1). For every route whose rule is scoped (program, object,
 * objects, enterprise), each staff role signs in and calls it on an object of its own program, of another
 * program of its enterprise and of another enterprise; the answer must be the declared one:
 * - another tenant: 404 (the enterprise admin works in every program of its enterprise: there its role decides);
 * - a role the rule does not name: 403;
 * - a role it names: anything but 401, 403 and 404 (invalid input answering 422 is still "allowed").
 * The routes and their rules come from the app (`app.accessTable`), so a new route is walked without editing
 * this file. One app, one fixture set. Allowed calls carry a body without its required fields, so most are refused
 * (422) before they act; unknown body fields are stripped, not refused, so a route whose body is all optional
 * acts on the fixture's objects (OBJECT_RULES names the one whose later calls then find nothing).
 */

type Tenant = 'own' | 'otherProgram' | 'otherEnterprise';
const TENANTS: Tenant[] = ['own', 'otherProgram', 'otherEnterprise'];

let app: App;
let db: Database;
let storage: FileStorage;
const fixtures = {} as Record<Tenant, Fixture>;
const tokens = {} as Record<StaffRole, string>;
const staffIds = {} as Record<StaffRole, number>;

/** Object kinds without a fixture yet: their routes are listed, not walked (docs/security.md, known gaps). */
const KNOWN_GAPS = new Set<string>([]);

beforeAll(async () => {
  const started = await testApp();
  ({ app, db } = started);
  storage = diskStorage(started.config.FILES_DIR!);
  const g = given(db);
  const [mine, theirs] = [await g.enterprise(), await g.enterprise()];
  const own = (await g.program({ enterpriseId: mine.id })).id;
  const sibling = (await g.program({ enterpriseId: mine.id })).id;
  const foreign = (await g.program({ enterpriseId: theirs.id })).id;
  const creator = (await g.admin({ hipaaConsented: true, programRoles: [{ programId: own, role: 'admin' }] }))
    .id;
  fixtures.own = { program: own, enterprise: mine.id, objects: await objectsOf(db, storage, own, creator) };
  fixtures.otherProgram = {
    program: sibling,
    enterprise: mine.id,
    objects: await objectsOf(db, storage, sibling, creator),
  };
  fixtures.otherEnterprise = {
    program: foreign,
    enterprise: theirs.id,
    objects: await objectsOf(db, storage, foreign, creator),
  };
  // One staff member per role: a program role in the own program, or enterprise admin of its enterprise.
  for (const role of STAFF_ROLES) {
    const admin = await g.admin({
      hipaaConsented: true,
      ...(role === 'enterprise_admin'
        ? { enterpriseAdminOf: [mine.id] }
        : { programRoles: [{ programId: own, role }] }),
    });
    tokens[role] = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
    staffIds[role] = admin.id;
    // Conversations are seen by their members only (a rule of the object, beyond roles): every role is one.
    for (const tenant of [fixtures.own, fixtures.otherProgram])
      await db.execute(sql`INSERT INTO conversation_members (conversation_id, admin_id)
        VALUES (${tenant.objects.conversation}, ${admin.id})`);
  }
}, 60_000);

/**
 * Routes whose answer to a role the rule admits also depends on a rule of the object, enforced by the service:
 * for these an allowed role's 403 or 404 is the object's answer, not the route's (the other cells still hold).
 */
const OBJECT_RULES: Record<string, string> = {
  'GET /api/v1/programs/:programId/image': 'answers 404 until the program has an image',
  'GET /api/v1/enterprises/:enterpriseId/image': 'answers 404 until the enterprise has an image',
  'GET /api/v1/programs/:programId/report/:reportId':
    "a report's audience (care or pharma) decides who sees it",
  'GET /api/v1/programs/:programId/report/:reportId/failed': "a report's audience decides who sees it",
  'GET /api/v1/programs/:programId/report/:reportId/retry': "a report's audience decides who sees it",
  'GET /api/v1/programs/:programId/report/:reportId/runs/:runId/file':
    "a report's audience decides who sees it",
  'POST /api/v1/enterprises/:enterpriseId/reports/pause-recurrance/:reportId':
    'its creator, an enterprise admin or an admin of its program',
  'POST /api/v1/enterprises/:enterpriseId/reports/stop-recurrance/:reportId':
    'its creator, an enterprise admin or an admin of its program',
  'GET /api/v1/external_orders/:userId/regimens/:needByDate':
    '404 without an order of the patient for that date',
  'PUT /api/v1/external_orders/:userId/regimens/:needByDate':
    '404 without an order of the patient for that date',
  'GET /api/v1/external_orders/:userId/fill_files/:needByDate':
    '404 without an order of the patient for that date',
  'PUT /api/v1/programs/:programId/pipelines/:pipeline_id/users/:userId/complete':
    'a patient completes a pipeline once (its body is all optional): later calls answer 404',
};

function objectKindOf(rule: AccessRule): string | null {
  return rule.kind === 'object' || rule.kind === 'objects' ? rule.object.name : null;
}

function isArraySchema(schema: unknown): boolean {
  let s = schema as z.ZodType | undefined;
  for (let i = 0; i < 10 && s; i++) {
    if (s instanceof z.ZodArray) return true;
    const def = (
      s as unknown as { _zod?: { def?: { in?: z.ZodType; innerType?: z.ZodType; schema?: z.ZodType } } }
    )._zod?.def;
    s = def?.in ?? def?.innerType ?? def?.schema;
  }
  return false;
}

/** The declared answer for a role on a tenant's object. */
function expected(rule: AccessRule, role: StaffRole, tenant: Tenant): 'allowed' | 403 | 404 {
  if (tenant === 'otherEnterprise') return 404;
  if (tenant === 'otherProgram' && role !== 'enterprise_admin') return 404;
  const roles = rule.kind === 'staff' ? rule.programRoles : 'roles' in rule ? rule.roles : undefined;
  return !roles || roles.includes(role) ? 'allowed' : 403;
}

const SCOPED = new Set(['program', 'object', 'objects', 'enterprise']);
/** Scoped routes, and `staff` routes that declare the roles needed in the program their input names. */
const scopedRoutes = () =>
  app.accessTable.filter(
    (r) =>
      r.method !== 'HEAD' &&
      (SCOPED.has(r.access.kind) || (r.access.kind === 'staff' && r.access.programRoles !== undefined)),
  );

describe('access matrix: every scoped route × every staff role × own / other program / other enterprise', () => {
  it('has a fixture for every object kind the rules name, except the known gaps', () => {
    const kinds = new Set(
      scopedRoutes()
        .map((r) => objectKindOf(r.access))
        .filter((k): k is string => !!k),
    );
    const missing = [...kinds].filter((k) => !(k in fixtures.own.objects)).sort();
    expect(missing).toEqual([...KNOWN_GAPS].sort());
    expect(scopedRoutes().length).toBeGreaterThan(280);
    expect(scopedRoutes().filter((r) => r.access.kind === 'staff').length).toBeGreaterThanOrEqual(24);
  });

  it('answers exactly what each route declares', async () => {
    const wrong: string[] = [];
    const unfilled: string[] = [];
    /** Calls that would act without a body to refuse: made last; a 404 there may be an earlier call's doing. */
    const deferred: (() => Promise<void>)[] = [];
    for (const route of scopedRoutes()) {
      const kind = objectKindOf(route.access);
      if (kind && KNOWN_GAPS.has(kind)) continue;
      const body = objectShape(route.schema?.body);
      const query = objectShape(route.schema?.querystring);
      const mutates = route.method !== 'GET';
      const calls: Promise<void>[] = [];
      for (const tenant of TENANTS) {
        if (route.access.kind === 'enterprise' && tenant === 'otherProgram') continue;
        const fixture = fixtures[tenant];
        // `objects` routes name their objects in the input; everything else gets an unknown field (refused: 422).
        const named: Record<string, unknown> = {};
        if (route.access.kind === 'objects') {
          const id = fixture.objects[route.access.object.name]!;
          const shape = route.access.in === 'query' ? query : body;
          named[route.access.field] = isArraySchema(shape?.[route.access.field]) ? [id] : id;
        }
        // `staff` routes with declared program roles name the tenant's program in the input.
        const inQuery =
          (route.access.kind === 'objects' && route.access.in === 'query') ||
          (route.access.kind === 'staff' && !!query && 'program_id' in query);
        if (route.access.kind === 'staff') {
          const shape = inQuery ? query : body;
          if (shape && 'program_id' in shape) named.program_id = fixture.program;
          else if (shape && 'program_ids' in shape) named.program_ids = [fixture.program];
        }
        const payload = body || route.schema?.body ? { ...(inQuery ? {} : named), __matrix: 1 } : undefined;
        const search = inQuery
          ? `?${Object.entries(named)
              .map(([k, v]) => `${k}=${v}`)
              .join('&')}&__matrix=1`
          : '';
        for (const role of STAFF_ROLES) {
          const { url, filled } = urlFor(route, fixture, staffIds[role]);
          const want = expected(route.access, role, tenant);
          const name = `${route.method} ${route.url} as ${role} on ${tenant}`;
          // Without a body to refuse, an allowed call acts (a DELETE removes, a member leaves): made last.
          const deferredCall = want === 'allowed' && mutates && !payload;
          const call = async () => {
            const res = await app.inject({
              method: route.method as 'GET',
              url: `${url}${search}`,
              headers: bearer(tokens[role]),
              ...(payload ? { payload } : {}),
            });
            const got = res.statusCode;
            const objectRule = OBJECT_RULES[`${route.method} ${route.url}`];
            if (want === 'allowed' && objectRule && (got === 403 || got === 404)) return;
            if (want === 'allowed') {
              if (got === 401 || got === 403) wrong.push(`${name}: ${got}, declared allowed`);
              else if (got === 404) {
                // An earlier allowed call may have removed the object of an input-less action (DELETE …).
                if (filled && !deferredCall) wrong.push(`${name}: 404, declared allowed`);
                else unfilled.push(`${route.method} ${route.url}`);
              }
            } else if (got !== want) wrong.push(`${name}: ${got}, declared ${want}`);
          };
          if (deferredCall) deferred.push(call);
          else calls.push(call());
        }
      }
      await Promise.all(calls);
    }
    for (const call of deferred) await call();
    expect(wrong).toEqual([]);
    // Every path parameter is filled with a real object of the tenant (or a plain value): none left unwalked.
    const unfilledRoutes = [...new Set(unfilled)].sort();
    if (process.env.MATRIX_VERBOSE) console.log(unfilledRoutes.join('\n'));
    expect(unfilledRoutes).toEqual([]);
  }, 120_000);
});

/**
 * The class of issue 28 item 1: a route declared `staff` that acts on objects named in its input decides their
 * roles itself, out of the table. Every such field on a `staff` route is either moved to an `objects` rule or
 * listed here with what checks it (a program named beside it, whose roles the service requires, ADR 062).
 */
const STAFF_ID_FIELDS: Record<string, string> = {
  'PUT /api/v1/admins/:id roles': 'a staff member: admin roles in program_id (service)',
  'PUT /api/v1/logout_log/:id id': 'ignored: the path names the log, the caller’s own (spec 01 §7; ADR 070)',
  'POST /api/v1/assign-admins admin_ids,roles': 'staff members: admin roles in program_id (service)',
  'POST /api/v1/programs enterprise_id': 'enterprise admin of enterprise_id (service)',
  'POST /api/v1/vendors/:vendor/provision device_id,patient_id': 'care roles in program_id (service)',
  'POST /api/v1/devices/medesto patient_id': 'care roles in program_id (service)',
  'POST /api/v1/inhalers patient_id': 'care roles in program_id (service)',
  'POST /api/v1/alerts/mark-temp-as-read msg_ids':
    'messages of programs the caller works in, any role (ADR 062)',
  'POST /api/v1/surveys folder_id': 'survey editor roles in program_id (service)',
  'POST /api/v1/surveys/bulk-assign survey_ids,user_ids': 'survey editor roles in program_id (service)',
  'POST /api/v1/pipelines/templates enterprise_id':
    'pipeline editor roles in program_id, or enterprise admin (service)',
  'POST /api/v1/tags folder_id': 'tag editor roles in program_id (service)',
  'POST /api/v1/billing user_id': 'billing roles in program_id (service)',
  'POST /api/v1/bulk_actions users_id': 'proposer roles in program_id (service)',
  'PUT /api/v1/bulk_actions/approve job_id':
    'approver roles in the job’s program (service; a job id is a UUID)',
  'PUT /api/v1/bulk_actions/cancel job_id':
    'approver roles in the job’s program (service; a job id is a UUID)',
  'POST /api/v1/broadcasting/auth socket_id':
    'the socket of the caller; channels are checked by the realtime layer',
  'POST /api/v1/messenger/conversations users': 'staff who work in program_id (service), any role',
  'PUT /api/v1/external_orders/finalize external_order_ids': 'pharmacy roles in program_id (service)',
};

describe('staff routes naming objects in their input', () => {
  it('are `objects` rules or reviewed here', () => {
    const found: string[] = [];
    for (const route of app.accessTable) {
      // Reads list what the caller's programs hold; the class is about acting on objects.
      if (route.method === 'HEAD' || route.method === 'GET' || route.access.kind !== 'staff') continue;
      const fields = [
        ...Object.keys(objectShape(route.schema?.body) ?? {}),
        ...Object.keys(objectShape(route.schema?.querystring) ?? {}),
      ].filter((f) => /(^|_)ids?$|^users$|^roles$/.test(f) && f !== 'program_id' && f !== 'program_ids');
      if (fields.length > 0) found.push(`${route.method} ${route.url} ${fields.join(',')}`);
    }
    expect(found.sort()).toEqual(Object.keys(STAFF_ID_FIELDS).sort());
  });
});
