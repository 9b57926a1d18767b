import { createHash, timingSafeEqual } from 'node:crypto';
import { API_PREFIXES, patientRecordContract, tenancyContract, userContract } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { type RequestSession, resolveRequestSession, sessionLimits } from '../auth/sessions';
import type { TokenService } from '../auth/tokens';
import type { Database } from '../db/client';
import { AppError } from '../http/errors';
import { bodyObjectsAccess, deviceLogin, enterpriseAccess, liveFhirClient } from './access.queries';
import type { Actor, DeviceActor } from './actor';
import { type AccessRule, access } from './rules';
import { programRefsInScope, programRefsOf } from './scope';

/** Routes that third-party plugins register (OpenAPI UI): public documentation, nothing else. */
const PLUGIN_ROUTE_PREFIXES: string[] = [API_PREFIXES.docs];

export class MissingAccessRuleError extends Error {}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

/** A path id: digits only, else the object cannot exist (404, not 422: ids are not user input). */
function pathIdOrNull(request: FastifyRequest, name: string): number | null {
  const raw = (request.params as Record<string, string | undefined>)[name];
  return raw && /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : null;
}

function pathId(request: FastifyRequest, name: string): number {
  const id = pathIdOrNull(request, name);
  if (id === null) throw AppError.notFound();
  return id;
}

export type AccessDeps = { db: Database; tokens: TokenService; config: Config };

/**
 * The one access module: every route declares an `AccessRule` (registration fails otherwise), and
 * this hook authenticates and authorises before validation, so an outsider learns nothing from a 422.
 */
export type AccessTableEntry = {
  method: string;
  url: string;
  access: AccessRule;
  /** The route's input schemas, for the tests that walk every route with hostile input. */
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
};

function isPluginRoute(url: string): boolean {
  return PLUGIN_ROUTE_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its access rule, for the access matrix test and the docs. */
    accessTable: AccessTableEntry[];
  }
}

