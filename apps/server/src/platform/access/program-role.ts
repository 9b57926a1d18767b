import type { StaffRole } from '@caredeck/contracts';
import type { Queryable } from '../db/client';
import { AppError } from '../http/errors';
import { programAccess } from './access.queries';

/**
 * For calls that name their program in the query or body (not the path): the program, when the staff
 * member holds a role there (404 otherwise, as for a program that does not exist), and one of `roles` when
 * given (403 without).
 */
export async function requireProgramRole(
  db: Queryable,
  adminId: number,
  programId: number,
  roles?: readonly StaffRole[],
): Promise<number> {
  const access = await programAccess(db, adminId, programId);
  if (!access) throw AppError.notFound('Program not found');
  if (roles && !access.roles.some((r) => roles.includes(r))) throw AppError.forbidden();
  return access.id;
}
