import {
  type ActiveUser,
  accessRuleKey,
  accessRulesContract,
  type RouteContract,
  type StaffRole,
} from '@caredeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCurrentUser } from '../../features/identity/api';
import type { ActiveScope } from '../../features/tenancy/scope';
import { api } from '../../shared/api-client';

type Route = Pick<RouteContract, 'method' | 'path'>;

/** The roles the server requires per route, from its declared access rules (ADR 065); kept for the session. */
export function useAccessRules() {
  return useQuery({
    queryKey: ['access-rules'],
    queryFn: ({ signal }) => api.call(accessRulesContract.list, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    select: (answer): ReadonlyMap<string, readonly StaffRole[]> =>
      new Map(answer.data.map((entry) => [`${entry.method} ${entry.path}`, entry.roles] as const)),
  });
}

/**
 * The user's roles in a program as the server counts them: the program's grants and the grants of its
 * enterprise (an enterprise admin holds `enterprise_admin` in each of its programs).
 */
export function rolesInProgram(
  user: ActiveUser,
  programId: number,
  enterpriseId: number | null,
): StaffRole[] {
  return user.roles
    .filter(
      (grant) =>
        grant.program_id === programId ||
        (grant.program_id === null && enterpriseId !== null && grant.enterprise_id === enterpriseId),
    )
    .map((grant) => grant.name);
}

/** Whether the user may call `route` in the scope's program (any of the enterprise's on enterprise scope). */
export function mayCall(
  rules: ReadonlyMap<string, readonly StaffRole[]>,
  route: Route,
  user: ActiveUser,
  scope: ActiveScope,
): boolean {
  const required = rules.get(accessRuleKey(route));
  if (!required) return true;
  const programs = scope.enterpriseScope
    ? user.programs.filter((p) => p.enterprise_id === scope.enterprise?.id)
    : [
        {
          id: scope.programId,
          enterprise_id:
            user.programs.find((p) => p.id === scope.programId)?.enterprise_id ??
            scope.program?.enterprise_id ??
            null,
        },
      ];
  return programs.some((program) =>
    rolesInProgram(user, program.id, program.enterprise_id ?? null).some((role) => required.includes(role)),
  );
}

/**
 * Whether the signed-in user's role may perform the action the route is (ADR 065): the console hides what it
 * may not, from the rules the server enforces. Offered until the rules are known (the server still decides).
 */
export function useMayCall(route: Route, scope: ActiveScope | null | undefined): boolean {
  const user = useCurrentUser();
  const rules = useAccessRules();
  if (!user || !scope || !rules.data) return true;
  return mayCall(rules.data, route, user, scope);
}
