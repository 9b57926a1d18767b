import type { StaffRole } from '@caredeck/contracts';
import type { Realm, Scope } from '../auth/tokens';

export type StaffActor = {
  realm: 'staff';
  adminId: number;
  sessionId: number;
  /** The random id the access token carries (see platform/auth/sessions). */
  sessionPublicId: string;
  scope: Scope;
  /** Set on program-scoped routes: the path program and the roles the actor holds there. */
  program?: { id: number; enterpriseId: number | null; roles: StaffRole[] };
  /** Set on enterprise-scoped routes: the path enterprise and the programs of it the actor may see. */
  enterprise?: { id: number; programIds: number[]; isEnterpriseAdmin: boolean };
};
export type ControllerActor = {
  realm: 'controller';
  controllerId: number;
  sessionId: number;
  sessionPublicId: string;
};
export type Actor = StaffActor | ControllerActor;

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export function realmOf(actor: Actor): Realm {
  return actor.realm;
}