export const accessPlugin = fp(async (app: FastifyInstance, deps: AccessDeps) => {
  app.decorateRequest('actor', null);
  const table: AccessTableEntry[] = [];
  app.decorate('accessTable', table);

  app.addHook('onRoute', (route) => {
    const rule = route.config?.access ?? (isPluginRoute(route.url) ? access.public() : undefined);
    if (!rule)
      throw new MissingAccessRuleError(`Route ${route.method} ${route.url} declares no access rule.`);
    const schema = route.schema as AccessTableEntry['schema'];
    for (const method of [route.method].flat()) table.push({ method, url: route.url, access: rule, schema });
  });

  /**
   * One round trip: the token's session (live, activity recorded at most every 30 s) and, for a
   * program route, the path program with the actor's roles there.
   */
  async function authenticate(
    request: FastifyRequest,
    realm: 'staff' | 'controller',
    program: number | SQL | null = null,
  ): Promise<{ actor: Actor; program: RequestSession['program'] }> {
    const token = bearer(request);
    if (!token) throw AppError.unauthenticated();
    const claims = await deps.tokens.verifyAccess(token, realm);
    if (!claims) throw AppError.unauthenticated();
    const session = await resolveRequestSession(
      deps.db,
      claims.sid,
      realm,
      sessionLimits(deps.config),
      program,
    );
    if (!session || session.ownerId !== claims.sub) throw AppError.unauthenticated('Session expired.');
    const ids = { sessionId: session.id, sessionPublicId: session.publicId, ip: request.ip };
    if (realm === 'controller') return { actor: { realm, controllerId: claims.sub, ...ids }, program: null };
    return { actor: { realm, adminId: claims.sub, ...ids, scope: session.scope }, program: session.program };
  }

  /** HTTP Basic with the device's serial and secret (the secret is random: its SHA-256 is compared). */
  async function authenticateDevice(request: FastifyRequest): Promise<DeviceActor> {
    const header = request.headers.authorization;
    if (!header?.startsWith('Basic ')) throw AppError.unauthenticated();
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const serial = colon > 0 ? decoded.slice(0, colon) : '';
    const secret = colon > 0 ? decoded.slice(colon + 1) : '';
    if (!serial || !secret || serial.length > 64) throw AppError.unauthenticated();
    const device = await deviceLogin(deps.db, serial);
    const given = createHash('sha256').update(secret).digest();
    const stored = device?.secret_hash ? Buffer.from(device.secret_hash, 'hex') : null;
    if (!device || !stored || stored.length !== given.length || !timingSafeEqual(stored, given))
      throw AppError.unauthenticated();
    return {
      realm: 'device',
      deviceId: device.id,
      serial: device.serial,
      kind: device.kind,
      programId: device.program_id,
      patientId: device.patient_id,
      ip: request.ip,
    };
  }

  app.addHook('onRequest', async (request) => {
    let objectId: number | null = null;
    const url = request.routeOptions.url;
    const rule: AccessRule | undefined =
      request.routeOptions.config?.access ?? (url && isPluginRoute(url) ? access.public() : undefined);
    // Deny by default: a request that matched no declared rule (the not-found handler) gets nothing.
    if (!rule) return;
    // Guests prove themselves with their link token, checked by the guest service of the route.
    if (rule.kind === 'public' || rule.kind === 'guest') return;
    if (rule.kind === 'controller') {
      request.actor = (await authenticate(request, 'controller')).actor;
      return;
    }
    if (rule.kind === 'device') {
      request.actor = await authenticateDevice(request);
      return;
    }
    // FHIR: a SMART backend client's token, else a staff session (below). A revoked client's tokens stop at once.
    if (rule.kind === 'fhir') {
      const token = bearer(request);
      const client = token ? await deps.tokens.verifyFhirClient(token) : null;
      if (client) {
        const row = await liveFhirClient(deps.db, client.sub);
        if (!row) throw AppError.unauthenticated();
        request.actor = {
          realm: 'fhir_client',
          clientId: row.id,
          programId: row.program_id,
          enterpriseId: row.enterprise_id,
          scopes: client.scopes,
          ip: request.ip,
        };
        return;
      }
    }
    if ((rule.kind === 'object' || rule.kind === 'staff') && rule.controller) {
      const token = bearer(request);
      if (token && (await deps.tokens.verifyAccess(token, 'controller'))) {
        request.actor = (await authenticate(request, 'controller')).actor;
        return;
      }
    }
    let target: number | SQL | null = null;
    if (rule.kind === 'program') target = pathIdOrNull(request, 'programId');
    else if (rule.kind === 'object') {
      const id = pathIdOrNull(request, rule.param);
      // Not an id: no such object. The token is still checked first, so a stranger learns nothing.
      target = id === null ? sql`NULL::bigint` : rule.object.programOf(id);
      objectId = id;
    }
    const { actor, program } = await authenticate(request, 'staff', target);
    if (actor.realm !== 'staff') throw AppError.unauthenticated();
    request.actor = actor;
    if (actor.scope !== 'full' && !(rule.kind === 'staff' && rule.hipaaPending)) {
      throw AppError.forbidden('HIPAA consent is required.');
    }
    if (rule.kind === 'program' || rule.kind === 'object') {
      if (!program || program.roles.length === 0)
        throw AppError.notFound(rule.kind === 'object' ? rule.notFound : undefined);
      if (rule.roles && !rule.roles.some((r) => program.roles.includes(r))) throw AppError.forbidden();
      actor.program = program;
      if (rule.kind === 'object' && objectId !== null)
        actor.object = { kind: rule.object.name, id: objectId };
    } else if (rule.kind === 'enterprise') {
      const enterprise = await enterpriseAccess(deps.db, actor.adminId, pathId(request, 'enterpriseId'));
      if (!enterprise) throw AppError.notFound();
      if (rule.roles && !rule.roles.some((r) => enterprise.roles.includes(r))) throw AppError.forbidden();
      actor.enterprise = enterprise;
    }
  });

  /**
   * Programs named in the input (ADR 062): every `program_id` of a query or body and every `program_ids` of
   * a body must be a program the staff member works in (within the path enterprise on enterprise routes),
   * else 404, as for a program that does not exist. After validation, so the values are the parsed ones;
   * `foreignPathObject` applies the same rule to input refused by validation.
   */
  app.addHook('preHandler', async (request) => {
    const actor = request.actor;
    if (actor?.realm !== 'staff') return;
    const ids = programRefsOf(request);
    if (ids.length > 0 && !(await programRefsInScope(deps.db, actor, ids)))
      throw AppError.notFound('Program not found');
    const rule = request.routeOptions.config?.access;
    if (rule?.kind === 'staff' && rule.programRoles && ids.length > 0) {
      const held = await bodyObjectsAccess(deps.db, actor.adminId, programItself, ids, rule.programRoles);
      if (held.allowed !== ids.length) throw AppError.forbidden();
    }
    if (rule?.kind === 'objects') {
      const named = bodyObjectIds(rule.in === 'query' ? request.query : request.body, rule.field);
      if (named.length === 0) return;
      const found = await bodyObjectsAccess(deps.db, actor.adminId, rule.object.programOf, named, rule.roles);
      if (found.visible !== named.length) throw AppError.notFound(rule.notFound);
      if (rule.roles && found.allowed !== named.length) throw AppError.forbidden();
    }
  });
});

