import { sql } from 'drizzle-orm';
import { programAccess } from '../../platform/access/access.queries';
import { assertBodyRefsInScope } from '../../platform/access/scope';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import { replaceProgramRoles, visibleEnterprises, visiblePrograms } from './tenancy.queries';

export const ADMIN_PROGRAM_ROLES_UPDATED = 'AdminProgramRolesUpdated';

export function createTenancyService(deps: { db: Database; realtime: Realtime }) {
  const { db, realtime } = deps;
  return {
    async programsOf(adminId: number) {
      return (await visiblePrograms(db, adminId)).map(({ modules: _m, ...p }) => p);
    },

    enterprisesOf: (adminId: number) => visibleEnterprises(db, adminId),

    /** 404 unless the patient belongs to one of the given programs. */
    async assertPatientInPrograms(patientId: number, programIds: number[]): Promise<void> {
      const res = await db.execute(sql`
        SELECT 1 FROM patients WHERE id = ${patientId}
          AND program_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(programIds)}::jsonb)::bigint)`);
      if (!res.rowCount) throw AppError.notFound();
    },

    /**
     * An admin of the program sets another staff member's roles there. The member's console hears
     * AdminProgramRolesUpdated on their private channel and reloads their details.
     */
    async updateProgramRoles(
      actorId: number,
      targetId: number,
      programId: number,
      roles: string[],
      ip: string,
    ) {
      const program = await programAccess(db, actorId, programId);
      if (!program) throw AppError.notFound();
      if (!program.roles.includes('admin') && !program.roles.includes('enterprise_admin'))
        throw AppError.forbidden();
      const changed = await db.transaction(async (tx) => {
        // Only staff who work in the program's enterprise (or, without one, in the program) can be given
        // roles there; a foreign id answers exactly like an unknown one.
        await assertBodyRefsInScope(
          tx,
          { programIds: [program.id], enterpriseIds: program.enterpriseId ? [program.enterpriseId] : [] },
          { staff: [targetId] },
        );
        const didChange = await replaceProgramRoles(tx, targetId, programId, roles);
        if (didChange) {
          await audit(tx, {
            actorAdminId: actorId,
            programId,
            action: 'admin.update_program_roles',
            subjectType: 'admin',
            subjectId: targetId,
            details: { roles },
            ip,
          });
        }
        return didChange;
      });
      if (changed)
        realtime.toUser(targetId, ADMIN_PROGRAM_ROLES_UPDATED, { admin_id: targetId, program_id: programId });
      const unique = [...new Set(roles)].sort();
      return { id: targetId, program_id: programId, roles: unique };
    },
  };
}

export type TenancyService = ReturnType<typeof createTenancyService>;
