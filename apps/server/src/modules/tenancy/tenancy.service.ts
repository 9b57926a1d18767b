import { programAccess } from '../../platform/access/access.queries';
import type { StaffActor } from '../../platform/access/actor';
import { assertBodyRefsInScope, scopeOf } from '../../platform/access/scope';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import {
  patientInPrograms,
  programStaff,
  replaceProgramRoles,
  visibleEnterprises,
  visiblePrograms,
} from './tenancy.queries';

export const ADMIN_PROGRAM_ROLES_UPDATED = 'AdminProgramRolesUpdated';

export function createTenancyService(deps: { db: Database; realtime: Realtime }) {
  const { db, realtime } = deps;
  return {
    async programsOf(actor: StaffActor) {
      return (await visiblePrograms(db, actor.adminId)).map(({ modules: _m, ...p }) => p);
    },

    enterprisesOf: (actor: StaffActor) => visibleEnterprises(db, actor.adminId),

    async programAdmins(actor: StaffActor) {
      if (!actor.program) throw new Error('programAdmins needs the program the access hook resolved');
      return { data: await programStaff(db, actor.program.id) };
    },

    /** 404 unless the patient belongs to the request's program, or to a program of its enterprise the actor sees. */
    async checkPatientAccess(actor: StaffActor, input: { patientId: number }): Promise<{ access: true }> {
      if (!(await patientInPrograms(db, input.patientId, scopeOf(actor).programIds)))
        throw AppError.notFound();
      return { access: true };
    },

    /**
     * An admin of the program sets another staff member's roles there. The member's console hears
     * AdminProgramRolesUpdated on their private channel and reloads their details.
     */
    async updateProgramRoles(
      actor: StaffActor,
      input: { targetId: number; programId: number; roles: string[] },
    ) {
      const { targetId, programId, roles } = input;
      const program = await programAccess(db, actor.adminId, programId);
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
            actorAdminId: actor.adminId,
            programId,
            action: 'admin.update_program_roles',
            subjectType: 'admin',
            subjectId: targetId,
            details: { roles },
            ip: actor.ip,
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