/**
 * Path parameters of program routes that name an object of that program, by the path segment before them
 * (`/programs/:programId/users/:id/...`): the table holding the object and its `program_id`.
 * A route of the `program` kind resolves its program in the access hook but the path object only in its
 * service, after validation; `foreignPathObject` closes that gap for refused input (below).
 */
const PROGRAM_PATH_OBJECTS: Record<string, { table: SQL; params: readonly string[] }> = {
  users: { table: sql`patients`, params: ['id', 'userId', 'patientId'] },
  generate: { table: sql`patients`, params: ['userId'] },
  'patients-report': { table: sql`patients`, params: ['userId'] },
  groups: { table: sql`groups`, params: ['id', 'groupId'] },
  regimens: { table: sql`regimens`, params: ['regimenId'] },
  orders: { table: sql`medication_orders`, params: ['orderId'] },
  surveys: { table: sql`surveys`, params: ['surveyId'] },
  pipelines: { table: sql`pipelines`, params: ['pipeline_id'] },
  report: { table: sql`reports`, params: ['reportId'] },
  'order-form': { table: sql`order_forms`, params: ['id'] },
  'fhir-clients': { table: sql`fhir_clients`, params: ['clientId'] },
};

/**
 * Program routes whose `users/:param` is not an existing patient: the signed-in staff member (page time,
 * access check) or the enrolment form's id of a patient not created yet (duplicate check).
 */
const NOT_PATIENT_PATHS = new Set<string>([
  userContract.pageSession.path,
  tenancyContract.checkAccess.path,
  patientRecordContract.checkExists.path,
]);

/** The path objects of a program route's URL pattern, each with its table: pure, for the test too. */
export function programPathObjects(url: string): { param: string; table: SQL }[] {
  if (NOT_PATIENT_PATHS.has(url)) return [];
  const segments = url.split('/');
  const found: { param: string; table: SQL }[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    if (!segment.startsWith(':')) continue;
    const param = segment.slice(1);
    const kind = PROGRAM_PATH_OBJECTS[segments[i - 1]!];
    if (kind?.params.includes(param)) found.push({ param, table: kind.table });
  }
  return found;
}

/**
 * Whether a request about to be refused for its input names, in its path, an object outside the program
 * the access hook resolved: then the answer is the 404 that valid input gets, so an outsider learns nothing
 * from a 422 and a client is told first that the object is not there. Runs on the refusal path only: valid
 * requests pay nothing (their services check the object in their own statements).
 */
