import type { ActiveUser, StaffRole } from '@caredeck/contracts';
import type { ActiveScope } from '../../features/tenancy/scope';

/**
 * Whether the user holds `role` where they work (01 §6): a grant of that role for the active program, or
 * enterprise_admin of that program's enterprise. On enterprise scope: a grant of the role for any program of
 * the enterprise, or enterprise_admin of it.
 */
export function hasRole(user: ActiveUser, role: StaffRole, scope: ActiveScope): boolean {
  if (scope.enterpriseScope && scope.enterprise) {
    const enterpriseId = scope.enterprise.id;
    const programIds = new Set(
      user.programs.filter((program) => program.enterprise_id === enterpriseId).map((program) => program.id),
    );
    return user.roles.some(
      (grant) =>
        (grant.name === 'enterprise_admin' && grant.enterprise_id === enterpriseId) ||
        (grant.name === role &&
          (grant.enterprise_id === enterpriseId || programIds.has(grant.program_id ?? -1))),
    );
  }
  const programEnterpriseId =
    user.programs.find((program) => program.id === scope.programId)?.enterprise_id ??
    scope.program?.enterprise_id;
  return user.roles.some(
    (grant) =>
      (grant.name === role && grant.program_id === scope.programId) ||
      (grant.name === 'enterprise_admin' &&
        programEnterpriseId !== null &&
        programEnterpriseId !== undefined &&
        grant.enterprise_id === programEnterpriseId),
  );
}

/** A route open to several roles lets in a user holding any of them. */
export function hasAnyRole(user: ActiveUser, roles: readonly StaffRole[], scope: ActiveScope): boolean {
  return roles.some((role) => hasRole(user, role, scope));
}
