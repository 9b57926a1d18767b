import type { StaffRole } from '@caredeck/contracts';

/**
 * Every route declares one of these in `config.access`; registration fails without it.
 * - public: no sign-in (auth, health, config, static console).
 * - staff: any signed-in staff user; `hipaaPending` also admits the limited token given before HIPAA consent.
 * - program: staff with a role in the `:programId` path program (or enterprise admin of its enterprise);
 *   another program answers 404, a missing role 403.
 * - enterprise: staff with access to the `:enterpriseId` path enterprise; otherwise 404.
 * - controller: a controller-realm token; staff tokens are refused.
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'staff'; hipaaPending?: boolean }
  | { kind: 'program'; roles?: readonly StaffRole[] }
  | { kind: 'enterprise'; roles?: readonly StaffRole[] }
  | { kind: 'controller' };

export const access = {
  public: (): AccessRule => ({ kind: 'public' }),
  staff: (opts: { hipaaPending?: boolean } = {}): AccessRule => ({ kind: 'staff', ...opts }),
  program: (roles?: readonly StaffRole[]): AccessRule => ({ kind: 'program', roles }),
  enterprise: (roles?: readonly StaffRole[]): AccessRule => ({ kind: 'enterprise', roles }),
  controller: (): AccessRule => ({ kind: 'controller' }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
}