export async function foreignPathObject(
  db: Database,
  request: FastifyRequest,
): Promise<boolean | 'forbidden'> {
  const rule = request.routeOptions.config?.access;
  if (request.actor?.realm === 'staff') {
    const ids = programRefsOf(request);
    if (ids.length > 0 && !(await programRefsInScope(db, request.actor, ids))) return true;
    if (rule?.kind === 'staff' && rule.programRoles && ids.length > 0) {
      const held = await bodyObjectsAccess(db, request.actor.adminId, programItself, ids, rule.programRoles);
      if (held.allowed !== ids.length) return 'forbidden';
    }
  }
  if (rule?.kind === 'objects' && request.actor?.realm === 'staff') {
    const named = bodyObjectIds(rule.in === 'query' ? request.query : request.body, rule.field);
    if (named.length === 0) return false;
    const found = await bodyObjectsAccess(
      db,
      request.actor.adminId,
      rule.object.programOf,
      named,
      rule.roles,
    );
    if (found.visible !== named.length) return true;
    return rule.roles && found.allowed !== named.length ? 'forbidden' : false;
  }
  const program = request.actor?.realm === 'staff' ? request.actor.program : undefined;
  const url = request.routeOptions.url;
  if (rule?.kind !== 'program' || !program || !url) return false;
  const objects = programPathObjects(url);
  if (objects.length === 0) return false;
  const checks: SQL[] = [];
  for (const { param, table } of objects) {
    const id = pathIdOrNull(request, param);
    if (id === null) return true;
    checks.push(sql`EXISTS (SELECT 1 FROM ${table} WHERE id = ${id} AND program_id = ${program.id})`);
  }
  const res = await db.execute<{ ok: boolean }>(sql`SELECT ${sql.join(checks, sql` AND `)} AS ok`);
  return res.rows[0]?.ok !== true;
}

/**
 * The ids an `objects` rule's body field names (one id or a list), read the same way before validation (the
 * refusal path) and after it; values that are not ids are left to validation.
 */
export function bodyObjectIds(input: unknown, field: string): number[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  const value = (input as Record<string, unknown>)[field];
  const ids = new Set<number>();
  for (const item of Array.isArray(value) ? value : [value]) {
    const text = typeof item === 'number' ? String(item) : typeof item === 'string' ? item.trim() : '';
    if (/^[1-9][0-9]{0,15}$/.test(text)) ids.add(Number(text));
  }
  return [...ids];
}

/** A program id as the "object kind" of itself: the roles held in the programs an input names. */
const programItself = (id: SQL) => sql`SELECT ${id}::bigint`;

/** The signed-in staff actor of a request whose route is not public. */
export function staffActor(request: FastifyRequest) {
  const actor = request.actor;
  if (actor?.realm !== 'staff') throw AppError.unauthenticated();
  return actor;
}

export function deviceActor(request: FastifyRequest) {
  const actor = request.actor;
  if (actor?.realm !== 'device') throw AppError.unauthenticated();
  return actor;
}

export function controllerActor(request: FastifyRequest) {
  const actor = request.actor;
  if (actor?.realm !== 'controller') throw AppError.unauthenticated();
  return actor;
}

/** The program a program- or object-scoped route's hook resolved. */
export function scopedProgram(request: FastifyRequest) {
  const program = staffActor(request).program;
  if (!program) throw new Error('scopedProgram() used on a route without a program or object access rule');
  return program;
}

/** The path object of an object-scoped route, already known to sit in `scopedProgram(request)`. */
export function scopedObjectId(request: FastifyRequest): number {
  const object = staffActor(request).object;
  if (!object) throw new Error('scopedObjectId() used on a route without an object access rule');
  return object.id;
}

export function scopedEnterprise(request: FastifyRequest) {
  const enterprise = staffActor(request).enterprise;
  if (!enterprise) throw new Error('scopedEnterprise() used on a route without an enterprise access rule');
  return enterprise;
}
