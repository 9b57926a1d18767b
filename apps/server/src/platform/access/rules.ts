import type { StaffRole } from '@caredeck/contracts';
import type { SQL } from 'drizzle-orm';

/**
 * A kind of object that spec paths name without its program (`users/{id}`, `notes/{n}`, `groups/{id}`):
 * `programOf` is a scalar SQL subquery giving the program the object belongs to. The access hook puts it
 * in the session statement, so the session, the object's program and the actor's roles there come back
 * in one round trip. Modules declare their kinds beside their queries (see modules/patients/patients.queries.ts).
 */
export type ObjectKind = { name: string; programOf: (id: number | SQL) => SQL };

export function defineObjectKind(name: string, programOf: (id: number | SQL) => SQL): ObjectKind {
  return { name, programOf };
}

/**
 * Every route declares one of these in `config.access`; registration fails without it.
 * - public: no sign-in (auth, health, config, static console).
 * - staff: any signed-in staff user; `hipaaPending` also admits the limited token given before HIPAA consent;
 *   `controller` also admits a controller-realm token (the service scopes what each sees). A program the input
 *   names must be one the staff member works in (ADR 062, else 404); with `programRoles`, they must hold one of
 *   those roles there (else 403), as on the program's own routes (ADR 063).
 * - program: staff with a role in the `:programId` path program (or enterprise admin of its enterprise);
 *   another program answers 404, a missing role 403.
 * - object: staff with a role in the program the path object (`:param`) belongs to; an unknown object and
 *   an object of another program answer the same 404, a missing role 403. With `controller`, a
 *   controller-realm token is accepted too (the device fleet's operators see every device; the service
 *   answers 404 for an object that does not exist).
 * - objects: staff acting on objects named by id in the body (`field`, an id or a list of ids: bulk routes,
 *   `ids` arrays), or in the query with `in: 'query'`, rather than in the path. Every id must name an object of a program where the actor holds a
 *   role (else 404 and nothing changes), and `roles` apply in each of those programs exactly as on the
 *   single-object route (else 403). Checked by the access plugin after validation (one query) and, for input
 *   refused by validation, before its 422.
 * - enterprise: staff with access to the `:enterpriseId` path enterprise; otherwise 404.
 * - controller: a controller-realm token; staff tokens are refused.
 * - device: a device of the fleet signing in with HTTP Basic (its serial and its MQTT secret), for the calls
 *   devices make over HTTPS (the NFC channel); staff and controller tokens are refused.
 * - guest: the guest channel (02 §2): `Authorization: Guest <link token>`, a signed, expiring, revocable link to
 *   one conversation, checked by the messenger's guest service (modules/messenger/guest.service.ts), which
 *   answers 401 for a bad, expired or revoked token and 404 for any other conversation. No staff token is used.
 * - fhir: the FHIR API (ADR 073, 074): a staff session, as `staff` (the service scopes the answer to the
 *   programs the staff member may open), or a SMART backend client's token (`Bearer`, from /fhir/auth/token)
 *   of a client not revoked: the client's program only, within the scopes the token was granted.
 */
export type AccessRule =
  | { kind: 'public' }
  | {
      kind: 'staff';
      hipaaPending?: boolean;
      controller?: boolean;
      /** One of these roles in every program the input names (`program_id`, `program_ids`), else 403. */
      programRoles?: readonly StaffRole[];
    }
  | { kind: 'program'; roles?: readonly StaffRole[] }
  | {
      kind: 'object';
      object: ObjectKind;
      param: string;
      roles?: readonly StaffRole[];
      notFound?: string;
      controller?: boolean;
    }
  | {
      kind: 'objects';
      object: ObjectKind;
      field: string;
      /** Where the field is: the body (default) or the query. */
      in?: 'query';
      roles?: readonly StaffRole[];
      notFound?: string;
    }
  | { kind: 'enterprise'; roles?: readonly StaffRole[] }
  | { kind: 'controller' }
  | { kind: 'device' }
  | { kind: 'guest' }
  | { kind: 'fhir' };

export const access = {
  public: (): AccessRule => ({ kind: 'public' }),
  staff: (opts: { hipaaPending?: boolean; programRoles?: readonly StaffRole[] } = {}): AccessRule => ({
    kind: 'staff',
    ...opts,
  }),
  /** Any signed-in staff user or controller (device fleet routes shared by /controller and the console). */
  staffOrController: (opts: { programRoles?: readonly StaffRole[] } = {}): AccessRule => ({
    kind: 'staff',
    controller: true,
    ...opts,
  }),
  program: (roles?: readonly StaffRole[]): AccessRule => ({ kind: 'program', roles }),
  /** The program is the one the `:param` path object belongs to (default param `id`). */
  object: (
    object: ObjectKind,
    opts: { param?: string; roles?: readonly StaffRole[]; notFound?: string; controller?: boolean } = {},
  ): AccessRule => ({
    kind: 'object',
    object,
    param: opts.param ?? 'id',
    roles: opts.roles,
    ...(opts.notFound ? { notFound: opts.notFound } : {}),
    ...(opts.controller ? { controller: true } : {}),
  }),
  /** Objects named by id in the body's `field` (a bulk route): their programs decide, with the same roles. */
  objects: (
    object: ObjectKind,
    opts: { field: string; in?: 'body' | 'query'; roles?: readonly StaffRole[]; notFound?: string },
  ): AccessRule => ({
    kind: 'objects',
    object,
    field: opts.field,
    ...(opts.in === 'query' ? { in: 'query' as const } : {}),
    roles: opts.roles,
    ...(opts.notFound ? { notFound: opts.notFound } : {}),
  }),
  enterprise: (roles?: readonly StaffRole[]): AccessRule => ({ kind: 'enterprise', roles }),
  controller: (): AccessRule => ({ kind: 'controller' }),
  device: (): AccessRule => ({ kind: 'device' }),
  guest: (): AccessRule => ({ kind: 'guest' }),
  fhir: (): AccessRule => ({ kind: 'fhir' }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
}
