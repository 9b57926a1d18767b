import { z } from 'zod';
import { defineRoute, type RouteContract } from './route';
import { staffRole } from './tenancy';

/**
 * The roles each route requires in its program, as the server's declared access rules say (ADR 063, ADR 065):
 * the console hides or disables what the signed-in user's role may not do from this, not from a list of its own.
 * Only routes that require particular roles are listed; a route not listed admits any role in its program.
 */
export const accessRuleEntry = z.object({
  method: z.string(),
  /** The contract's path (`/api/v1/programs/:programId/groups`). */
  path: z.string(),
  roles: z.array(staffRole),
});
export type AccessRuleEntry = z.infer<typeof accessRuleEntry>;

/** The key of a route in the table: `POST /api/v1/programs/:programId/groups`. */
export function accessRuleKey(route: Pick<RouteContract, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

export const accessRulesContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/access-rules',
    summary: 'The roles each route requires in its program (the declared access rules, for the console)',
    tags: ['user'],
    responses: { 200: z.object({ data: z.array(accessRuleEntry) }) },
  }),
};
