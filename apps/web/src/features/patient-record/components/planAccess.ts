import { CARE_ROLES, type StaffRole } from '@caredeck/contracts';
import { hasAnyRole } from '../../../app/auth/roles';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';

/** Who changes a medication plan: the care roles and the pharmacy (the server's rule; pharma users read it). */
export const PLAN_ROLES: readonly StaffRole[] = [...CARE_ROLES, 'pharmacy'];

/**
 * Whether the signed-in user may change the patient's medication plan in the active program. The server
 * answers 403 anyway; this keeps a read-only user from meeting buttons that can only fail. Until the user and
 * the scope are known the controls stay (the server decides).
 */
export function useCanChangePlan(): boolean {
  const user = useCurrentUser();
  const scope = useActiveScope();
  if (!user || !scope) return true;
  return hasAnyRole(user, PLAN_ROLES, scope);
}
