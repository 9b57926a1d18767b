import type { StaffRole } from '@caredeck/contracts';
import type { FastifyRequest } from 'fastify';
import type { Realm, Scope } from '../auth/tokens';

/**
 * Who acts. Every service use case takes `(actor, input)`: the actor says who is acting, from where,
 * and (on scoped routes) in which program or enterprise the access hook found them entitled to act.
 */
export type StaffActor = {
  realm: 'staff';
  adminId: number;
  sessionId: number;
  /** The random id the access token carries (see platform/auth/sessions). */
  sessionPublicId: string;
  scope: Scope;
  /** The client's address (after TRUST_PROXY), for audit rows and rate limits. */
  ip: string;
  /**
   * Set on program- and object-scoped routes: the program (the path's, or the one the path object
   * belongs to) and the roles the actor holds there.
   */
  program?: { id: number; enterpriseId: number | null; roles: StaffRole[] };
  /** Set on object-scoped routes: the path object the program was resolved from. */
  object?: { kind: string; id: number };
  /** Set on enterprise-scoped routes: the path enterprise and the programs of it the actor may see. */
  enterprise?: { id: number; programIds: number[]; isEnterpriseAdmin: boolean; roles: StaffRole[] };
};
export type ControllerActor = {
  realm: 'controller';
  controllerId: number;
  sessionId: number;
  sessionPublicId: string;
  ip: string;
};
/** A device of the fleet calling over HTTPS with its own credentials (the NFC channel). */
export type DeviceActor = {
  realm: 'device';
  deviceId: number;
  serial: string;
  kind: string;
  programId: number | null;
  patientId: number | null;
  ip: string;
};
/** A SMART backend client of a program reading /fhir with a token it was granted (ADR 074). */
export type FhirClientActor = {
  realm: 'fhir_client';
  clientId: number;
  programId: number;
  enterpriseId: number | null;
  scopes: string[];
  ip: string;
};
/** Someone not signed in (sign-in, forgotten password, registration): known only by their address. */
export type PublicActor = { realm: 'public'; ip: string };
export type Actor = StaffActor | ControllerActor;

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | DeviceActor | FhirClientActor | null;
  }
}

export function realmOf(actor: Actor): Realm {
  return actor.realm;
}

/** The actor of a public route. */
export function publicActor(request: FastifyRequest): PublicActor {
  return { realm: 'public', ip: request.ip };
}
